import ControlsKit
import LoopKit
import RepriseCore
import VideoInput

/// The on-screen controls over the picture: the window's input — pointer, wheel, touch and keys — goes through
/// ``VideoControlsInput`` (the core's rules, the window's own keys included) and its actions are done here, and the
/// scene is painted (``ControlsPainter``) for the window to show over the frames while they show. Their timing rides
/// on the controller's quarter-second clock.
extension VideoController {
    /// What the bar offers now.
    var controlsContext: VideoControlsInput.Context {
        let size = window?.drawnSize ?? (width: 1, height: 1)
        let layout = VideoControlsLayout(width: size.width, height: size.height, mode: isPictureInPicture ? .pictureInPicture : .window)
        let scrubber = VideoScrubber(positionMicroseconds: player.positionMicroseconds, lengthMicroseconds: player.queue.current?.lengthMicroseconds,
                                     canSeek: player.canSeek, chapters: player.chapters, schedule: player.interstitialPlayback.schedule)
        var context = VideoControlsInput.Context(layout: layout, scrubber: scrubber)
        context.skipShown = player.canSkipInterstitial
        context.speeds = speedList
        context.rate = player.rate
        context.audioTracks = audioTracks.map(\.title)
        context.currentAudio = currentAudioTrack >= 0 ? currentAudioTrack : nil
        context.subtitleTracks = subtitleTracks.map(\.title)
        context.currentSubtitles = currentSubtitleTrack >= 0 ? currentSubtitleTrack : nil
        context.infoTextHeight = infoTextHeight(windowWidth: size.width)
        return context
    }

    /// The description's height in the info panel, measured with Pango once for each text and window width.
    private func infoTextHeight(windowWidth: Int) -> Int {
        let text = player.announcedTrack?.description ?? ""
        if let measured = measuredInfoText, measured.text == text, measured.windowWidth == windowWidth { return measured.height }
        let height = ControlsPainter.infoTextHeight(text, windowWidth: windowWidth)
        measuredInfoText = (text, windowWidth, height)
        return height
    }

    /// An input of the window, made actions by the core's controls and performed. Pointer input counts only while
    /// video shows; keys always do.
    func windowInput(_ input: VideoInput) {
        if case .key = input {} else if !hasVideo { return }
        perform(controls.handle(input, at: monotonicSeconds(), in: controlsContext))
        refreshControls(followingPlayback: false)
        awaitControlsDeadline()
    }

    /// Sets a timer for the controls' next deadline (a tap's double-click interval, its glyph's end), where one waits.
    private func awaitControlsDeadline() {
        controlsDeadline?.cancel()
        controlsDeadline = nil
        guard let deadline = controls.nextDeadline else { return }
        let milliseconds = max(0, (deadline - monotonicSeconds()) * 1000).rounded(.up)
        controlsDeadline = loop.once(afterMilliseconds: UInt32(min(milliseconds, 60_000))) { [weak self] in
            guard let self else { return }
            controlsDeadline = nil
            // The timer's firing is the deadline come (a timer is never early; the clock read may round below it).
            perform(controls.tick(now: max(monotonicSeconds(), deadline)))
            refreshControls(followingPlayback: false)
            awaitControlsDeadline()
        }
    }

    private func perform(_ actions: [VideoControlsAction]) {
        for action in actions {
            switch action {
            case .togglePlayPause: remote.togglePlayback()
            case .seekBy(let microseconds): player.seek(by: microseconds)
            case .seekTo(let microseconds): player.setPosition(entryID: player.queue.current?.id, microseconds: microseconds)
            case .toggleFullscreen: setFullscreen(!isFullscreen)
            case .leaveFullscreen: setFullscreen(false)
            case .toggleFitFill: setAspectMode(aspectMode.toggled)
            case .togglePictureInPicture: setPictureInPicture(!isPictureInPicture)
            case .leavePictureInPicture: setPictureInPicture(false)
            case .close:
                remote.stop()
            case .skipInterstitial: try? player.skipInterstitial()
            case .setRate(let rate): try? player.setRate(rate)
            case .chooseAudio(let index): try? selectAudioTrack(index)
            case .chooseSubtitles(let index): try? selectSubtitleTrack(index ?? -1)
            case .openMenu: break
            case .beginWindowMove(let rootX, let rootY): window?.beginMove(rootX: rootX, rootY: rootY, button: 1)
            }
        }
    }

    /// Draws a small scene once, so that the first motion over the picture does not wait for fontconfig and Pango
    /// to load the fonts (a third of a second on a cold start).
    func warmUpControls() {
        if let reason = ControlsPainter.unavailableReason {
            return log.warning("video: the controls cannot be drawn: \(reason)")
        }
        var scene = VideoControlsScene(layout: VideoControlsLayout(width: 160, height: 90),
                                       scrubber: VideoScrubber(positionMicroseconds: 0, lengthMicroseconds: 1, canSeek: false))
        scene.shown = true
        scene.title = "Reprise"
        _ = ControlsPainter().paint(scene, scale: window?.scale ?? 1)
    }

    /// Every quarter second: the controls hide when due; while they show, the scrubber and times follow playback.
    func controlsTick() {
        guard hasVideo else { return }
        let now = monotonicSeconds()
        controls.visibility.playbackChanged(playing: player.status == .playing, at: now)
        if controls.visibility.tick(now: now) || controls.visibility.shown || player.interstitialPlayback.active != nil {
            refreshControls()
        }
    }

    /// Paints the controls for the window (or takes them away) and draws the picture again with them, when what they
    /// show changed. `followingPlayback` false (pointer and keys): playback's progress alone repaints nothing, as it
    /// does on the quarter-second clock — a pointer moving at 100 Hz over a 4K window would repaint at its pace.
    func refreshControls(followingPlayback: Bool = true) {
        guard let window, hasVideo else { return }
        controls.visibility.playbackChanged(playing: player.status == .playing, at: monotonicSeconds())
        let context = controlsContext
        var scene = VideoControlsScene(layout: context.layout, scrubber: context.scrubber)
        scene.shown = controls.visibility.shown
        scene.title = player.announcedTrack?.title ?? ""
        scene.subtitle = player.announcedTrack?.subtitle
        scene.playing = player.status == .playing
        scene.fullscreen = isFullscreen
        scene.dragFraction = controls.dragFraction
        scene.focused = controls.focused
        scene.menu = controls.menu
        scene.infoText = player.announcedTrack?.description
        scene.rate = player.rate
        scene.skip = SkipButtonState(schedule: player.interstitialPlayback.schedule, position: player.positionMicroseconds)
        scene.glyph = controls.glyph
        let visible = scene.shown || scene.skip != .hidden || scene.glyph != nil
        window.isPointerHidden = controls.visibility.pointerHidden
        guard visible || paintedControls != nil else { return }
        guard !visible || paintedControls.map({
            $0.scale == window.scale && scene.drawsTheSame(as: $0.scene, ignoringPlayback: !followingPlayback)
        }) != true else { return }
        let wereShown = paintedControls?.scene.shown ?? false
        paintedControls = visible ? (scene, window.scale) : nil
        if scene.shown != wereShown { log.debug(scene.shown ? "video controls shown" : "video controls hidden") }
        window.showControls(visible ? scene : nil)
        drawLatestFrame()
    }
}

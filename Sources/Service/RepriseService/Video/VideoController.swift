import GStreamerKit
import LoopKit
import MPRIS
import RepriseCore
import RepriseInterfaces
import VideoInput

/// Video for the player: the window (shown only while the loaded media has video, titled with it), its keys,
/// fullscreen, fit/fill, audio and subtitle streams, the loading spinner and the interstitial clock.
/// Runs on the event loop; without a display it only reports streams and plays the sound.
final class VideoController: VideoControl, ServiceComponent {
    let name = "video"
    let loop: VideoLoop
    private let playbin: VideoPipeline
    let player: Player
    let log: Log
    /// Nil without a display, and once the display went away.
    private(set) var window: VideoSurface?
    /// Every play, pause and stop asked from the window's keys and controls (the audio policy is told first).
    let remote: RemoteControl
    let speedList: SpeedList

    private(set) var hasVideo = false
    private var format: VideoFormat?
    private(set) var aspectMode: AspectMode = .fit
    private(set) var audioTracks: [StreamChoice] = []
    private(set) var subtitleTracks: [StreamChoice] = []
    /// The selections, kept here so announcing them (after every player change) never reads playbin's properties.
    private(set) var currentAudioTrack = -1
    private(set) var currentSubtitleTrack = -1
    private var loading = LoadingState()
    private(set) var isLoading = false
    private var spinnerPhase = 0
    private var appliedLayout: VideoLayout?
    /// Picture in Picture: the window small, above the others, in the screen's corner.
    private(set) var isPictureInPicture = false
    /// Whether the window was fullscreen when Picture in Picture began (it is again after).
    private var fullscreenBeforePictureInPicture = false
    /// The on-screen controls: what pointer and keys did to them, and whether they show (VideoController+Controls).
    var controls = VideoControlsInput()
    /// The controls' scene the window shows now, and the scale it was painted at (nil: none shown).
    var paintedControls: (scene: VideoControlsScene, scale: Int)?
    /// The description's wrapped height for the info panel, kept while the text and the window's width stay.
    var measuredInfoText: (text: String, windowWidth: Int, height: Int)?
    /// Set for the controls' next deadline: a tap on the picture's centre plays or pauses, or its glyph goes.
    var controlsDeadline: LoopTimer?
    /// The controls' fonts are loaded (``warmUpControls()``, once, when video first shows).
    private var controlsWarmedUp = false

    /// Opens the window (hidden) and gives it to playbin; call before the first stream loads.
    /// - Parameter makeWindow: the window on the display (nil without one).
    /// - Parameter remote: carries out every action taken from the window's keys (the audio policy told first).
    /// - Parameter streamEvents: the engine's: the window follows loads, prerolls and buffering.
    init(playbin: VideoPipeline, player: Player, remote: RemoteControl, streamEvents: StreamEvents, speeds: SpeedList,
         loop: VideoLoop, log: Log, makeWindow: () -> VideoSurface? = openVideoWindow) {
        self.playbin = playbin
        self.remote = remote
        self.loop = loop
        self.player = player
        self.log = log
        speedList = speeds
        window = makeWindow()
        if let window, playbin.enableVideo(output: window.videoOutput, onFrame: { [weak self] in self?.drawLatestFrame() }) {
            if case .waylandSurface = window.videoOutput {
                log.info("video: waylandsink drawing into a Wayland window")
            } else {
                log.info("video: drawing into X window \(window.handle)")
            }
        } else {
            window = nil
            log.info("video: no display (or no video sink): media with video plays its sound only")
        }
        streamEvents.listen(self)
    }

    /// Starts reading the window's events and the quarter-second clock (interstitials, spinner) on the loop.
    func start() {
        window?.watchEvents(on: loop) { [unowned self] in
            handleWindowEvents()
            return self.window != nil // the display went away: stop watching it
        }
        clock = loop.every(milliseconds: 250) { [unowned self] in tick() }
    }

    func stop(_ done: @escaping () -> Void) {
        window?.isVisible = false
        [clock, controlsDeadline, streamLook, resizeSettling].forEach { $0?.cancel() }
        (clock, controlsDeadline, streamLook, resizeSettling) = (nil, nil, nil, nil)
        resizedMeanwhile = false
        done()
    }

    /// The quarter-second clock, and a look at a stream's properties put off for a state change.
    private var clock: LoopTimer?
    private var streamLook: LoopTimer?
    /// Set for ``resizeSettleMilliseconds`` after a layout that followed a resize: resizes meanwhile are laid out
    /// once, when it ends (`resizedMeanwhile`), so a storm costs one layout per interval and a single resize none.
    private var resizeSettling: LoopTimer?
    private var resizedMeanwhile = false
    static let resizeSettleMilliseconds: UInt32 = 60

    var hasDisplay: Bool { window != nil }
    var isFullscreen: Bool { window?.isFullscreen ?? false }
    var aspectRatio: Double { format?.displayAspectRatio ?? 0 }
    var speeds: [Double] { speedList.speeds }

    // MARK: Engine events

    /// Streams loaded so far (a look at a stream's properties put off for a state change is dropped after a new load).
    private var loads = 0

    /// A stream has prerolled (or a gapless one started): look at its video and streams.
    func streamReady(subtitleURI: String?) {
        // Reading playbin's streams waits for any state change under way (which can be stuck for good): look again
        // shortly, for as long as this stream is the one loaded.
        guard !playbin.isChangingState else {
            let load = loads
            streamLook = loop.once(afterMilliseconds: 50) { [weak self] in
                if let self, self.loads == load { self.streamReady(subtitleURI: subtitleURI) }
            }
            return
        }
        audioTracks = playbin.audioStreams.map { StreamChoice(index: $0.index, language: $0.language, title: $0.title, codec: $0.codec) }
        // The sidecar file's stream is the one no container announced (playbin may list it before or after them).
        let streams = playbin.subtitleStreams
        let external = subtitleURI == nil ? nil : streams.first { $0.container == nil }?.index
        subtitleTracks = streams.map { stream in
            let isExternal = stream.index == external
            return StreamChoice(index: stream.index,
                                language: stream.language ?? (isExternal ? subtitleURI.flatMap(MediaSidecar.subtitleLanguage(ofURI:)) : nil),
                                title: stream.title ?? (isExternal ? subtitleURI.flatMap { MediaURI($0)?.lastPathComponent } : nil),
                                codec: stream.codec, isExternal: isExternal)
        }
        currentAudioTrack = audioTracks.isEmpty ? -1 : playbin.currentAudioStream
        currentSubtitleTrack = subtitleTracks.isEmpty || !playbin.showsSubtitles ? -1 : playbin.currentSubtitleStream
        let newFormat = playbin.videoStreamCount > 0 ? playbin.videoFormat : nil
        hasVideo = playbin.videoStreamCount > 0
        var requestedSize: (width: Int, height: Int)?
        if newFormat != format {
            format = newFormat
            appliedLayout = nil
            if let newFormat {
                aspectMode = .default(forAspectRatio: newFormat.displayAspectRatio)
                // A new picture: the window takes its shape (unless it covers the screen); a small one its aspect.
                if let window, isPictureInPicture {
                    let frame = pictureInPictureFrame(window)
                    window.setPictureInPicture(true, frame: frame)
                    requestedSize = (frame.width, frame.height)
                } else if let window, !window.isFullscreen {
                    let size = naturalWindowSize(width: newFormat.width, height: newFormat.height,
                                                 aspectRatio: newFormat.displayAspectRatio)
                    window.resize(width: size.width, height: size.height)
                    requestedSize = size
                }
            }
        }
        if let format {
            log.info("video: \(format.width)x\(format.height), aspect \(format.displayAspectRatio), \(aspectMode.rawValue); "
                     + "\(audioTracks.count) audio, \(subtitleTracks.count) subtitle streams")
        }
        updateWindow()
        // Laid out for the size asked for, so the picture renegotiates once, not once per intermediate size.
        applyLayout(windowSize: requestedSize, redrawingPausedPicture: false)
        player.feed.publish(.video)
    }

    /// A new stream loads: it negotiates at its own size (no layout left from the previous picture) and is laid
    /// out once it has prerolled.
    func streamWillLoad() {
        loads += 1
        playbin.forgetVideoFrame()
        guard window != nil, appliedLayout != nil else { return }
        appliedLayout = nil
        format = nil
        playbin.setVideoLayout(width: nil, height: nil, crop: (0, 0, 0, 0))
    }

    /// Buffering reports of network media (percent; 100 when done).
    func buffering(percent: Int) {
        loading.buffering(percent: percent, now: monotonicSeconds())
    }

    /// After every player change: the window follows the track (title) and the status (hidden when stopped).
    func followPlayback() {
        if player.status == .stopped, hasVideo || !audioTracks.isEmpty {
            hasVideo = false
            format = nil
            audioTracks = []
            subtitleTracks = []
            currentAudioTrack = -1
            currentSubtitleTrack = -1
        }
        updateWindow()
    }

    private func updateWindow() {
        guard let window else { return }
        // Network video still buffering shows its window already: black, with the spinner.
        let loadingVideo = isLoading && player.queue.current.map { MediaLocation.looksLikeVideo($0.uri) } == true
        let shown = (hasVideo || loadingVideo) && player.status != .stopped
        if let track = player.announcedTrack {
            window.title = track.subtitle.map { "\(track.title) — \($0)" } ?? track.title
        }
        if !shown {
            window.isFullscreen = false
            endPictureInPicture(restoring: false)
        }
        if shown, !window.isVisible {
            // The desktop's double-click interval, read as the window shows (a person changes it rarely).
            controls.doubleClickSeconds = window.desktopDoubleClickSeconds ?? VideoControlsInput.defaultDoubleClickSeconds
        }
        if shown, !window.isVisible, !controlsWarmedUp {
            // A second after the window shows: not in the way of its first configure and first frame.
            controlsWarmedUp = true
            loop.once(afterMilliseconds: 1000) { [weak self] in self?.warmUpControls() }
        }
        window.isVisible = shown
    }

    // MARK: Requests

    func setFullscreen(_ on: Bool) {
        guard let window, hasVideo else { return }
        if on { endPictureInPicture(restoring: false) }
        window.isFullscreen = on
        if on { window.raise() }
        handleWindowEvents()
        player.feed.publish(.video)
    }

    func raise() { window?.raise() }

    /// Enters Picture in Picture (leaving fullscreen) or returns to the window's previous size, place and
    /// fullscreen state. Playback goes on: only the window and the picture's scale change.
    func setPictureInPicture(_ on: Bool) {
        guard let window, on != isPictureInPicture else { return }
        if on {
            guard hasVideo else { return }
            fullscreenBeforePictureInPicture = window.isFullscreen
            window.isFullscreen = false
            isPictureInPicture = true
            let frame = pictureInPictureFrame(window)
            window.setPictureInPicture(true, frame: frame)
            log.info("video: Picture in Picture at \(frame.x),\(frame.y) \(frame.width)x\(frame.height)")
            applyLayout(windowSize: (frame.width, frame.height))
        } else {
            endPictureInPicture(restoring: true)
        }
        handleWindowEvents()
        player.feed.publish(.video)
    }

    /// Leaves Picture in Picture; `restoring`: fullscreen again if it was before.
    private func endPictureInPicture(restoring: Bool) {
        guard let window, isPictureInPicture else { return }
        isPictureInPicture = false
        // Fullscreen is asked first: leaving Picture in Picture then puts no window size over it (the window gets
        // its old size back when fullscreen ends).
        let backToFullscreen = restoring && fullscreenBeforePictureInPicture
        if backToFullscreen { window.isFullscreen = true }
        window.setPictureInPicture(false, frame: (0, 0, 0, 0))
        if backToFullscreen { window.raise() }
        log.info("video: Picture in Picture ended")
    }

    /// A quarter of the screen's width (at least 240 px), the picture's aspect, in the bottom right corner.
    private func pictureInPictureFrame(_ window: VideoSurface) -> (x: Int, y: Int, width: Int, height: Int) {
        let screen = window.screenSize
        let aspect = format.map { $0.displayAspectRatio > 0 ? $0.displayAspectRatio : 16.0 / 9 } ?? 16.0 / 9
        let width = max(240, screen.width / 4), height = max(1, Int((Double(width) / aspect).rounded()))
        let margin = 24
        return (max(0, screen.width - width - margin), max(0, screen.height - height - margin), width, height)
    }

    func setAspectMode(_ mode: AspectMode) {
        guard mode != aspectMode else { return }
        aspectMode = mode
        applyLayout()
        player.feed.publish(.video)
    }

    func selectAudioTrack(_ index: Int) throws(PlayerError) {
        guard audioTracks.indices.contains(index) else { throw .invalidArgument("no audio track \(index) (there are \(audioTracks.count))") }
        playbin.currentAudioStream = index
        currentAudioTrack = index
        player.feed.publish(.video)
    }


    func selectSubtitleTrack(_ index: Int) throws(PlayerError) {
        guard index == -1 || subtitleTracks.indices.contains(index) else {
            throw .invalidArgument("no subtitle track \(index) (there are \(subtitleTracks.count); -1 turns them off)")
        }
        if index >= 0 { playbin.currentSubtitleStream = index }
        playbin.showsSubtitles = index >= 0
        currentSubtitleTrack = index
        player.feed.publish(.video)
    }


    // MARK: The window

    func handleWindowEvents() {
        guard let window else { return }
        while let event = window.nextEvent() {
            switch event {
            case .input(let input): windowInput(input)
            case .resized:
                // A single resize (fullscreen, a new output scale) is laid out at once; a storm of them (a window
                // manager, a script) once per interval: each layout may renegotiate the stream and seek a paused
                // picture, which holds the loop for a while every time.
                if resizeSettling == nil {
                    layOutAfterResize()
                } else {
                    resizedMeanwhile = true
                }
            case .exposed: drawLatestFrame()
            case .closeRequested:
                log.info("video window closed: stopping")
                remote.stop()
            }
        }
        if window.isLost { displayLost() }
    }

    private func layOutAfterResize() {
        applyLayout()
        refreshControls()
        resizeSettling = loop.once(afterMilliseconds: Self.resizeSettleMilliseconds) { [weak self] in
            guard let self else { return }
            resizeSettling = nil
            if resizedMeanwhile {
                resizedMeanwhile = false
                layOutAfterResize()
            }
        }
    }

    /// Draws the latest decoded frame into the window (a new one arrived, or the window needs repainting).
    func drawLatestFrame() {
        guard let window, window.isVisible, !isLoading else { return }
        playbin.withLatestVideoFrame { frame in
            window.drawFrame(pixels: frame.pixels, width: frame.width, height: frame.height, stride: frame.stride)
        }
        if window.isLost { displayLost() }
    }

    /// The X server or the Wayland compositor went away: video is off from now on, as without a display, and the media plays on as sound.
    private func displayLost() {
        guard window != nil else { return }
        log.warning("video: lost the display; the media plays on without video")
        window = nil
        playbin.disableVideo()
        playbin.forgetVideoFrame()
        player.feed.publish(.video)
    }

    /// Scales and crops the frames for the window's size (or `windowSize`, one asked for) and the aspect mode; a
    /// paused picture is redrawn. An unchanged layout is not applied again (each change renegotiates the stream).
    private func applyLayout(windowSize: (width: Int, height: Int)? = nil, redrawingPausedPicture: Bool = true) {
        guard let window, let format else { return }
        var size = windowSize ?? window.drawnSize
        if case .frames = window.videoOutput, windowSize != nil {
            // X11 draws a window larger than the screen at the size that can be seen (a frame of 16000 x 16000 would
            // be scaled, copied and sent for nothing): a size asked for is bounded as the window's own is.
            let screen = window.screenSize
            if screen.width > 0 { size.width = min(size.width, screen.width) }
            if screen.height > 0 { size.height = min(size.height, screen.height) }
        }
        let layout = VideoLayout(aspectRatio: format.displayAspectRatio, windowWidth: size.width, windowHeight: size.height,
                                 mode: aspectMode)
        guard layout != appliedLayout else {
            drawLatestFrame()
            return
        }
        appliedLayout = layout
        log.debug("video layout \(layout.width)x\(layout.height) for a \(size.width)x\(size.height) window")
        if case .waylandSurface = window.videoOutput {
            // The compositor scales: the stream keeps its size, is cropped in its own pixels for fill, and goes
            // to the whole window (waylandsink keeps its aspect there).
            playbin.setVideoLayout(width: nil, height: nil, crop: layout.sourceCrop(videoWidth: format.width, videoHeight: format.height))
            playbin.setVideoRenderRectangle(x: 0, y: 0, width: size.width, height: size.height)
        } else {
            playbin.setVideoLayout(width: layout.width, height: layout.height,
                                   crop: (layout.cropLeft, layout.cropTop, layout.cropRight, layout.cropBottom))
        }
        // Not at preroll: the stream has just settled (and the player may be seeking it), and it plays on anyway.
        if redrawingPausedPicture, player.status == .paused, let position = playbin.positionNanoseconds {
            playbin.seek(toNanoseconds: position, rate: player.rate)
        }
        drawLatestFrame()
    }

    private func tick() {
        // Xlib may have read events into its queue during a round trip, and waylandsink's thread may have read the
        // Wayland window's off the connection: the readable descriptor misses both.
        handleWindowEvents()
        player.updateInterstitials()
        let nowLoading = loading.isLoading(now: monotonicSeconds())
        if nowLoading != isLoading {
            isLoading = nowLoading
            log.info(nowLoading ? "loading: buffering for over \(LoadingState.threshold) s" : "loaded")
            updateWindow()
            if !nowLoading {
                window?.endLoading()
                drawLatestFrame()
            }
            player.feed.publish(.video)
        }
        if isLoading, let window, window.isVisible {
            spinnerPhase += 1
            window.drawLoading(phase: spinnerPhase)
        }
        controlsTick()
    }
}

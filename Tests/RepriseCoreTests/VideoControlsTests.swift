import Testing
@testable import RepriseCore

/// The video window's controls as the core decides them: where each sits, what a click, a drag, the wheel or a key
/// does, what the scrubber shows, and when they show and hide.
@Suite struct VideoControlsLayoutTests {
    @Test func theBarRunsFromPlayPauseToFullScreenWithTheScrubberInTheMiddle() {
        let layout = VideoControlsLayout(width: 1280, height: 720)
        #expect(layout.focusOrder == [.playPause, .skipBack, .skipForward, .scrubber, .speed, .tracks, .fitFill,
                                      .pictureInPicture, .info, .fullscreen])
        let play = layout.rect(of: .playPause)!, full = layout.rect(of: .fullscreen)!, scrubber = layout.rect(of: .scrubber)!
        #expect(play.x == VideoControlsLayout.margin && play.y + play.height <= 720 && play.y >= 720 - VideoControlsLayout.barHeight)
        #expect(full.x + full.width == 1280 - VideoControlsLayout.margin)
        #expect(scrubber.contains(x: 640, y: scrubber.midY), "the scrubber spans the window's middle")
        #expect(layout.elapsedLabel!.x + layout.elapsedLabel!.width <= scrubber.x)
        #expect(layout.remainingLabel!.x >= scrubber.x + scrubber.width)
        #expect(layout.control(atX: play.midX, y: play.midY) == .playPause)
        #expect(layout.control(atX: 640, y: 300) == nil, "the bare picture")
        #expect(layout.isOverControls(x: 640, y: 700) && layout.isOverControls(x: 640, y: 10) && !layout.isOverControls(x: 640, y: 300))
        // No two controls overlap, and all lie inside the window.
        let rects = layout.buttons.map(\.rect)
        for (i, a) in rects.enumerated() {
            #expect(a.x >= 0 && a.x + a.width <= 1280)
            for b in rects[(i + 1)...] { #expect(a.x + a.width <= b.x, "\(a) overlaps \(b)") }
        }
    }

    @Test func aNarrowWindowDropsTheLeastNeededControlsFirstAndKeepsTheEnds() {
        let narrow = VideoControlsLayout(width: 560, height: 320)
        #expect(narrow.focusOrder.first == .playPause && narrow.focusOrder.last == .fullscreen)
        #expect(!narrow.focusOrder.contains(.info))
        #expect(narrow.rect(of: .scrubber)!.width >= VideoControlsLayout.smallestScrubber)
        let small = VideoControlsLayout(width: 420, height: 240)
        #expect(small.focusOrder == [.playPause, .scrubber, .pictureInPicture, .fullscreen])
        #expect(small.elapsedLabel != nil)
        for width in [1, 120, 200, 320, 420, 560, 800] {
            let layout = VideoControlsLayout(width: width, height: 200)
            #expect(layout.focusOrder.contains(.playPause) && layout.focusOrder.contains(.scrubber))
            for (control, rect) in layout.buttons where control != .scrubber || rect.width > 0 {
                #expect(rect.x >= 0 && (width < 120 || rect.x + rect.width <= width), "\(control) at \(rect) in \(width)")
            }
        }
    }

    @Test func pictureInPictureShowsPlayPauseBackAndClose() {
        let layout = VideoControlsLayout(width: 320, height: 180, mode: .pictureInPicture)
        #expect(Set(layout.focusOrder) == [.backToWindow, .playPause, .close])
        #expect(layout.control(atX: 160, y: 90) == .playPause)
        #expect(layout.control(atX: 310 - 20, y: 28) == .close)
        #expect(layout.control(atX: 100, y: 150) == nil)
        #expect(!layout.isOverControls(x: 160, y: 90))
    }

    @Test func theScrubberMapsItsWidthOntoZeroToOne() {
        let layout = VideoControlsLayout(width: 1280, height: 720)
        let track = layout.rect(of: .scrubber)!
        #expect(layout.scrubberFraction(atX: track.x) == 0)
        #expect(layout.scrubberFraction(atX: track.x + track.width - 1) == 1)
        #expect(layout.scrubberFraction(atX: -50) == 0 && layout.scrubberFraction(atX: 5000) == 1)
        #expect(abs(layout.scrubberFraction(atX: layout.scrubberX(forFraction: 0.25)) - 0.25) < 0.01)
        #expect(layout.scrubberX(forFraction: .nan) == track.x)
    }
}

@Suite struct VideoScrubberTests {
    @Test func itShowsProgressChaptersInterstitialsAndWhatRemains() {
        let chapters = ChapterList([Chapter(title: "A", startMicroseconds: 0), Chapter(title: "B", startMicroseconds: 30_000_000)],
                                   lengthMicroseconds: 120_000_000)
        let schedule = InterstitialSchedule([Interstitial(title: "Ad", startMicroseconds: 60_000_000, endMicroseconds: 75_000_000)])
        let scrubber = VideoScrubber(positionMicroseconds: 45_500_000, lengthMicroseconds: 120_000_000, canSeek: true,
                                     chapters: chapters, schedule: schedule, bufferedPercent: 80)
        #expect(abs(scrubber.progress - 45.5 / 120) < 1e-9)
        #expect(scrubber.chapterTicks == [0.25])
        #expect(scrubber.interstitialMarks == [0.5...0.625])
        #expect(scrubber.buffered == 0...0.8)
        #expect(scrubber.labels == ("0:45", "-1:14"))
        #expect(scrubber.target(atFraction: 0.5) == 60_000_000)
        #expect(scrubber.target(atFraction: 7) == 120_000_000)
    }

    @Test func whileAnInterstitialPlaysItShowsItsOwnProgressAndRefusesForbiddenSeeks() {
        var ad = Interstitial(title: "Ad", startMicroseconds: 10_000_000, endMicroseconds: 40_000_000)
        ad.forbidsSeekingWithin = true
        let scrubber = VideoScrubber(positionMicroseconds: 16_000_000, lengthMicroseconds: 600_000_000, canSeek: true,
                                     schedule: InterstitialSchedule([ad]))
        #expect(abs(scrubber.progress - 0.2) < 1e-9)
        #expect(scrubber.labels == ("0:06", "-0:24"))
        #expect(scrubber.refusesSeeks && scrubber.target(atFraction: 0.9) == nil)
        ad.forbidsSeekingWithin = false
        let free = VideoScrubber(positionMicroseconds: 16_000_000, lengthMicroseconds: 600_000_000, canSeek: true,
                                 schedule: InterstitialSchedule([ad]))
        #expect(free.target(atFraction: 0.5) == 25_000_000, "within the interstitial's span")
    }

    @Test func aLiveStreamHasNothingToScrub() {
        let live = VideoScrubber(positionMicroseconds: 5_000_000, lengthMicroseconds: nil, canSeek: false)
        #expect(live.refusesSeeks && live.progress == 0 && live.target(atFraction: 0.5) == nil)
        #expect(live.labels == ("0:05", ""))
        #expect(VideoScrubber.clock(3_725_000_000) == "1:02:05" && VideoScrubber.clock(-1) == "0:00")
    }
}

@Suite struct ControlsVisibilityTests {
    @Test func theyShowOnMotionAndHideAfterThreeStillSecondsWhilePlaying() {
        var visibility = ControlsVisibility()
        #expect(!visibility.shown && visibility.pointerHidden)
        let step1 = visibility.interacted(at: 10)
        #expect(step1)
        #expect(visibility.shown && !visibility.pointerHidden)
        #expect(visibility.hideDeadline == 13)
        let step2 = visibility.tick(now: 12.9)
        #expect(!step2)
        visibility.interacted(at: 12)
        let step3 = visibility.tick(now: 14.9)
        let step4 = visibility.tick(now: 15)
        #expect(!step3 && step4)
        #expect(!visibility.shown && visibility.pointerHidden)
    }

    @Test func theyStayWhilePausedWhileAMenuIsOpenAndWhileThePointerRestsOnTheBar() {
        var visibility = ControlsVisibility()
        visibility.playbackChanged(playing: false, at: 5)
        #expect(visibility.shown && visibility.hideDeadline == nil, "pausing shows them, and they stay")
        let step5 = visibility.tick(now: 100)
        #expect(!step5)
        visibility.playbackChanged(playing: true, at: 100)
        #expect(visibility.hideDeadline == 103, "playing on: the delay starts over")
        visibility.menuChanged(open: true, at: 101)
        let step6 = visibility.tick(now: 200)
        #expect(!step6)
        visibility.menuChanged(open: false, at: 200)
        visibility.pointerOverControlsChanged(true, at: 201)
        let step7 = visibility.tick(now: 300)
        #expect(!step7 && visibility.shown)
        visibility.pointerOverControlsChanged(false, at: 300)
        let step8 = visibility.tick(now: 303)
        #expect(step8 && !visibility.shown)
    }
}

@Suite struct VideoControlsInputTests {
    static let layout = VideoControlsLayout(width: 1280, height: 720)

    static func context(position: Int64 = 30_000_000, skipShown: Bool = false) -> VideoControlsInput.Context {
        var context = VideoControlsInput.Context(layout: layout,
                                                 scrubber: VideoScrubber(positionMicroseconds: position, lengthMicroseconds: 120_000_000, canSeek: true))
        context.skipShown = skipShown
        context.audioTracks = ["English", "Français"]
        context.currentAudio = 0
        context.subtitleTracks = ["English"]
        return context
    }

    /// A click (press and release) at the middle of `control`, the controls shown first.
    static func click(_ control: OnScreenControl, _ input: inout VideoControlsInput, at now: Double,
                      in context: VideoControlsInput.Context = context()) -> [VideoControlsAction] {
        let rect = context.layout.rect(of: control)!
        input.pointerMoved(x: rect.midX, y: rect.midY, at: now, in: context)
        return input.pressed(x: rect.midX, y: rect.midY, at: now, in: context) + input.released(x: rect.midX, y: rect.midY, at: now, in: context)
    }

    @Test func clicksOnTheBarDoWhatTheirControlsSay() {
        var input = VideoControlsInput()
        #expect(Self.click(.playPause, &input, at: 1) == [.togglePlayPause])
        #expect(Self.click(.skipBack, &input, at: 2) == [.seekBy(microseconds: -10_000_000)])
        #expect(Self.click(.skipForward, &input, at: 3) == [.seekBy(microseconds: 10_000_000)])
        #expect(Self.click(.fullscreen, &input, at: 4) == [.toggleFullscreen])
        #expect(Self.click(.fitFill, &input, at: 5) == [.toggleFitFill])
        #expect(Self.click(.pictureInPicture, &input, at: 6) == [.togglePictureInPicture])
        // Pressed on one control and let go on another: nothing.
        let play = Self.layout.rect(of: .playPause)!, full = Self.layout.rect(of: .fullscreen)!
        _ = input.pressed(x: play.midX, y: play.midY, at: 7, in: Self.context())
        let step9 = input.released(x: full.midX, y: full.midY, at: 7, in: Self.context())
        #expect(step9 == [])
    }

    @Test func aClickOnHiddenControlsOnlyShowsThem() {
        var input = VideoControlsInput()
        let play = Self.layout.rect(of: .playPause)!
        let step10 = input.pressed(x: play.midX, y: play.midY, at: 1, in: Self.context())
        #expect(step10 == [])
        let step11 = input.released(x: play.midX, y: play.midY, at: 1, in: Self.context())
        #expect(step11 == [])
        #expect(input.visibility.shown)
        let step12 = input.pressed(x: play.midX, y: play.midY, at: 2, in: Self.context())
        let step13 = input.released(x: play.midX, y: play.midY, at: 2, in: Self.context())
        #expect(step12 == []
                && step13 == [.togglePlayPause])
    }

    @Test func theScrubberSeeksWhereItIsLetGoAndShowsTheTimeUnderThePointerMeanwhile() {
        var input = VideoControlsInput()
        input.visibility.interacted(at: 0)
        let track = Self.layout.rect(of: .scrubber)!
        _ = input.pressed(x: track.x + track.width / 4, y: track.midY, at: 1, in: Self.context())
        #expect(abs((input.dragFraction ?? 0) - 0.25) < 0.01)
        input.pointerMoved(x: Self.layout.scrubberX(forFraction: 0.5), y: 300, at: 1.2, in: Self.context())
        #expect(abs((input.dragFraction ?? 0) - 0.5) < 0.01, "the drag follows the pointer off the bar")
        let actions = input.released(x: Self.layout.scrubberX(forFraction: 0.5), y: 300, at: 1.3, in: Self.context())
        guard case .seekTo(let target)? = actions.first else { Issue.record("no seek: \(actions)"); return }
        #expect(abs(target - 60_000_000) < 200_000)
        #expect(input.dragFraction == nil)
    }

    @Test func aDoubleClickOnThePictureTogglesFullScreenAndTheWheelSeeks() {
        var input = VideoControlsInput()
        let step14 = input.pressed(x: 600, y: 300, at: 1.0, in: Self.context())
        #expect(step14 == [])
        _ = input.released(x: 600, y: 300, at: 1.05, in: Self.context())
        let step15 = input.pressed(x: 603, y: 302, at: 1.3, in: Self.context())
        #expect(step15 == [.toggleFullscreen])
        let step16 = input.pressed(x: 600, y: 300, at: 3.0, in: Self.context())
        #expect(step16 == [])
        let step17 = input.pressed(x: 600, y: 300, at: 3.6, in: Self.context())
        #expect(step17 == [], "too slow for a double click")
        let step18 = input.scrolled(steps: -1, x: 600, y: 300, at: 4, in: Self.context())
        #expect(step18 == [.seekBy(microseconds: 10_000_000)])
        let step19 = input.scrolled(steps: 2, x: 600, y: 300, at: 4, in: Self.context())
        #expect(step19 == [.seekBy(microseconds: -10_000_000)])
    }

    /// A tap on the picture's centre waits out the double-click interval, then plays or pauses with the controls left
    /// hidden and a glyph of what it did shown for a moment; a second tap within the interval makes a double tap
    /// (full screen) and nothing plays or pauses; a tap off the centre shows the controls as before.
    @Test func aTapOnTheCentrePlaysOrPausesOnceTheDoubleClickIntervalHasPassed() {
        var input = VideoControlsInput()
        input.doubleClickSeconds = 0.5
        let centre = Self.layout.pictureCentre!
        #expect(input.pressed(x: centre.midX, y: centre.midY, at: 10, in: Self.context()) == [])
        #expect(input.released(x: centre.midX, y: centre.midY, at: 10.05, in: Self.context()) == [])
        #expect(input.nextDeadline == 10.5)
        #expect(input.tick(now: 10.4) == [], "not before the interval is over")
        #expect(input.tick(now: 10.5) == [.togglePlayPause])
        #expect(input.glyph == .pause && input.nextDeadline == 10.5 + VideoControlsInput.tapGlyphSeconds)
        // The pause it asked for comes: the controls stay hidden, as they were.
        input.visibility.playbackChanged(playing: false, at: 10.6)
        #expect(!input.visibility.shown, "a tap's pause leaves the controls hidden")
        #expect(input.tick(now: 11.2) == [] && input.glyph == nil && input.nextDeadline == nil)
        // Paused, a tap plays: its glyph says so.
        _ = input.pressed(x: centre.midX, y: centre.midY, at: 20, in: Self.context())
        #expect(input.tick(now: 20.5) == [.togglePlayPause] && input.glyph == .play)
        input.visibility.playbackChanged(playing: true, at: 20.6)

        // Two taps within the interval: full screen, no play or pause.
        _ = input.tick(now: 30)
        #expect(input.pressed(x: centre.midX, y: centre.midY, at: 30, in: Self.context()) == [])
        #expect(input.pressed(x: centre.midX + 3, y: centre.midY + 2, at: 30.3, in: Self.context()) == [.toggleFullscreen])
        #expect(input.nextDeadline == nil && input.tick(now: 31) == [])

        // A touch through XWayland: the pointer brought to the finger just before it lands shows nothing either; a
        // person's motion there, a moment before, does.
        var touched = VideoControlsInput()
        touched.pointerMoved(x: centre.midX, y: centre.midY, at: 5, in: Self.context())
        #expect(touched.pressed(x: centre.midX, y: centre.midY, at: 5.01, in: Self.context()) == [] && !touched.visibility.shown)
        var moved = VideoControlsInput()
        moved.pointerMoved(x: centre.midX, y: centre.midY, at: 5, in: Self.context())
        #expect(moved.pressed(x: centre.midX, y: centre.midY, at: 5.5, in: Self.context()) == [] && moved.visibility.shown)

        // Off the centre, a tap shows the controls and plays nothing; a pause then shows them as before.
        var other = VideoControlsInput()
        #expect(other.pressed(x: 40, y: 100, at: 1, in: Self.context()) == [] && other.visibility.shown)
        #expect(other.nextDeadline == nil)
        var paused = VideoControlsInput()
        paused.visibility.playbackChanged(playing: false, at: 1)
        #expect(paused.visibility.shown, "a pause from elsewhere shows the controls")
    }

    /// With the controls shown, a click on the centre still plays or pauses (and keeps them shown); a click on a
    /// control there acts as the control; an open menu takes the click; Picture in Picture has no centre to tap.
    @Test func theCentreGivesWayToShownControlsMenusAndPictureInPicture() {
        var input = VideoControlsInput()
        input.visibility.interacted(at: 0)
        let centre = Self.layout.pictureCentre!
        _ = input.pressed(x: centre.midX, y: centre.midY, at: 1, in: Self.context())
        #expect(input.tick(now: 1 + input.doubleClickSeconds) == [.togglePlayPause] && input.visibility.shown)
        // A menu open: the click closes it, nothing else.
        #expect(Self.click(.speed, &input, at: 3) == [.openMenu(.speed)])
        #expect(input.pressed(x: centre.midX, y: centre.midY, at: 4, in: Self.context()) == [] && input.menu == nil)
        #expect(input.tick(now: 10) == [], "no tap waits")
        // Picture in Picture has no centre to tap (its picture moves the window, its middle is the play button).
        #expect(VideoControlsLayout(width: 320, height: 180, mode: .pictureInPicture).pictureCentre == nil)
    }

    /// The glyph is drawn over the picture's middle, controls or not: a strip of its own.
    @Test func aTapsGlyphIsDrawnInTheMiddle() {
        var scene = VideoControlsScene(layout: Self.layout, scrubber: VideoScrubber(positionMicroseconds: 0, lengthMicroseconds: 1, canSeek: true))
        #expect(scene.drawnRows.isEmpty)
        scene.glyph = .pause
        let disc = Self.layout.tapGlyph
        #expect(scene.drawnRows == [disc.y..<disc.y + disc.height])
        scene.shown = true
        #expect(scene.drawnRows.count == 3 && scene.drawnRows[1] == disc.y..<disc.y + disc.height, "\(scene.drawnRows)")
    }

    @Test func menusOpenAboveTheirButtonsAndTheNextClickChoosesOrClosesThem() {
        var input = VideoControlsInput()
        input.visibility.interacted(at: 0)
        var context = Self.context()
        context.rate = 1.25
        #expect(Self.click(.speed, &input, at: 1, in: context) == [.openMenu(.speed)])
        let menu = try! #require(input.menu)
        #expect(menu.items.map(\.label) == ["0.5×", "1×", "1.25×", "1.5×", "2×"])
        #expect(menu.items.map(\.checked) == [false, false, true, false, false])
        #expect(menu.rect.y + menu.rect.height <= Self.layout.bar.y)
        #expect(input.visibility.hideDeadline == nil, "a menu keeps the controls")
        let fast = menu.rect.y + 4 * ControlsMenu.itemHeight + 5
        let step20 = input.pressed(x: menu.rect.midX, y: fast, at: 2, in: context)
        #expect(step20 == [.setRate(2)])
        #expect(input.menu == nil)

        #expect(Self.click(.tracks, &input, at: 3, in: context) == [.openMenu(.tracks)])
        #expect(input.menu?.items.map(\.label) == ["Audio", "English", "Français", "Subtitles", "Off", "English"])
        let tracks = input.menu!.rect
        let step21 = input.pressed(x: tracks.midX, y: tracks.y + 2 * ControlsMenu.itemHeight + 3, at: 4, in: context)
        #expect(step21 == [.chooseAudio(1)])
        _ = Self.click(.tracks, &input, at: 5, in: context)
        let step22 = input.pressed(x: tracks.midX, y: tracks.y + 3, at: 6, in: context)
        #expect(step22 == [], "a heading chooses nothing")
        _ = Self.click(.tracks, &input, at: 7, in: context)
        let step23 = input.pressed(x: 600, y: 300, at: 8, in: context)
        #expect(step23 == [] && input.menu == nil, "a click elsewhere closes it")
    }

    @Test func theInfoPanelIsAsTallAsItsTextWhereThereIsRoomAndScrollsWhereThereIsNot() throws {
        var input = VideoControlsInput()
        input.visibility.interacted(at: 0)
        var context = Self.context()
        context.infoTextHeight = 120
        #expect(Self.click(.info, &input, at: 1, in: context) == [.openMenu(.info)])
        let short = try #require(input.menu)
        #expect(short.rect.height == 120 + 2 * ControlsMenu.infoInsetY && short.scrollLimit == 0, "\(short.rect)")
        #expect(input.scrolled(steps: 1, x: short.rect.midX, y: short.rect.midY, at: 2, in: context) == [])
        #expect(input.menu?.scroll == 0, "what fits does not scroll")
        #expect(input.pressed(x: 600, y: 300, at: 3, in: context) == [] && input.menu == nil)

        // 1,000 characters in a 720-pixel window: taller than the room between the title's band and the bar.
        context.infoTextHeight = 900
        _ = Self.click(.info, &input, at: 4, in: context)
        let long = try #require(input.menu)
        let band = try #require(Self.layout.topBand)
        #expect(long.rect.y == band.y + band.height + VideoControlsLayout.gap, "it rises to the title's band: \(long.rect)")
        #expect(long.rect.y + long.rect.height + VideoControlsLayout.gap == Self.layout.rect(of: .info)?.y, "down to its button")
        #expect(long.scrollLimit == 900 - (long.rect.height - 2 * ControlsMenu.infoInsetY))
        // The wheel over it scrolls its text, not the video; over the picture it seeks as ever.
        #expect(input.scrolled(steps: 1, x: long.rect.midX, y: long.rect.midY, at: 5, in: context) == [])
        #expect(input.menu?.scroll == VideoControlsInput.infoScrollStep)
        #expect(input.scrolled(steps: -5, x: long.rect.midX, y: long.rect.midY, at: 6, in: context) == [])
        #expect(input.menu?.scroll == 0, "not above its first line")
        // A drag on it (a finger's way) scrolls too, and leaves it open.
        #expect(input.pressed(x: long.rect.midX, y: long.rect.y + 300, at: 7, in: context) == [])
        input.pointerMoved(x: long.rect.midX, y: long.rect.y + 100, at: 7.1, in: context)
        #expect(input.menu?.scroll == 200)
        #expect(input.released(x: long.rect.midX, y: long.rect.y + 100, at: 7.2, in: context) == [])
        input.pointerMoved(x: long.rect.midX, y: long.rect.y + 50, at: 7.3, in: context)
        #expect(input.menu?.scroll == 200, "the drag ended with the release")
        // The arrow keys scroll it while it is open, to its last line at the most.
        for _ in 0..<40 { _ = input.key(.scrollDown, at: 8, in: context) }
        #expect(input.menu?.scroll == long.scrollLimit)
        #expect(input.key(.scrollUp, at: 9, in: context).taken && input.menu?.scroll == long.scrollLimit - VideoControlsInput.infoScrollStep)
        #expect(input.key(.escape, at: 10, in: context).taken && input.menu == nil)
        #expect(!input.key(.scrollDown, at: 11, in: context).taken, "without the panel the arrows are not the controls'")
    }

    @Test func theSkipButtonActsOnlyWhenItShowsEvenWithTheControlsHidden() {
        var input = VideoControlsInput()
        let skip = Self.layout.skipButton
        let step24 = input.pressed(x: skip.midX, y: skip.midY, at: 1, in: Self.context(skipShown: false))
        #expect(step24 == [])
        _ = input.released(x: skip.midX, y: skip.midY, at: 1, in: Self.context(skipShown: false))
        var hidden = VideoControlsInput()
        _ = hidden.pressed(x: skip.midX, y: skip.midY, at: 1, in: Self.context(skipShown: true))
        let step25 = hidden.released(x: skip.midX, y: skip.midY, at: 1, in: Self.context(skipShown: true))
        #expect(step25 == [.skipInterstitial])
    }

    @Test func inPictureInPictureAPressOnThePictureMovesTheWindow() {
        var input = VideoControlsInput()
        let pip = VideoControlsLayout(width: 320, height: 180, mode: .pictureInPicture)
        let context = VideoControlsInput.Context(layout: pip, scrubber: VideoScrubber(positionMicroseconds: 0, lengthMicroseconds: 1, canSeek: true))
        let step26 = input.pressed(x: 100, y: 150, rootX: 700, rootY: 450, at: 1, in: context)
        #expect(step26 == [.beginWindowMove(rootX: 700, rootY: 450)], "the move starts from the press on the screen")
        _ = input.released(x: 100, y: 150, at: 1, in: context)
        let back = pip.rect(of: .backToWindow)!, close = pip.rect(of: .close)!
        _ = input.pressed(x: back.midX, y: back.midY, at: 2, in: context)
        let step27 = input.released(x: back.midX, y: back.midY, at: 2, in: context)
        #expect(step27 == [.leavePictureInPicture])
        _ = input.pressed(x: close.midX, y: close.midY, at: 3, in: context)
        let step28 = input.released(x: close.midX, y: close.midY, at: 3, in: context)
        #expect(step28 == [.close])
    }

    @Test func tabMovesAVisibleFocusAndEnterActivatesIt() {
        var input = VideoControlsInput()
        let step29 = input.key(.activate, at: 0, in: Self.context())
        #expect(step29.taken == false, "no focus: Enter and Space keep their keys")
        let step30 = input.key(.tab, at: 1, in: Self.context())
        #expect(step30.taken && input.focused == .playPause)
        #expect(input.visibility.shown)
        _ = input.key(.tab, at: 1, in: Self.context())
        _ = input.key(.tab, at: 1, in: Self.context())
        #expect(input.focused == .skipForward)
        _ = input.key(.tab, at: 1, in: Self.context())
        #expect(input.focused == .speed, "the scrubber is skipped: its keys are the arrows")
        let step31 = input.key(.activate, at: 2, in: Self.context())
        #expect(step31 == (true, [.openMenu(.speed)]))
        let step32 = input.key(.escape, at: 3, in: Self.context())
        #expect(step32.taken && input.menu == nil && input.focused == .speed)
        _ = input.key(.shiftTab, at: 4, in: Self.context())
        _ = input.key(.shiftTab, at: 4, in: Self.context())
        _ = input.key(.shiftTab, at: 4, in: Self.context())
        _ = input.key(.shiftTab, at: 4, in: Self.context())
        #expect(input.focused == .fullscreen, "Shift-Tab wraps")
        let step33 = input.key(.activate, at: 5, in: Self.context())
        #expect(step33 == (true, [.toggleFullscreen]))
        let step34 = input.key(.escape, at: 6, in: Self.context())
        #expect(step34.taken && input.focused == nil)
        let step35 = input.key(.other, at: 7, in: Self.context())
        #expect(step35.taken == false)
    }
}

@Suite struct VideoControlsSceneTests {
    private func scene(at position: Int64) -> VideoControlsScene {
        var scene = VideoControlsScene(layout: VideoControlsLayout(width: 854, height: 480),
                                       scrubber: VideoScrubber(positionMicroseconds: position, lengthMicroseconds: 600_000_000, canSeek: true))
        scene.shown = true
        return scene
    }

    /// Repainting is skipped while nothing drawn would change: playback within a pixel of the scrubber and a second
    /// of the times; a new second, a menu or a focus repaints.
    @Test func aSceneDrawsTheSameUntilAPixelATimeOrAControlChanges() {
        #expect(scene(at: 10_100_000).drawsTheSame(as: scene(at: 10_400_000)), "the same second, the same pixel of 10 minutes")
        #expect(!scene(at: 10_900_000).drawsTheSame(as: scene(at: 11_100_000)), "the elapsed time changed")
        var focused = scene(at: 10_100_000)
        focused.focused = .speed
        #expect(!focused.drawsTheSame(as: scene(at: 10_100_000)))
        var hidden = scene(at: 10_100_000)
        hidden.shown = false
        #expect(!hidden.drawsTheSame(as: scene(at: 10_100_000)))
    }

    /// Only the title's band and the bar (with what rises above it) are drawn on: a 4K window's controls are two
    /// strips, not 4K of pixels; the skip button alone is a strip of its own; Picture in Picture is all of it.
    @Test func theControlsAreDrawnOnTheTitlesBandAndTheBarsStripOnly() {
        var shown = scene(at: 0)
        #expect(shown.drawnRows == [0..<56, 480 - 48 - 32..<480])
        shown.shown = false
        #expect(shown.drawnRows.isEmpty)
        shown.skip = .ready
        #expect(shown.drawnRows == [480 - 48 - 8 - 40..<480])
        var small = VideoControlsScene(layout: VideoControlsLayout(width: 160, height: 90, mode: .pictureInPicture),
                                       scrubber: VideoScrubber(positionMicroseconds: 0, lengthMicroseconds: 1, canSeek: true))
        small.shown = true
        #expect(small.drawnRows == [0..<90])
        var short = VideoControlsScene(layout: VideoControlsLayout(width: 320, height: 120), scrubber: shown.scrubber)
        short.shown = true
        #expect(short.drawnRows == [0..<120], "strips that meet are one")
    }
}

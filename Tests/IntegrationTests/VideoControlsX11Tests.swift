import Foundation
import SDBus
import Testing
import TestSupport

/// The video window's controls under a private X server (Xvfb), driven with xdotool's pointer: they appear on motion,
/// their left end pauses, they stay while paused and hide once playing goes on without motion, and a double click
/// on the picture goes full screen.
@Suite(.serialized) struct VideoControlsX11Tests {
    @Test func thePointerBringsTheControlsTheirPlayButtonPausesAndTheyHideWhenStill() throws {
        let (session, display, _, _) = try VideoTests.start(seconds: 60)
        defer { session.close() }
        #expect(session.waitFor { session.status() == "Playing" })
        let window = try Self.windowAt854x480(display, session)
        // The play/pause button sits at the bar's left end: over the pillarbox's black, so its icon alone lights it.
        let play = (x: 8, y: 480 - 48 + 4, width: 40, height: 40)
        func playButtonLight() -> Int {
            (try? display.brightPixels(window, x: play.x, y: play.y, width: play.width, height: play.height)) ?? -1
        }
        #expect(session.waitFor { playButtonLight() == 0 }, "no controls before the pointer moves")

        display.movePointer(to: window, x: 427, y: 240)
        #expect(session.waitFor { playButtonLight() > 40 }, "motion shows the controls")
        display.click(window, x: play.x + 20, y: play.y + 20)
        #expect(session.waitFor { session.status() == "Paused" }, "the bar's left end pauses")
        Thread.sleep(forTimeInterval: 4)
        #expect(playButtonLight() > 40, "paused, the controls stay")

        // Over the bar they stay whatever plays; the pointer goes back over the picture and rests there.
        display.movePointer(to: window, x: 427, y: 240)
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.waitFor(10) { playButtonLight() == 0 }, "playing without motion, they hide")

        display.click(window, x: 427, y: 200, count: 2)
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(true) },
                "a double click on the picture goes full screen")
    }

    /// A click on the picture's centre with the controls hidden pauses once the desktop's double-click interval (the
    /// XSETTINGS manager's `Net/DoubleClickTime`, here 2 s) has passed, and the controls stay hidden; two clicks a
    /// second apart are a double click there (full screen), not two pauses — with GTK's 0.4 s they would be two.
    @Test func aClickOnTheCentrePausesAfterTheDesktopsDoubleClickIntervalAndLeavesTheControlsHidden() throws {
        let session = try Session()
        defer { session.close() }
        let display = try session.virtualDisplay()
        try display.startSettingsManager(["Net/DoubleClickTime 2000"], in: session)
        let clip = session.directory + "/clip.ogv"
        try TestMedia.video(at: clip, width: 320, height: 240, seconds: 60, title: "Test Clip")
        let pid = try session.launch([clip], extraEnvironment: ["DISPLAY": display.name])
        #expect(session.waitFor { session.status() == "Playing" })
        let window = try Self.windowAt854x480(display, session)
        let play = (x: 8, y: 480 - 48 + 4, width: 40, height: 40)
        func playButtonLight() -> Int {
            (try? display.brightPixels(window, x: play.x, y: play.y, width: play.width, height: play.height)) ?? -1
        }
        // The pointer over the centre, still until the controls its motion showed have hidden again (the service's
        // log says when; a screenshot alone can fall between a relayout and the next frame).
        func controlsShown() -> Bool {
            session.log(of: pid).components(separatedBy: "\n").last { $0.contains("video controls ") }?.hasSuffix("shown") == true
        }
        display.movePointer(to: window, x: 427, y: 240)
        #expect(session.waitFor { controlsShown() && playButtonLight() > 40 }, "motion shows the controls")
        #expect(session.waitFor(15) { !controlsShown() && playButtonLight() == 0 }, "still, they hide")

        display.clickInPlace()
        #expect(session.waitFor { session.status() == "Paused" }, "a click on the centre pauses: \(session.log(of: pid).suffix(1500))")
        Thread.sleep(forTimeInterval: 1)
        #expect(!controlsShown() && playButtonLight() == 0, "and leaves the controls hidden: \(session.log(of: pid).suffix(1200))")

        display.clickInPlace(count: 2, delayMilliseconds: 1000)
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(true) },
                "two clicks a second apart are a double click under a 2 s interval")
        Thread.sleep(forTimeInterval: 2.5)
        #expect(session.status() == "Paused", "and neither click played or paused")
    }

    /// A window manager (or a script) resizing the window between 1×1 and far past the screen, 200 times, while the
    /// controls show: the service keeps answering, and at 16000×16000 the picture and the controls are drawn at the
    /// size the 1280×720 screen shows — the bar along the screen's bottom, its play button working.
    @Test func aWindowFarLargerThanTheScreenIsDrawnAtTheSizeThatCanBeSeen() throws {
        let (session, display, _, pid) = try VideoTests.start(seconds: 60)
        defer { session.close() }
        #expect(session.waitFor { session.status() == "Playing" })
        let window = try Self.windowAt854x480(display, session)
        try session.call("Pause")
        #expect(session.waitFor { session.status() == "Paused" })
        display.movePointer(to: window, x: 427, y: 240) // paused, the controls stay
        for _ in 0..<100 {
            display.resize(window, width: 16000, height: 16000)
            display.resize(window, width: 1, height: 1)
        }
        display.resize(window, width: 16000, height: 16000)
        display.move(window, x: 0, y: 0)
        #expect(session.status() == "Paused", "the service answers at once after the resizes")
        // The work a layout costs (a renegotiation, a seek of the paused picture, drawing) is done once a storm of
        // resizes pauses, not for each of the 201: on a busy machine that was seconds of the loop's time.
        let layouts = session.log(of: pid).components(separatedBy: "video layout ").count - 1
        #expect(layouts < 60, "\(layouts) layouts for 201 resizes")
        #expect(session.waitFor { display.size(of: window).map { [$0.width, $0.height] } == [16000, 16000] })
        display.movePointer(to: window, x: 640, y: 360)
        // The play button at the bar's left end, along the screen's bottom (the bar: 48 px high).
        let play = (x: 8, y: VirtualDisplay.height - 48 + 4, width: 40, height: 40)
        #expect(session.waitFor { ((try? display.brightPixelsOnScreen(x: play.x, y: play.y, width: play.width, height: play.height)) ?? 0) > 40 },
                "the controls show where the screen shows the window")
        display.click(window, x: play.x + 20, y: play.y + 20)
        #expect(session.waitFor { session.status() == "Playing" }, "the play button at the seen bottom plays")
        display.resize(window, width: 854, height: 480)
        #expect(session.waitFor { display.size(of: window).map { [$0.width, $0.height] } == [854, 480] })
        #expect(session.status() == "Playing")
    }

    /// The clip's window, resized to 854×480 (the size the tests' coordinates are for).
    static func windowAt854x480(_ display: VirtualDisplay, _ session: Session) throws -> String {
        let window = try #require(VideoTests.findWindow(display, titled: "Test Clip", session))
        display.resize(window, width: 854, height: 480)
        #expect(session.waitFor { display.size(of: window).map { [$0.width, $0.height] } == [854, 480] })
        return window
    }

    /// Where the bar puts things in an 854×480 window (the core's layout: 8 px margins, 40 px buttons 4 px apart,
    /// 64 px times): the scrubber from x 208, 306 px wide; the speed button right after the time left.
    static let scrubber = (x: 208, width: 306), barMiddleY = 480 - 24, speedX = 606, infoX = 782

    @Test func aClickOnTheScrubberSeeksThereTheSpeedMenuSetsTheRateAndKeysReachTheControls() throws {
        let (session, display, _, _) = try VideoTests.start(seconds: 60)
        defer { session.close() }
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["mpris:length"] != nil })
        let window = try Self.windowAt854x480(display, session)
        let length = try #require(session.metadata()["mpris:length"]?.int64Value)
        display.movePointer(to: window, x: 427, y: 240)
        Thread.sleep(forTimeInterval: 0.5)
        // The window's middle lies at 71.8 % of the scrubber.
        display.click(window, x: 427, y: Self.barMiddleY)
        let expected = Double(length) * Double(427 - Self.scrubber.x) / Double(Self.scrubber.width - 1)
        #expect(session.waitFor { abs(Double(session.position() ?? 0) - expected) < 1_500_000 },
                "at \(session.position() ?? -1) µs, expected about \(Int(expected))")

        display.click(window, x: Self.speedX, y: Self.barMiddleY)
        // The menu opens above the button: 0.5×, 1×, 1.25×, 1.5×, 2×, 32 px each, ending 4 px above the bar.
        let menuTop = 480 - 48 - 4 - 5 * 32
        display.click(window, x: Self.speedX, y: menuTop + 3 * 32 + 16)
        #expect(session.waitFor { (try? session.get("Rate"))?.doubleValue == 1.5 }, "the menu's 1.5× set the rate")

        // Keys alone: Shift-Tab focuses the bar's last control, full screen, and Enter activates it.
        display.press("shift+Tab", in: window)
        display.press("Return", in: window)
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(true) })
    }

    /// The tracks menu (the button after the speed) lists "Audio" and its track, then "Subtitles": "Off" and the
    /// sidecar's English subtitles; its rows turn the subtitles off and on again.
    @Test func theTracksMenuTurnsSubtitlesOffAndOn() throws {
        let (session, display, _, _) = try VideoTests.start(seconds: 60)
        defer { session.close() }
        #expect(session.waitFor { session.status() == "Playing" && (try? session.get("SubtitleTrack", interface: VideoTests.video)) == .int32(0) })
        let window = try Self.windowAt854x480(display, session)
        display.movePointer(to: window, x: 427, y: 240)
        Thread.sleep(forTimeInterval: 0.5)
        // Five rows of 32 px ending 4 px above the bar: Audio, its track, Subtitles, Off, en.
        let tracksX = Self.speedX + 44, menuTop = 480 - 48 - 4 - 5 * 32
        display.click(window, x: tracksX, y: Self.barMiddleY)
        display.click(window, x: tracksX, y: menuTop + 3 * 32 + 16)
        #expect(session.waitFor { (try? session.get("SubtitleTrack", interface: VideoTests.video)) == .int32(-1) }, "Off turned the subtitles off")
        display.click(window, x: tracksX, y: Self.barMiddleY)
        display.click(window, x: tracksX, y: menuTop + 4 * 32 + 16)
        #expect(session.waitFor { (try? session.get("SubtitleTrack", interface: VideoTests.video)) == .int32(0) }, "en turned them on again")
    }

    @Test func theInfoPanelShowsALongDescriptionWholeByScrolling() throws {
        // 140 words, 1,000 characters after the sidecar's cut: more lines than an 854×480 window has room for.
        let description = (1...140).map { "word\($0)" }.joined(separator: " ")
        let (session, display, _, _) = try VideoTests.start(sidecar: #"{"title": "Test Clip", "description": "\#(description)"}"#, seconds: 60)
        defer { session.close() }
        #expect(session.waitFor { session.status() == "Playing" })
        let window = try Self.windowAt854x480(display, session)
        try session.call("Pause")
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(30_000_000)])
        #expect(session.waitFor { abs((session.position() ?? 0) - 30_000_000) < 100_000 })
        display.movePointer(to: window, x: 427, y: 240)
        Thread.sleep(forTimeInterval: 0.5)
        // The panel: 360 wide at the window's right (above the info button, 782), from under the title's band (56 +
        // 4) down to its button; its text inset 12 and 10. Right of the picture (640×480 from x 107 to 747) the
        // window is black, so there only the text is bright.
        display.click(window, x: Self.infoX, y: Self.barMiddleY)
        let text = (x: 752, y: 60 + 10, width: 854 - 12 - 8 - 752, height: 480 - 48 + 4 - 4 - 60 - 20)
        func rows() -> [Int] {
            (try? display.brightPixelsByRow(window, x: text.x, y: text.y, width: text.width, height: text.height, level: 150)) ?? []
        }
        var first: [Int] = []
        #expect(session.waitFor { first = rows(); return first.prefix(272 - text.y).reduce(0, +) > 200 },
                "the text rises above where a panel of a fixed 160 px ended (y 272): \(first)")
        // The wheel over the panel scrolls its text, and seeks nothing; Up scrolls it back.
        display.wheel(window, x: 674, y: 250, down: true)
        #expect(session.waitFor { let now = rows(); return !now.isEmpty && now != first }, "the wheel scrolled the text")
        #expect(abs((session.position() ?? 0) - 30_000_000) < 100_000, "the wheel over the panel does not seek")
        display.press("Up", in: window)
        #expect(session.waitFor { rows() == first }, "Up scrolled it back to its first line")
        display.press("Escape", in: window)
        #expect(session.waitFor { let now = rows(); return !now.isEmpty && now != first }, "Escape closed it")
    }

    @Test func theSkipButtonCountsDownOverThePictureAndSkipsOnceAllowed() throws {
        let sidecar = """
            {"title": "Test Clip", "interstitials": [{"start": 0, "end": 20, "title": "Sponsor",
             "restrictions": ["noSkippingPast"], "skippableAfter": 3}]}
            """
        let (session, display, _, _) = try VideoTests.start(sidecar: sidecar, seconds: 40)
        defer { session.close() }
        #expect(session.waitFor { session.status() == "Playing" })
        let window = try #require(VideoTests.findWindow(display, titled: "Test Clip", session))
        // Paused 1 s into the interstitial (seeking within it is allowed): the countdown stands still.
        try session.call("Pause")
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(1_000_000)])
        #expect(session.waitFor { abs((session.position() ?? 0) - 1_000_000) < 100_000 })
        display.resize(window, width: 854, height: 480)
        #expect(session.waitFor { display.size(of: window).map { [$0.width, $0.height] } == [854, 480] })
        // Its place over the picture's lower right (128×40 above the bar), right of the pillarboxed picture.
        let skip = (x: 718, y: 480 - 48 - 8 - 40, width: 128, height: 40)
        // Its text (white; dimmed while counting down) over black: nothing else is drawn there.
        func label() -> Int { (try? display.brightPixels(window, x: 750, y: skip.y, width: 96, height: skip.height, level: 120)) ?? -1 }
        #expect(session.waitFor { label() > 10 }, "the countdown shows over the picture")
        #expect((try? session.get("CanSkipInterstitial", interface: VideoTests.video)) == .bool(false))
        display.click(window, x: skip.x + 64, y: skip.y + 20)
        Thread.sleep(forTimeInterval: 0.5)
        #expect((session.position() ?? .max) < 20_000_000, "before it is allowed a click does not skip")
        // Past its delay: the button reads Skip, and a click skips.
        try session.call("SetPosition", [id, .int64(5_000_000)])
        #expect(session.waitFor { (try? session.get("CanSkipInterstitial", interface: VideoTests.video)) == .bool(true) })
        display.click(window, x: skip.x + 64, y: skip.y + 20)
        #expect(session.waitFor { (session.position() ?? 0) >= 20_000_000 }, "the Skip button skipped it")
        #expect(session.waitFor { label() == 0 }, "and is gone")
    }
}

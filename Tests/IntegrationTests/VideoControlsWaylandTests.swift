import Foundation
import Testing
import TestSupport

/// The video window's controls in the native Wayland window under headless sway, driven with a virtual pointer
/// (`wl-virtual-input`: the seat has no other) and seen in `grim`'s screenshots of the output: they appear on
/// motion over the picture's top and bottom bands and go with the pointer when playback runs on without motion;
/// their buttons, scrubber, menu and wheel act; a double click goes full screen; Picture in Picture's picture drags
/// the window (the native one through xdg_toplevel.move, the X11 one through XWayland's window manager); at output
/// scale 2 they are drawn with twice the pixels; the skip button skips only once allowed.
@Suite(.serialized) struct VideoControlsWaylandTests {
    /// Where the bar puts things in an 854×480 window (``VideoControlsX11Tests`` has the same layout).
    static let play = (x: 28, y: 456), scrubber = VideoControlsX11Tests.scrubber, barMiddleY = VideoControlsX11Tests.barMiddleY

    @Test func thePointerShowsTheControlsWhichPauseSeekAndChangeSpeedAndTheyHideWithIt() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        _ = try WaylandWindowTests.playClip(width: 854, height: 480, seconds: 60, title: "Pointer Clip", in: session, under: sway)
        let frame = try #require(sway.windows().first { $0.name == "Pointer Clip" })
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["mpris:length"] != nil })
        Thread.sleep(forTimeInterval: 0.5)
        // The picture alone, before there is a pointer at all.
        let plain = try #require(WaylandWindowTests.screenshot(sway, session))
        func difference(y: Int, height: Int, x: Int? = nil, width: Int? = nil) -> Double {
            guard let shot = WaylandWindowTests.screenshot(sway, session) else { return -1 }
            return shot.meanDifference(from: plain, x: x ?? frame.x, y: frame.y + y, width: width ?? frame.width, height: height)
        }
        // The bar's band left of the test pattern's moving noise (its lower right quarter).
        func bottomBand() -> Double { difference(y: frame.height - 48, height: 48, width: frame.width * 7 / 10) }
        func topBand() -> Double { difference(y: 0, height: 40) }
        let pointer = try VirtualPointer(on: sway, width: 1280, height: 720)
        session.onClose { pointer.stop() }
        let middle = (x: frame.x + 427, y: frame.y + 240)

        pointer.move(x: middle.x, y: middle.y)
        #expect(session.waitFor { bottomBand() > 8 && topBand() > 4 }, "motion shows the bar and the title: \(bottomBand()) \(topBand())")
        // README's picture of the controls is this screenshot of the window (the last one taken), made by each run.
        _ = try? runCommand("ffmpeg", ["-loglevel", "error", "-y", "-i", session.directory + "/shot.ppm", "-vf",
                                       "crop=\(frame.width):\(frame.height):\(frame.x):\(frame.y)",
                                       packageRoot.appendingPathComponent("docs/images/video-controls.png").path])
        pointer.click(x: frame.x + Self.play.x, y: frame.y + Self.play.y)
        #expect(session.waitFor { session.status() == "Paused" }, "the bar's left end pauses")
        Thread.sleep(forTimeInterval: 4)
        #expect(bottomBand() > 8, "paused, the controls stay")

        // Back over the picture, playing on without motion: the controls go, and the pointer with them.
        pointer.move(x: middle.x, y: middle.y)
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.waitFor(10) { bottomBand() < 3 && topBand() < 3 }, "playing without motion, they hide: \(bottomBand())")
        #expect(session.waitFor { difference(y: 236, height: 32, x: middle.x - 4, width: 32) < 3 }, "the pointer hides with them")

        // A click on the scrubber at the window's middle seeks to 71.8 % of the clip.
        let length = try #require(session.metadata()["mpris:length"]?.int64Value)
        pointer.move(x: middle.x + 10, y: middle.y)
        #expect(session.waitFor { bottomBand() > 8 })
        pointer.click(x: middle.x, y: frame.y + Self.barMiddleY)
        let expected = Double(length) * Double(427 - Self.scrubber.x) / Double(Self.scrubber.width - 1)
        #expect(session.waitFor { abs(Double(session.position() ?? 0) - expected) < 1_500_000 },
                "at \(session.position() ?? -1) µs, expected about \(Int(expected))")

        // The wheel over the picture: a step down goes back 10 s.
        let before = session.position() ?? 0
        pointer.move(x: middle.x, y: middle.y)
        pointer.wheel(1)
        #expect(session.waitFor { (session.position() ?? .max) < before - 5_000_000 }, "from \(before) to \(session.position() ?? -1)")

        // The speed menu opens above its button; its fourth row is 1.5×.
        pointer.click(x: frame.x + VideoControlsX11Tests.speedX, y: frame.y + Self.barMiddleY)
        let menuTop = 480 - 48 - 4 - 5 * 32
        pointer.click(x: frame.x + VideoControlsX11Tests.speedX, y: frame.y + menuTop + 3 * 32 + 16)
        #expect(session.waitFor { (try? session.get("Rate"))?.doubleValue == 1.5 }, "the menu's 1.5× set the rate")

        // A double click on the picture goes full screen; the bar's right end leaves it.
        pointer.click(x: middle.x, y: middle.y - 60, count: 2)
        #expect(session.waitFor { sway.windows().first { $0.name == "Pointer Clip" }?.fullscreen == true }, "\(sway.windows())")
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(true) })
        pointer.move(x: 640, y: 300)
        Thread.sleep(forTimeInterval: 0.3)
        pointer.click(x: 1280 - 8 - 20, y: 720 - 24)
        #expect(session.waitFor { sway.windows().first { $0.name == "Pointer Clip" }?.fullscreen == false }, "\(sway.windows())")
    }

    @Test func atScaleTwoTheControlsHaveTwiceThePixelsAndPictureInPicturesPictureDragsTheWindow() throws {
        let (session, sway) = try sessionUnderSway(width: 1920, height: 1080)
        defer { session.close() }
        // Output scale 2: 960×540 logical pixels.
        sway.message(["output", "HEADLESS-1", "scale", "2"])
        _ = try WaylandWindowTests.playClip(width: 854, height: 480, seconds: 60, title: "Scaled Clip", in: session, under: sway)
        var window: HeadlessSway.Window? { sway.windows().first { $0.name == "Scaled Clip" } }
        let pointer = try VirtualPointer(on: sway, width: 960, height: 540)
        session.onClose { pointer.stop() }

        // Paused, the play button is a triangle over the picture's even blue: its slanted edges are finer than a
        // logical pixel, so 2×2 blocks of the screenshot differ inside; a scale-1 drawing enlarged would have none.
        try session.call("Pause")
        let frame = try #require(window)
        pointer.move(x: frame.x + 427, y: frame.y + 200)
        var shot: Screenshot?, uneven = 0
        #expect(session.waitFor {
            shot = WaylandWindowTests.screenshot(sway, session)
            uneven = shot.map { $0.unevenBlocks(x: (frame.x + 8) * 2, y: (frame.y + 436) * 2, width: 80, height: 80) } ?? 0
            return shot?.width == 1920 && uneven > 20
        }, "uneven 2×2 blocks in the play button: \(uneven) in \(String(describing: shot)), window \(frame)")

        // The bar's Picture in Picture button; there a press on its picture (away from its three buttons) drags the
        // small window, and its top left button goes back to the full window.
        try session.call("Play")
        try Self.pictureInPictureRoundTrip({ window }, from: frame, by: (-150, -100), within: 20, floating: true,
                                           session, sway, pointer)
    }

    /// Where the bar's Picture in Picture button is in an 854×480 window.
    static let pictureInPictureX = 738

    /// Clicks Picture in Picture's top left button (back to the full window), the controls shown first by motion.
    static func backToWindow(_ window: HeadlessSway.Window?, _ session: Session, _ pointer: VirtualPointer) throws {
        let small = try #require(window)
        pointer.move(x: small.x + small.width / 2, y: small.y + small.height / 2)
        Thread.sleep(forTimeInterval: 0.3)
        pointer.click(x: small.x + 28, y: small.y + 28)
        #expect(session.waitFor { (try? session.get("PictureInPicture", interface: VideoTests.video)) == .bool(false) },
                "the top left button left Picture in Picture")
    }

    /// The skip button over the picture's lower right: a click before `skippableAfter` does nothing, after it skips
    /// the interstitial; meanwhile the scrubber spans the interstitial alone.
    @Test func theSkipButtonSkipsOnlyOnceAllowed() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        let sidecar = """
            {"title": "Skip Clip", "interstitials": [{"start": 0, "end": 20, "title": "Sponsor",
             "restrictions": ["noSkippingPast"], "skippableAfter": 3}]}
            """
        _ = try WaylandWindowTests.playClip(width: 854, height: 480, seconds: 40, title: "Skip Clip", sidecar: sidecar, in: session, under: sway)
        let frame = try #require(sway.windows().first { $0.name == "Skip Clip" })
        #expect(session.waitFor { session.status() == "Playing" })
        try session.call("Pause")
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(1_000_000)])
        #expect(session.waitFor { abs((session.position() ?? 0) - 1_000_000) < 100_000 })
        let pointer = try VirtualPointer(on: sway, width: 1280, height: 720)
        session.onClose { pointer.stop() }
        // 128×40 above the bar's right end.
        let skip = (x: frame.x + 854 - 8 - 64, y: frame.y + 480 - 48 - 8 - 20)
        pointer.move(x: frame.x + 427, y: frame.y + 200)
        Thread.sleep(forTimeInterval: 0.5)
        pointer.click(x: skip.x, y: skip.y)
        Thread.sleep(forTimeInterval: 0.5)
        #expect((session.position() ?? .max) < 20_000_000, "before it is allowed a click does not skip")
        // While it plays the scrubber spans the interstitial alone: its far right is the interstitial's end, not the
        // clip's (seeking within is allowed, past it is not).
        pointer.click(x: frame.x + Self.scrubber.x + Self.scrubber.width - 2, y: frame.y + Self.barMiddleY)
        #expect(session.waitFor { (15_000_000..<20_000_000).contains(session.position() ?? 0) },
                "the scrubber's end is the interstitial's: at \(session.position() ?? -1)")
        try session.call("SetPosition", [id, .int64(5_000_000)])
        #expect(session.waitFor { (try? session.get("CanSkipInterstitial", interface: VideoTests.video)) == .bool(true) })
        Thread.sleep(forTimeInterval: 0.5)
        pointer.click(x: skip.x, y: skip.y)
        #expect(session.waitFor { (session.position() ?? 0) >= 20_000_000 }, "the Skip button skipped it")
    }

    /// The X11 window's Picture in Picture drag asks the window manager to move it (_NET_WM_MOVERESIZE): under sway
    /// through XWayland (Xvfb alone has no window manager to ask), the small window follows the virtual pointer. The
    /// bar's button enters Picture in Picture and the small window's top left button leaves it.
    @Test func theX11WindowsPictureInPictureDragsThroughTheWindowManager() throws {
        let (session, sway) = try sessionUnderSway(width: 1920, height: 1080)
        defer { session.close() }
        let clip = session.directory + "/clip.ogv"
        try generateVideo(at: clip, width: 854, height: 480, seconds: 60, title: "X11 Clip")
        _ = try session.launch([clip], extraEnvironment: ["DISPLAY": sway.xDisplay, "REPRISE_VIDEO_WINDOW": "x11"])
        var window: HeadlessSway.Window? { sway.windows().first { $0.name == "X11 Clip" } }
        #expect(session.waitFor { window?.shell == "xwayland" }, "\(sway.windows())")
        let pointer = try VirtualPointer(on: sway, width: 1920, height: 1080)
        session.onClose { pointer.stop() }
        let whole = try #require(window)
        pointer.move(x: whole.x + 427, y: whole.y + 240)
        Thread.sleep(forTimeInterval: 0.3)
        try Self.pictureInPictureRoundTrip({ window }, from: whole, by: (-300, -200), within: 30, floating: false,
                                           session, sway, pointer)
    }

    /// From the 854×480 window at `frame`: the bar's Picture in Picture button makes it small (and floating, when
    /// asked), a drag by its picture moves it by `offset` (its corner then within `tolerance`), and its top left
    /// button brings back the full window.
    static func pictureInPictureRoundTrip(_ window: () -> HeadlessSway.Window?, from frame: HeadlessSway.Window,
                                          by offset: (x: Int, y: Int), within tolerance: Int, floating: Bool,
                                          _ session: Session, _ sway: HeadlessSway, _ pointer: VirtualPointer) throws {
        pointer.click(x: frame.x + pictureInPictureX, y: frame.y + barMiddleY)
        #expect(session.waitFor { window().map { $0.width < 854 && (!floating || $0.floating) } == true }, "\(sway.windows())")
        Thread.sleep(forTimeInterval: 0.5)
        let small = try #require(window())
        let target = drag(small, by: offset, with: pointer)
        #expect(session.waitFor { window().map { abs($0.x - target.x) < tolerance && abs($0.y - target.y) < tolerance } == true },
                "from \(small) to \(String(describing: window()))")
        try backToWindow(window(), session, pointer)
        #expect(session.waitFor { window()?.width == 854 }, "\(sway.windows())")
    }

    /// Drags `small` by its picture (a quarter in from the left, three quarters down: away from Picture in Picture's
    /// buttons) by `offset`, kept 10 px inside the output; returns where its corner should then be.
    static func drag(_ small: HeadlessSway.Window, by offset: (x: Int, y: Int), with pointer: VirtualPointer) -> (x: Int, y: Int) {
        let grip = (x: small.x + small.width / 4, y: small.y + small.height * 3 / 4)
        let to = (x: max(10, grip.x + offset.x), y: max(10, grip.y + offset.y))
        pointer.move(x: grip.x, y: grip.y)
        Thread.sleep(forTimeInterval: 0.3)
        pointer.drag(from: grip, to: to)
        return (small.x + to.x - grip.x, small.y + to.y - grip.y)
    }
}

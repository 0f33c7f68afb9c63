import Foundation
import Testing
import TestSupport

/// Touch on the video window's controls, under a headless KWin whose fake input has a touchscreen (headless sway has
/// none): the native Wayland window gets it as wl_touch, the X11 window through XWayland as XInput 2 touch events.
/// The output is the 854×480 window's size, and the window is put in full screen, so the output's coordinates are
/// the window's and the bar's layout is ``VideoControlsX11Tests``'s. A tap on a control acts (on hidden controls the
/// first only shows them), a finger slid along the scrubber seeks to where it lifts, a tap on the picture's centre
/// plays or pauses with the controls left hidden, and a double tap leaves full screen.
@Suite(.serialized)
struct VideoControlsTouchTests {
    static let width = 854, height = 480
    /// A row of the picture above its centre (the middle half each way), below the title's band.
    static let offCentreY = 90

    @Test func touchDrivesTheControlsInTheWaylandWindow() throws {
        try touchDrivesTheControls(window: "wayland")
    }

    @Test func touchDrivesTheControlsInTheX11Window() throws {
        try touchDrivesTheControls(window: "x11")
    }

    /// Under KDE Plasma the Wayland window takes the desktop's double-click interval from kdeglobals (here 2 s): two
    /// taps on the picture's centre a second apart are a double tap (full screen left), not two pauses — with the
    /// 0.4 s default they would be two.
    @Test func theWaylandWindowTakesKDEsDoubleClickInterval() throws {
        let session = try Session()
        defer { session.close() }
        let kwin = try HeadlessKWin(width: Self.width, height: Self.height)
        session.onClose { kwin.stop() }
        let config = try session.makeHomeFolder(".config")
        try "[KDE]\nDoubleClickInterval=2000\n".write(toFile: config + "/kdeglobals", atomically: true, encoding: .utf8)
        let clip = session.directory + "/clip.ogv"
        try generateVideo(at: clip, width: Self.width, height: Self.height, seconds: 60, title: "Touch Clip")
        let pid = try session.launch([clip], extraEnvironment: ["WAYLAND_DISPLAY": kwin.waylandDisplay, "XDG_CURRENT_DESKTOP": "KDE"])
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["mpris:length"] != nil }, "\(session.log(of: pid))")
        try session.set("Fullscreen", .bool(true), interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(true) }, "\(session.log(of: pid))")
        Thread.sleep(forTimeInterval: 1.5) // the compositor's configure
        let finger = try VirtualPointer(on: kwin, width: Self.width, height: Self.height)
        session.onClose { finger.stop() }
        // A first tap off the centre (KWin may take it to focus the window), then, past the interval, the two.
        finger.tap(x: Self.width / 2, y: Self.offCentreY)
        Thread.sleep(forTimeInterval: 2.5)
        finger.tap(x: Self.width / 2, y: Self.height / 2)
        Thread.sleep(forTimeInterval: 1)
        finger.tap(x: Self.width / 2, y: Self.height / 2)
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(false) },
                "two taps a second apart are a double tap under a 2 s interval: \(session.log(of: pid).suffix(1200))")
        Thread.sleep(forTimeInterval: 2.5)
        #expect(session.status() == "Playing", "and neither played or paused")
    }

    private func touchDrivesTheControls(window: String) throws {
        let session = try Session()
        defer { session.close() }
        let kwin = try HeadlessKWin(width: Self.width, height: Self.height)
        session.onClose { kwin.stop() }
        let clip = session.directory + "/clip.ogv"
        try generateVideo(at: clip, width: Self.width, height: Self.height, seconds: 60, title: "Touch Clip")
        let environment = window == "x11" ? ["DISPLAY": kwin.xDisplay, "REPRISE_VIDEO_WINDOW": "x11"]
                                          : ["WAYLAND_DISPLAY": kwin.waylandDisplay]
        let pid = try session.launch([clip], extraEnvironment: environment)
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["mpris:length"] != nil }, "\(session.log(of: pid))")
        try session.set("Fullscreen", .bool(true), interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(true) })
        Thread.sleep(forTimeInterval: 1.5) // the compositor's configure
        let finger = try VirtualPointer(on: kwin, width: Self.width, height: Self.height)
        session.onClose { finger.stop() }
        let play = VideoControlsWaylandTests.play, barMiddleY = VideoControlsX11Tests.barMiddleY

        // A tap on the bar's left end pauses — once the controls show (a tap on hidden ones only shows them). Whether
        // they show now depends on when the compositor's full screen moved its pointer over the window, and KWin may
        // take the first touch to focus the window: taps on the picture off its centre (which do nothing to shown
        // controls; one on the centre would play or pause) until the service's log says they show, a few seconds
        // apart so that two never make a double tap.
        func controlsShown() -> Bool {
            session.log(of: pid).components(separatedBy: "\n").last { $0.contains("video controls ") }?.hasSuffix("shown") == true
        }
        // Shown controls hide after ControlsVisibility.hideDelay without a touch: under load a tap can come after
        // that, and a tap on hidden controls only shows them. So a tap on a control is tried again (a few times) with
        // the controls shown again first, until it did what it should.
        func tapShown(x: Int, y: Int, until done: () -> Bool) -> Bool {
            for _ in 0..<3 {
                for _ in 0..<3 where !controlsShown() {
                    finger.tap(x: Self.width / 2, y: Self.offCentreY)
                    _ = session.waitFor(3) { controlsShown() }
                }
                finger.tap(x: x, y: y)
                if session.waitFor(3, done) { return true }
            }
            return false
        }
        #expect(tapShown(x: play.x, y: play.y) { session.status() == "Paused" },
                "a tap on the bar's left end pauses: \(session.log(of: pid).suffix(1500))")

        // Paused, the controls stay: a finger slid along the scrubber seeks to where it lifts, three quarters in.
        let length = try #require(session.metadata()["mpris:length"]?.int64Value)
        let scrubber = VideoControlsX11Tests.scrubber
        let lift = scrubber.x + (scrubber.width - 1) * 3 / 4
        finger.swipe(from: (scrubber.x + 20, barMiddleY), to: (lift, barMiddleY))
        let expected = Double(length) * 0.75
        #expect(session.waitFor { abs(Double(session.position() ?? 0) - expected) < 1_500_000 },
                "at \(session.position() ?? -1) µs, expected about \(Int(expected))")
        #expect(tapShown(x: play.x, y: play.y) { session.status() == "Playing" }, "and a tap plays again")

        // Once the controls have hidden, a tap on the picture's centre pauses (after the double-tap interval) and
        // leaves them hidden; another, a second later (not a double tap), plays.
        #expect(session.waitFor(15) { !controlsShown() }, "playing untouched, the controls hide: \(session.log(of: pid).suffix(1500))")
        finger.tap(x: Self.width / 2, y: Self.height / 2)
        #expect(session.waitFor { session.status() == "Paused" }, "a tap on the centre pauses: \(session.log(of: pid).suffix(1500))")
        Thread.sleep(forTimeInterval: 1)
        #expect(!controlsShown(), "and leaves the controls hidden: \(session.log(of: pid).suffix(1500))")
        finger.tap(x: Self.width / 2, y: Self.height / 2)
        #expect(session.waitFor { session.status() == "Playing" }, "another plays")

        // A double tap on the picture (shown controls or not) leaves full screen.
        finger.tap(x: Self.width / 2, y: Self.height / 2 - 60, count: 2)
        #expect(session.waitFor { (try? session.get("Fullscreen", interface: "org.mpris.MediaPlayer2")) == .bool(false) },
                "a double tap leaves full screen")
        #expect(session.status() == "Playing")
    }
}

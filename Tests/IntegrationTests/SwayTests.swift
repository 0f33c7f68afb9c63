import Foundation
import Testing
import TestSupport

/// Video under a real headless Wayland compositor (sway, wlroots) when Reprise is given only `$DISPLAY`: its X11
/// window, through sway's XWayland (WaylandWindowTests has the native one), and what Reprise asks of it holds: its size,
/// fullscreen, and Picture in Picture's size without decorations, with the old state given back after. Where the
/// small window goes and whether it stays above is sway's decision (README).
@Suite(.serialized) struct SwayTests {
    @Test func theVideoWindowUnderSwayKeepsItsSizeFullscreenAndPictureInPicture() throws {
        let (session, sway) = try sessionUnderSway(width: 1920, height: 1080)
        defer { session.close() }
        let clip = session.directory + "/clip.ogv"
        try generateVideo(at: clip, width: 640, height: 360, seconds: 20, title: "Sway Clip")
        try session.launch([clip], extraEnvironment: ["DISPLAY": sway.xDisplay])
        var window: HeadlessSway.Window? { sway.windows().first { $0.name == "Sway Clip" } }
        #expect(session.waitFor { window.map { [$0.width, $0.height] } == [640, 360] }, "\(sway.windows())")
        #expect(window?.shell == "xwayland" && window?.windowClass == "reprise", "an X11 window through XWayland")
        let reprise = { (arguments: [String]) in _ = try? runCommand(repriseBinary, arguments, environment: session.environment) }
        // Picture in Picture: a quarter of 1920 wide at 16:9, no border; off: the window as it was.
        reprise(["pip", "on"])
        #expect(session.waitFor { window.map { [$0.width, $0.height] } == [480, 270] }, "\(sway.windows())")
        reprise(["pip", "off"])
        #expect(session.waitFor { window.map { [$0.width, $0.height] } == [640, 360] }, "\(sway.windows())")
        // From fullscreen and back to it.
        reprise(["video", "fullscreen", "on"])
        #expect(session.waitFor { window?.fullscreen == true && window?.width == 1920 }, "\(sway.windows())")
        reprise(["pip", "on"])
        #expect(session.waitFor { window?.fullscreen == false && window?.width == 480 }, "\(sway.windows())")
        reprise(["pip", "off"])
        #expect(session.waitFor { window?.fullscreen == true && window?.width == 1920 }, "\(sway.windows())")
        #expect(session.status() == "Playing")
    }
}

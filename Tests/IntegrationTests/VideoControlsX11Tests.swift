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
        let window = try #require(VideoTests.findWindow(display, titled: "Test Clip", session))
        display.resize(window, width: 854, height: 480)
        #expect(session.waitFor { display.size(of: window).map { [$0.width, $0.height] } == [854, 480] })
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
}

import Foundation
import SDBus
import Testing
import TestSupport

/// The output in use going away while a session manager pauses players itself (WirePlumber 0.5.11 and later send
/// MPRIS `Pause` to a player whose output is removed; the test's bus client plays that part).
extension AudioSessionTests {
    @Test(arguments: SoundServerKind.allCases, [true, false])
    func aPauseFromTheSessionManagerAsTheOutputGoesIsAnUnplug(_ server: SoundServerKind, pauseFirst: Bool) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let (module, headphones) = try plugOutput(session, named: "headphones")
        try session.pactl("set-default-sink", "headphones")
        let reprise = try session.launch([media.first])
        #expect(session.waitFor { session.status() == "Playing" && stream(session, reprise)?.sink == headphones })
        #expect(session.waitFor { (try? session.get("Output", interface: Self.audio)) == .string("headphones") })
        // A call pauses Reprise, to resume when it ends…
        let call = try session.startStream(role: "phone")
        #expect(session.waitFor { signal(session, "InterruptionBegan", [.string("resumable")]) })
        #expect(session.waitFor { session.status() == "Paused" })
        // …but the headphones go, and the session manager pauses the player (before or after the server reports it).
        if pauseFirst { try session.call("Pause") }
        try session.pactl("unload-module", module)
        if !pauseFirst { try session.call("Pause") }
        #expect(session.waitFor { signal(session, "RouteChanged", [.string("old-device-unavailable"), .string("speakers")]) },
                "\(session.audioSignals)")
        #expect(session.waitFor { (try? session.get("Output", interface: Self.audio)) == .string("speakers") })
        session.stopStream(call)
        #expect(session.waitFor { signal(session, "InterruptionEnded", [.string("resumable"), .bool(false)]) }, "\(session.audioSignals) \(session.log(of: reprise))")
        // Like an unplug: nothing resumes by itself, on the speakers least of all.
        #expect(!session.waitFor(1.5) { session.status() == "Playing" })
        #expect(try session.get("Output", interface: Self.audio) == .string("speakers"))
        // Played again, the stream opens on what is left.
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" && stream(session, reprise).map { $0.sink != headphones } == true })
        #expect(try session.get("Output", interface: Self.audio) == .string("speakers"))
    }
}

import Foundation
import SDBus
import Testing
import TestSupport

/// Real consumers of Reprise on a desktop: the playerctld daemon (waybar, sway and tiling set-ups run it; every
/// ``Session`` runs one and checks on closing that it survived), a second real player (mpv with mpv-mpris) and a
/// player that plays no sound here (a mirror, like KDE Connect's players of a phone's media).
@Suite(.serialized) struct ConsumerTests {
    static let mpv = "org.mpris.MediaPlayer2.mpv"

    func viaPlayerctld(_ session: Session, _ arguments: String...) -> String {
        let result = try? runCommand("playerctl", ["-p", "playerctld"] + arguments, environment: session.environment)
        return result?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    @Test func playerctldSurvivesAndFollowsRepriseThroughAWholeSession() throws {
        let session = try Session()
        defer { session.close() }
        #expect(session.playerctldIsAlive)
        try session.launch([media.first, media.second, media.third]) { session.status() == "Playing" }
        #expect(session.waitFor { viaPlayerctld(session, "status") == "Playing" })
        #expect(session.playerctldIsAlive)
        // The title once the stream's tags are read (before that, the file's name).
        #expect(session.waitFor { viaPlayerctld(session, "metadata", "title") == "First Light" })

        // Transport through playerctld.
        _ = viaPlayerctld(session, "play-pause")
        #expect(session.waitFor { session.status() == "Paused" })
        _ = viaPlayerctld(session, "play-pause")
        #expect(session.waitFor { session.status() == "Playing" })
        _ = viaPlayerctld(session, "next")
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(session.waitFor { viaPlayerctld(session, "metadata", "title") == "Second Wind" })

        // Reprise's own interfaces change and announce things: none of it reaches playerctld's object.
        try session.call("SetSilent", [.bool(true)], interface: "app.reprise.AudioSession1")
        try session.call("SetCategory", [.string("playback"), .strings(["duckOthers"])], interface: "app.reprise.AudioSession1")
        try session.call("Invoke", [.string("skip-forward")], interface: "app.reprise.Controls1")
        try session.call("SetCategory", [.string("playback"), .strings([])], interface: "app.reprise.AudioSession1")
        #expect(session.playerctldIsAlive)

        // playerctld re-announcing Reprise's changes under its own name is not another player starting.
        #expect(!session.waitFor(2) { session.status() != "Playing" })

        // A second real player starts: it plays sound here, so Reprise pauses (for good). playerctld goes on answering
        // (which of the two it makes active depends on which changed last: Reprise pausing comes after mpv starting).
        let mpv = try session.startMPV(playing: media.third)
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(["Playing", "Paused"].contains(viaPlayerctld(session, "status")))
        #expect(session.playerctldIsAlive)
        kill(mpv, SIGTERM)
        #expect(session.waitForExit(mpv) != nil)

        // With mpv gone, playerctld follows Reprise again and drives it.
        #expect(session.waitFor { viaPlayerctld(session, "metadata", "title") == "Second Wind" })
        _ = viaPlayerctld(session, "play")
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.waitFor { viaPlayerctld(session, "status") == "Playing" })

        // Quitting Reprise: playerctld lives on.
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })
        #expect(!session.waitFor(1) { !session.playerctldIsAlive })
    }

    @Test func aPlayerThatPlaysNoSoundHereNeverPausesReprise() throws {
        // Without playerctld: this is about Reprise's pause policy, and playerctld 2.4.1 now and then dies of
        // SIGSEGV here (2 runs in many) while a player without TrackList or Playlists (this double, like a phone's
        // mirror) comes and goes; the test above drives Reprise through playerctld.
        let session = try Session(withPlayerctld: false)
        defer { session.close() }
        let silentPlayer = packageRoot.appendingPathComponent(".build/debug/silent-player").path
        // A mirror that already says Playing when Reprise starts: Reprise starting does not pause it.
        try session.start(silentPlayer, ["phone", "--playing"], logName: "phone")
        #expect(session.waitFor { session.output(ofLog: "phone").contains("ready") })
        try session.launch([media.first]) { session.status() == "Playing" }
        // A second mirror goes from Paused to Playing while Reprise plays: Reprise keeps playing.
        try session.start(silentPlayer, ["tablet"], logName: "tablet")
        #expect(session.waitFor { session.nameHasOwner("org.mpris.MediaPlayer2.tablet") })
        try session.call("Play", on: "org.mpris.MediaPlayer2.tablet")
        #expect(try session.get("PlaybackStatus", on: "org.mpris.MediaPlayer2.tablet") == .string("Playing"))
        #expect(!session.waitFor(2) { session.status() != "Playing" })
        #expect(!session.output(ofLog: "phone").contains("call Pause"))
        #expect(!session.output(ofLog: "tablet").contains("call Pause"))
        #expect(!session.audioSignals.contains { $0.member == "InterruptionBegan" })
    }

    @Test func mpvStartingPausesRepriseAndRepriseStartingPausesMPV() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        let mpv = try session.startMPV(playing: media.third)
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(session.waitFor {
            session.audioSignals.contains { $0.member == "InterruptionBegan" && $0.arguments == [.string("non-resumable")] }
        })
        // Playing Reprise again is the user's choice: now mpv is the one paused.
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.waitFor { (try? session.get("PlaybackStatus", on: Self.mpv)) == .string("Paused") })
        #expect(!session.waitFor(1.5) { session.status() != "Playing" })
        kill(mpv, SIGTERM)
        _ = session.waitForExit(mpv)
    }
}

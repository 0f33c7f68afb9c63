import Foundation
import SDBus
import Testing
import TestSupport

/// Faults survived: the sound server restarting, the state directory unwritable, kill -9 at any moment.
@Suite(.serialized) struct FaultTests {

    @Test func theSoundServerRestartingKeepsTheQueueAndThePosition() throws {
        let session = try Session()
        defer { session.close() }
        let service = try session.launch([media.first, media.second]) { session.status() == "Playing" && session.title() == "First Light" }
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(10_000_000)])
        #expect(session.waitFor { (session.position() ?? 0) >= 10_000_000 })
        try session.restartPulse()
        // Paused where it was, on the same track: the media was fine, only the output went away.
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(session.title() == "First Light")
        let position = session.position() ?? 0
        #expect(position >= 10_000_000 && position < 14_000_000)
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) > position })
        #expect(session.waitFor { (try? session.sinkInputs(of: service))?.isEmpty == false })
        #expect(session.title() == "First Light")
    }

    /// A sound server that stops answering (hung, or stopped in a debugger) holds up pipeline state changes: the
    /// loop never waits for them, so every call is still answered, and playback carries on once it answers again.
    @Test func aSoundServerThatStopsAnsweringNeverHoldsUpReplies() throws {
        let session = try Session()
        defer { session.close() }
        let service = try session.launch([media.first, media.second, media.third]) { session.status() == "Playing" && session.title() == "First Light" }
        session.freezeSoundServer(true)
        defer { session.freezeSoundServer(false) }
        func answered(_ member: String) -> Bool {
            do {
                _ = try session.bus.call(destination: Session.name, path: Session.path, interface: Session.player,
                                         member: member, timeoutMicroseconds: 10_000_000)
                return true
            } catch { return error.name != "org.freedesktop.DBus.Error.NoReply" && error.name != "org.freedesktop.DBus.Error.Timeout" }
        }
        for member in ["Pause", "Play", "Next", "Pause", "Play", "Next", "Previous", "Stop", "Play"] {
            #expect(answered(member), "\(member) was not answered while the sound server was stopped")
        }
        #expect(session.status() == "Playing")
        #expect(session.title() == "Second Wind")
        session.freezeSoundServer(false)
        #expect(session.waitFor { (try? session.sinkInputs(of: service))?.contains { !$0.corked } == true })
        #expect(session.waitFor { (session.position() ?? 0) > 1_000_000 }, "plays on once the server answers")
        #expect(session.title() == "Second Wind")
        #expect(session.isRunning(service))
    }

    @Test func mediaDeletedOrTruncatedWhileItPlaysIsSkippedOn() throws {
        let session = try Session()
        defer { session.close() }
        let doomed = session.directory + "/doomed.ogg", shrinking = session.directory + "/shrinking.ogg"
        try FileManager.default.copyItem(atPath: media.first, toPath: doomed)
        try FileManager.default.copyItem(atPath: media.third, toPath: shrinking)
        let service = try session.launch([doomed, shrinking, media.second]) { session.title() == "First Light" && session.status() == "Playing" }
        // Deleted while it plays: what is already open plays out, then the next one follows.
        try FileManager.default.removeItem(atPath: doomed)
        let first = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [first, .int64(18_000_000)])
        #expect(session.waitFor { session.title() == "Third Time" && session.status() == "Playing" })
        // Cut to nothing while it plays: the stream ends early and the next one follows.
        #expect(truncate(shrinking, 0) == 0)
        #expect(session.waitFor(30) { session.title() == "Second Wind" && session.status() == "Playing" })
        // Going back to the deleted one skips it with a reason instead of stopping.
        let ids = session.trackIDs()
        try #require(ids.count == 3)
        try session.call("GoTo", [ids[0]], interface: "org.mpris.MediaPlayer2.TrackList")
        #expect(session.waitFor { session.log(of: service).contains("doomed.ogg") && session.log(of: service).contains("skipping") })
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.isRunning(service))
        #expect(session.trackIDs() == ids, "the queue keeps the deleted entry")
    }

    @Test func anUnwritableStateDirectoryIsSurvivedAndTheOldStateKept() throws {
        let session = try Session()
        defer { session.close() }
        let first = try session.launch([media.first, media.second]) { session.title() == "First Light" }
        let directory = session.home + "/.local/state/reprise"
        let state = directory + "/state"
        #expect(session.waitFor { FileManager.default.fileExists(atPath: state) })
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        _ = session.waitForExit(first)
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        // Tests run as root, which permissions do not stop: a file where the state directory should be does.
        try FileManager.default.removeItem(atPath: directory)
        try Data().write(to: URL(fileURLWithPath: directory)) // a file where the directory should be
        let second = try session.launch([media.third]) { session.title() == "Third Time" && session.status() == "Playing" }
        try session.call("Next")
        #expect(session.waitFor(3) { session.log(of: second).contains("could not save the state") })
        #expect(session.status() != nil) // still serving
        try FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try saved.write(toFile: state, atomically: true, encoding: .utf8)
        // Writable again: the next save succeeds.
        try session.set("LoopStatus", .string("Track"))
        #expect(session.waitFor { ((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").contains("loop Track") })
    }

    @Test func killedAtRandomMomentsTheStateIsAlwaysWholeAndRestored() throws {
        let session = try Session()
        defer { session.close() }
        let state = session.home + "/.local/state/reprise/state"
        var generator = SystemRandomNumberGenerator()
        let media = [media.first, media.second, media.third]
        var service = try session.launch(media)
        for round in 0..<50 {
            #expect(session.waitFor { session.status() != nil })
            // Change things so saves happen, then kill at a random moment within the next half second.
            try? session.set("LoopStatus", .string(["None", "Track", "Playlist"][round % 3]))
            _ = try? session.call("Next")
            usleep(UInt32.random(in: 0...500_000, using: &generator))
            kill(service, SIGKILL)
            _ = session.waitForExit(service)
            if let text = try? String(contentsOfFile: state, encoding: .utf8) {
                #expect(SavedStateFile.isWhole(text), "torn state in round \(round)")
            }
            service = try session.launch([])
            #expect(session.waitFor { session.nameHasOwner(Session.name) })
            #expect(!session.log(of: service).contains("ignoring unreadable saved state"))
            guard case .array(_, let ids)? = try? session.get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList") else {
                Issue.record("no track list in round \(round)")
                continue
            }
            #expect(ids.count == 3, "queue lost in round \(round)")
            _ = try? session.call("Play")
        }
    }
}

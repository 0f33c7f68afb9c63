import BusInterfaces
import Foundation
import SDBus
import Testing
import TestSupport

/// The sleep timer with the real binary: heard fading at the speakers, then paused with the position kept.
@Suite(.serialized) struct SleepTimerTests {
    static let interface = "app.reprise.Sleep1"

    /// The loudest sample of each 250 ms of `samples`.
    func peaks(_ samples: [Int16]) -> [Int] {
        stride(from: 0, to: samples.count, by: 11_025).map { start in
            samples[start..<min(samples.count, start + 11_025)].map { abs(Int($0)) }.max() ?? 0
        }
    }

    @Test func aTimerFadesOutPausesAndKeepsThePosition() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" && (session.position() ?? 0) > 300_000 }
        var announcements: [[String: DBusValue]] = []
        try session.bus.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(RepriseObjects.ownPath)'") { message in
            if message.arguments.first == .string(Self.interface), let changed = message.arguments[1].dictionary { announcements.append(changed) }
        }
        let full = try session.peakLevel()
        #expect(full > 1000, "it plays: \(full)")

        let set = try runCommand(repriseBinary, ["sleep", "5s"], environment: session.environment)
        #expect(set.status == 0 && set.output.contains("pausing in 0:0"), "\(set.output)\(set.errors)")
        #expect(try session.get("Timer", interface: Self.interface) == .string("duration"))
        let remaining = try session.get("Remaining", interface: Self.interface).int64Value ?? -1
        #expect(remaining > 3_000_000 && remaining <= 5_000_000, "\(remaining)")
        let recording = try session.startRecordingSpeakers()
        #expect(session.waitFor(10) { session.status() == "Paused" })
        let pausedAt = session.position() ?? 0
        Thread.sleep(forTimeInterval: 0.6)
        let levels = peaks(recording.finish())
        // Full for the first half, falling through the 2.5 s fade, then silence.
        if ProcessInfo.processInfo.environment["SLEEP_DEBUG"] != nil { print("levels", full, levels) }
        let loud = levels.prefix(4), end = levels.suffix(3)
        #expect(loud.allSatisfy { $0 > full / 2 }, "full level at first: \(levels)")
        #expect(levels.contains { $0 > full / 20 && $0 < full * 2 / 3 }, "heard fading: \(levels)")
        #expect(end.allSatisfy { $0 < full / 20 }, "silent once paused: \(levels)")
        #expect(pausedAt > 5_000_000, "the position is kept: \(pausedAt)")
        session.pump()
        #expect(announcements.count == 2, "announced when set and when it ended, not as it counted: \(announcements)")
        #expect(announcements.last?["Timer"] == .string("off"))
        #expect(try session.get("Timer", interface: Self.interface) == .string("off"))

        // Played again: at full level, from where it paused.
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(try session.peakLevel() > full / 2)
        #expect((session.position() ?? 0) >= pausedAt)
    }

    /// Play after the sleep timer's pause resumes where it paused, at full level, also when the sound output failed
    /// meanwhile (the sound server restarted: the stream is loaded again, and sought to where it was): Position is
    /// never 0:00 in between (a loaded machine once saw Position 0.0 and silence right after Play, the stream still
    /// prerolling while Position said 0).
    @Test func playAfterTheSleepPauseResumesWhereItPausedEvenAfterTheOutputFailed() throws {
        let session = try Session()
        defer { session.close() }
        let service = try session.launch([media.first]) { session.status() == "Playing" && (session.position() ?? 0) > 300_000 }
        let full = try session.peakLevel()
        #expect(try runCommand(repriseBinary, ["sleep", "4s"], environment: session.environment).status == 0)
        #expect(session.waitFor(10) { session.status() == "Paused" })
        let pausedAt = session.position() ?? 0
        #expect(pausedAt > 4_000_000)
        try session.restartPulse()
        usleep(500_000)
        #expect(session.status() == "Paused" && (session.position() ?? 0) >= pausedAt - 100_000, "kept while the output came back")
        try session.call("Play")
        // Every reading from Play on: never back at the start.
        var lowest = Int64.max
        let started = monotonicSeconds()
        while monotonicSeconds() - started < 1.5 {
            if let position = session.position() { lowest = min(lowest, position) }
            usleep(10_000)
        }
        #expect(lowest >= pausedAt - 100_000, "Position went to \(lowest) µs after Play (paused at \(pausedAt))")
        #expect(session.waitFor { session.status() == "Playing" && (try? session.peakLevel()) ?? 0 > full / 2 },
                "the level before the fade: \(String(describing: try? session.sinkInputs(of: service))) \(session.log(of: service).suffix(2500))")
        #expect((session.position() ?? 0) >= pausedAt)
    }

    @Test func endOfTrackWaitsAtTheNextTrackAndOffCancels() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.title() == "First Light" && session.status() == "Playing" }
        let status = try runCommand(repriseBinary, ["sleep", "end-of-track"], environment: session.environment)
        #expect(status.output.contains("end of this track"), "\(status.output)\(status.errors)")
        #expect(try session.get("Timer", interface: Self.interface) == .string("end-of-track"))
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(17_000_000)])
        #expect(session.waitFor(15) { session.status() == "Paused" })
        #expect(session.waitFor { session.title() == "Second Wind" }, "waits at the next track")
        #expect(session.status() == "Paused")
        #expect((session.position() ?? .max) < 500_000, "at its start")
        #expect(try session.get("Timer", interface: Self.interface) == .string("off"))

        // Set and cancelled: nothing happens.
        try session.call("Play")
        #expect(try runCommand(repriseBinary, ["sleep", "2s"], environment: session.environment).status == 0)
        let off = try runCommand(repriseBinary, ["sleep", "off"], environment: session.environment)
        #expect(off.output.trimmingCharacters(in: .whitespacesAndNewlines) == "off")
        Thread.sleep(forTimeInterval: 2.5)
        #expect(session.status() == "Playing")
        #expect(try session.peakLevel() > 1000)

        // Bad input: a clear error; end-of-chapter without chapters: refused.
        let bad = try runCommand(repriseBinary, ["sleep", "soon"], environment: session.environment)
        #expect(bad.status != 0 && bad.errors.contains("90s"), "\(bad.errors)")
        #expect(session.dbusError { try session.call("Start", [.string("end-of-chapter")], interface: Self.interface) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")

        // A timer survives nothing: a restart starts without one.
        #expect(try runCommand(repriseBinary, ["sleep", "30m"], environment: session.environment).status == 0)
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })
        try session.launch([])
        #expect(try session.get("Timer", interface: Self.interface) == .string("off"))
    }

    @Test func endOfChapterPausesAtTheNextChaptersStart() throws {
        let session = try Session()
        defer { session.close() }
        let book = try ChaptersTests.book("book.m4b", in: session.directory)
        let pid = try session.launch([book]) {
            session.status() == "Playing" && session.metadata()["reprise:chapter"]?.stringValue == "Opening"
        }
        let set = try runCommand(repriseBinary, ["sleep", "end-of-chapter"], environment: session.environment)
        #expect(set.output.contains("end of this chapter"), "\(set.output)\(set.errors)")
        #expect(session.waitFor(10) { session.status() == "Paused" })
        #expect(session.waitFor(5) { abs((session.position() ?? 0) - 4_000_000) < 300_000 },
                "paused at the next chapter's start: \(session.position() ?? -1)\n\(session.log(of: pid))")
        #expect(session.status() == "Paused")
    }
}

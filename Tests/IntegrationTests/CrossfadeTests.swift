import Foundation
import SDBus
import Testing
import TestSupport

/// Crossfade heard at the speakers: two tones of different pitch, their overlap measured in 100 ms windows.
@Suite(.serialized) struct CrossfadeTests {
    static let sound = "app.reprise.Sound1"

    func tone(_ name: String, _ session: Session, frequency: Int, album: String, number: Int) throws -> String {
        let path = session.directory + "/\(name).ogg"
        try generateTone(at: path, seconds: 12, frequency: frequency,
                         tags: "title=(string)\"\(name)\",album=(string)\"\(album)\",artist=(string)\"Tone\",track-number=(uint)\(number)",
                         encoder: ["vorbisenc", "!", "oggmux"])
        return path
    }

    /// The amplitude (of 32767) of `frequency` in each 100 ms window of `samples` (Goertzel).
    func amplitudes(of frequency: Double, in samples: [Int16]) -> [Double] {
        let window = 4410
        let coefficient = 2 * cos(2 * Double.pi * frequency / 44100)
        return stride(from: 0, to: samples.count - window, by: window).map { start in
            var previous = 0.0, beforePrevious = 0.0
            for sample in samples[start..<start + window] {
                let current = Double(sample) + coefficient * previous - beforePrevious
                beforePrevious = previous
                previous = current
            }
            let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
            return 2 * power.squareRoot() / Double(window)
        }
    }

    /// Seconds during which both tones sound (each over a tenth of its full level) in a recording of the change.
    func overlapSeconds(_ session: Session, seeking length: Int64) throws -> (overlap: Double, first: Bool, second: Bool) {
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(length - 5_000_000)])
        let samples = try session.recordSpeakers(seconds: 7.5)
        let low = amplitudes(of: 440, in: samples), high = amplitudes(of: 880, in: samples)
        let full = 0.2 * 32767
        let both = zip(low, high).filter { $0 > full / 10 && $1 > full / 10 }.count
        if ProcessInfo.processInfo.environment["CROSSFADE_DEBUG"] != nil {
            print(zip(low, high).map { "\(Int($0 * 100 / full))/\(Int($1 * 100 / full))" }.joined(separator: " "))
            print(session.log(of: session.ownerProcess(of: "org.mpris.MediaPlayer2.reprise") ?? 0).split(separator: "\n")
                    .filter { $0.contains("crossfade") || $0.contains("pipeline") }.suffix(40).joined(separator: "\n"))
        }
        return (Double(both) / 10, low.contains { $0 > full / 2 }, high.contains { $0 > full / 2 })
    }

    @Test func tracksOfDifferentAlbumsOverlapForTheSetTimeAndOneAlbumStaysGapless() throws {
        let session = try Session()
        defer { session.close() }
        let a = try tone("low", session, frequency: 440, album: "One", number: 1)
        let b = try tone("high", session, frequency: 880, album: "Two", number: 1)
        try session.launch(["--crossfade", "3", a, b])
        #expect(try session.get("Crossfade", interface: Self.sound) == .double(3))
        #expect(session.waitFor { session.title() == "low" && session.status() == "Playing" && (session.position() ?? 0) > 500_000 })
        let length = try #require(session.metadata()["mpris:length"]?.int64Value)
        let crossfaded = try overlapSeconds(session, seeking: length)
        #expect(crossfaded.first && crossfaded.second, "both tones were heard")
        #expect(crossfaded.overlap >= 2 && crossfaded.overlap <= 3.6, "overlap \(crossfaded.overlap) s for a 3 s crossfade")
        #expect(session.waitFor { session.title() == "high" && session.status() == "Playing" })

        // The same two tones as one album: joined gaplessly, no overlap (one window may straddle the join).
        let session2 = try Session()
        defer { session2.close() }
        let c = try tone("low", session2, frequency: 440, album: "Same", number: 1)
        let d = try tone("high", session2, frequency: 880, album: "Same", number: 2)
        try session2.launch(["--crossfade", "3", c, d])
        #expect(session2.waitFor { session2.title() == "low" && session2.status() == "Playing" && (session2.position() ?? 0) > 500_000 })
        let gapless = try overlapSeconds(session2, seeking: length)
        #expect(gapless.first && gapless.second)
        #expect(gapless.overlap <= 0.2, "one album overlapped \(gapless.overlap) s")
    }

    /// The largest amplitude of each tone in a recording of `seconds`, as a share of the tones' full level.
    func loudest(_ session: Session, seconds: Double) throws -> (low: Double, high: Double) {
        let samples = try session.recordSpeakers(seconds: seconds)
        let full = 0.2 * 32767
        return ((amplitudes(of: 440, in: samples).max() ?? 0) / full, (amplitudes(of: 880, in: samples).max() ?? 0) / full)
    }

    @Test func aUsersNextFadesQuicklyAndPauseDuringAFadeSilencesBothTracks() throws {
        let session = try Session()
        defer { session.close() }
        let a = try tone("low", session, frequency: 440, album: "One", number: 1)
        let b = try tone("high", session, frequency: 880, album: "Two", number: 1)
        try session.launch(["--crossfade", "3", a, b, a]) { session.title() == "low" && session.status() == "Playing" && (session.position() ?? 0) > 500_000 }

        // Next: the old track fades out over a fraction of a second while the new one comes in.
        let recording = try session.startRecordingSpeakers()
        Thread.sleep(forTimeInterval: 0.8)
        try session.call("Next")
        Thread.sleep(forTimeInterval: 1.7)
        let samples = recording.finish()
        let full = 0.2 * 32767
        let low = amplitudes(of: 440, in: samples), high = amplitudes(of: 880, in: samples)
        let both = zip(low, high).filter { $0 > full / 10 && $1 > full / 10 }.count
        #expect(low.contains { $0 > full / 2 } && high.contains { $0 > full / 2 }, "both tones were heard")
        #expect(both >= 2 && both <= 8, "a user's Next overlapped \(Double(both) / 10) s (a quick fade, not a cut)")
        #expect(session.title() == "high")
        if ProcessInfo.processInfo.environment["CROSSFADE_DEBUG"] != nil { print("next overlap", both) }

        // An automatic crossfade: the next track is the current one from the moment its fade-in begins; Pause
        // silences both, Play brings both back.
        let length = try #require(session.metadata()["mpris:length"]?.int64Value)
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(length - 4_000_000)])
        #expect(session.waitFor { session.title() == "low" })
        try session.call("Pause")
        #expect(session.waitFor { session.status() == "Paused" })
        #expect((session.position() ?? .max) < 2_000_000, "the new track's position, from its start")
        let paused = try loudest(session, seconds: 1)
        if ProcessInfo.processInfo.environment["CROSSFADE_DEBUG"] != nil { print("paused", paused) }
        #expect(paused.low < 0.05 && paused.high < 0.05, "paused during a crossfade: \(paused)")
        try session.call("Play")
        let resumed = try loudest(session, seconds: 1.5)
        if ProcessInfo.processInfo.environment["CROSSFADE_DEBUG"] != nil { print("resumed", resumed) }
        #expect(resumed.low > 0.1 && resumed.high > 0.3, "both tracks sound again: \(resumed)")
    }

    @Test func theSettingFromDBusAndTheCLIAndItsLimits() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([])
        #expect(try session.get("Crossfade", interface: Self.sound) == .double(0), "off by default")
        let set = try runCommand(repriseBinary, ["crossfade", "4.5"], environment: session.environment)
        #expect(set.status == 0 && set.output.contains("4.5 s"), "\(set.output)\(set.errors)")
        #expect(try session.get("Crossfade", interface: Self.sound) == .double(4.5))
        #expect(session.dbusError { try session.set("Crossfade", .double(20), interface: Self.sound) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try runCommand(repriseBinary, ["crossfade", "0.1"], environment: session.environment).status != 0)
        let off = try runCommand(repriseBinary, ["crossfade", "off"], environment: session.environment)
        #expect(off.output.contains("off"))
        let status = try runCommand(repriseBinary, ["status", "--json"], environment: session.environment)
        #expect(status.output.contains("\"crossfade\":0"), "\(status.output)")
    }
}

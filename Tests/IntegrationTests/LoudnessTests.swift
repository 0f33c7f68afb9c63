import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// Loudness measured for untagged library tracks (libebur128), heard at the speakers: a stereo 1 kHz sine of peak
/// 0.2 is -14 LUFS (BS.1770: such a sine's loudness is its peak in dBFS), so ReplayGain plays it 4 dB lower to reach
/// -18 LUFS — an expectation from the standard, not from Reprise's own measurement.
@Suite(.serialized) struct LoudnessTests {
    static let library = "app.reprise.Library1", sound = "app.reprise.Sound1"

    func tone(_ path: String, amplitude: Double, seconds: Int = 40) throws {
        let result = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=\(seconds * 44100 / 1024)", "freq=1000",
                                                       "volume=\(amplitude)", "!", "audio/x-raw,rate=44100,channels=2", "!",
                                                       "audioconvert", "!", "flacenc", "!", "filesink", "location=\(path)"])
        #expect(result.status == 0, "\(result.errors)")
    }

    /// The steady level at the speakers: readings are taken until two in a row agree (a stream opened again where it
    /// was can be heard in between, the old one's last buffers beside the new one's first).
    func level(_ session: Session) throws -> Double {
        #expect(session.waitFor { (try? session.peakLevel(seconds: 0.3)) ?? 0 > 50 })
        usleep(300_000)
        var last = Double(max(1, try session.peakLevel(seconds: 0.8)))
        for _ in 0..<5 {
            let reading = Double(max(1, try session.peakLevel(seconds: 0.8)))
            defer { last = reading }
            if abs(20 * log10(reading / last)) < 0.1 { return reading }
        }
        return last
    }

    func counts(_ session: Session) -> (measured: Int64, waiting: Int64) {
        ((try? session.get("LoudnessMeasured", interface: Self.library, on: Session.name))?.int64Value ?? -1,
         (try? session.get("LoudnessWaiting", interface: Self.library, on: Session.name))?.int64Value ?? -1)
    }

    @Test(arguments: SoundServerKind.allCases)
    func untaggedTracksAreMeasuredAndPlayAtTheReference(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let folder = try session.makeFolder("music")
        let loud = folder + "/loud.flac", quiet = folder + "/quiet.flac"
        try tone(loud, amplitude: 0.2)
        try tone(quiet, amplitude: 0.05)
        let pid = try session.launch(["--library", folder, "--replaygain", "off", loud])
        #expect(session.waitFor(60) { counts(session) == (2, 0) }, "\(counts(session))")
        let status = try runCommand(repriseBinary, ["library", "loudness"], environment: session.environment)
        #expect(status.output.contains("2 measured, 0 waiting"), "\(status.output)")
        let off = try level(session)
        // Levelling on: the track loads again where it was, at its measured gain.
        try session.set("ReplayGain", .string("track"), interface: Self.sound)
        #expect(session.waitFor { session.metadata()["reprise:replayGainMeasured"] == .bool(true) }, "\(session.metadata())")
        // The new stream's leveller says what it applies once its first buffers reach it.
        #expect(session.waitFor {
            (try? session.get("AppliedGain", interface: Self.sound))?.doubleValue.map { abs($0 + 4) <= 0.5 } == true
        }, "\((try? session.get("AppliedGain", interface: Self.sound)) ?? .string("?"))")
        let on = try level(session)
        let change = 20 * log10(on / off)
        #expect(abs(change - (-4.0)) <= 0.5, "\(server): \(change) dB, expected -4 (-14 LUFS to -18)")
        #expect(try session.get("AppliedGainMeasured", interface: Self.sound) == .bool(true))
        let shown = try runCommand(repriseBinary, ["status"], environment: session.environment)
        #expect(shown.output.contains("measured"), "\(shown.output)")

        // The file changes (now peak 0.05: -26 LUFS): the next pass measures it again, and it plays 8 dB up.
        // Written beside it and renamed over it, as editors and taggers do (the stream playing keeps the old file).
        try tone(folder + "/.loud.new", amplitude: 0.05)
        #expect(rename(folder + "/.loud.new", loud) == 0)
        #expect(try runCommand(repriseBinary, ["library", "rescan"], environment: session.environment).status == 0)
        #expect(session.waitFor(60) {
            (try? session.get("AppliedGain", interface: Self.sound))?.doubleValue.map { abs($0 - 8) <= 0.5 } == true
        }, "\((try? session.get("AppliedGain", interface: Self.sound)) ?? .string("?"))")
        #expect(session.waitFor(20) { counts(session) == (2, 0) }, "\(counts(session)): \(session.log(of: pid))")
    }

    /// Measurements that cannot be stored (another program holds the index's write lock) do not send the measuring
    /// round in a loop over the same tracks: it stops, says so, and measures them at the next scan.
    @Test func aBusyIndexStopsMeasuringUntilTheNextScan() throws {
        let session = try Session()
        defer { session.close() }
        let folder = try session.makeFolder("music")
        // Long enough that measuring a step of four takes a few seconds: the lock is taken while it does.
        for index in 0..<6 { try tone(folder + "/tone\(index).flac", amplitude: 0.1 + 0.02 * Double(index), seconds: 480) }
        let database = session.home + "/.local/share/reprise/library.db"
        let pid = try session.launch(["--library", folder])
        #expect(session.waitFor(60) { (try? session.get("Measuring", interface: Self.library)) == .bool(true) })
        // Another program takes the write lock and keeps it.
        let holder = try session.start("python3", ["-c", """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            time.sleep(60)
            """, database], logName: "lock")
        #expect(session.waitFor(30) { session.output(ofLog: "lock").contains("locked") }, "\(session.output(ofLog: "lock"))")
        #expect(session.waitFor(60) { session.log(of: pid).contains("measuring waits for the next scan") }, "\(session.log(of: pid))")
        #expect(session.waitFor { (try? session.get("Measuring", interface: Self.library)) == .bool(false) })
        let listed = session.log(of: pid).components(separatedBy: "could not be stored").count
        usleep(3_000_000)
        #expect(session.log(of: pid).components(separatedBy: "could not be stored").count == listed, "no loop over the same tracks")
        kill(holder, SIGKILL)
        #expect(try runCommand(repriseBinary, ["library", "rescan"], environment: session.environment).status == 0)
        #expect(session.waitFor(60) { counts(session) == (6, 0) }, "\(counts(session)): \(session.log(of: pid))")
    }
}

import Foundation
import SDBus
import Testing
import TestSupport

/// `rangeid` heard at the speakers: a medium whose middle is another pitch, and an entry told to play only that middle.
@Suite(.serialized) struct MPDRangeTests {
    /// Reprise playing the second test track, serving MPD on its socket; then python-mpd2 runs `script` with `c`
    /// connected and `parts` a file of 440 Hz for 3 s, 880 Hz for 2 s and 440 Hz for 7 s (Ogg Vorbis). Its output.
    static func launch(_ session: Session, thenRun script: String) throws -> String {
        let parts = session.directory + "/parts.ogg"
        let made = try runCommand("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3",
                                             "-f", "lavfi", "-i", "sine=frequency=880:duration=2",
                                             "-f", "lavfi", "-i", "sine=frequency=440:duration=7",
                                             "-filter_complex", "concat=n=3:v=0:a=1", "-ar", "44100", "-c:a", "libvorbis", parts])
        guard made.status == 0 else { throw HarnessError(message: "ffmpeg: \(made.errors)") }
        try MPDTests.launchServing(session, [media.second]) { session.title() == "Second Wind" }
        return try python(session, "parts = \(pythonString(parts))\n" + script)
    }

    /// Runs `script` with python-mpd2's `c` connected to `session`'s Reprise; its output.
    static func python(_ session: Session, _ script: String) throws -> String {
        let run = try runCommand("/usr/bin/python3", ["-c", "import mpd, sys\nc = mpd.MPDClient(); c.connect(sys.argv[1])\n" + script,
                                                      MPDTests.socket(session)], environment: session.environment)
        #expect(run.status == 0, "\(run.errors)")
        return run.output
    }

    static func pythonString(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }

    /// On each sound server users run (and the tests' minimal PulseAudio).
    @Test(arguments: SoundServerKind.allCases) func aRangedEntryPlaysOnlyItsPartThenTheNextOne(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        // The file put first, told to play 3 s to 5 s; the playlist's song says so.
        let setUp = try Self.launch(session, thenRun: """
            c.stop()
            song = c.addid(parts, 0)
            c.rangeid(song, "3:5")
            info = c.playlistid(song)[0]
            print(info["range"], info["duration"])
            """)
        #expect(setUp.split(separator: " ").map(String.init) == ["3.000-5.000", "2.000\n"], "\(setUp)")

        let recording = try session.startRecordingSpeakers()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try MPDTests.mpc(session, "play", "1").status == 0) // mpc counts positions from 1
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["mpris:length"]?.int64Value == 2_000_000 },
                "MPRIS's length is the part's")
        let status = try MPDTests.mpc(session, "status", "%totaltime% %currenttime%").trimmed
        #expect(status.hasPrefix("0:02 0:0"), "mpc: \(status)")
        #expect((session.position() ?? .max) < 2_000_000, "Position counts from the part's start")
        #expect(session.waitFor(10) { session.title() == "Second Wind" }, "the entry ended at the part's end")
        Thread.sleep(forTimeInterval: 0.5)
        let samples = recording.finish()

        let tones = CrossfadeTests()
        let low = tones.amplitudes(of: 440, in: samples), high = tones.amplitudes(of: 880, in: samples)
        let loudest = high.max() ?? 0
        #expect(loudest > 1000, "the part (880 Hz) was heard")
        #expect((low.max() ?? 0) < loudest / 10, "nothing outside the part (440 Hz) was heard: \(low.map { Int($0) })")
        let heard = Double(high.filter { $0 > loudest / 2 }.count) / 10
        #expect(heard >= 1.5 && heard <= 2.5, "the part sounded \(heard) s of its 2 s")
        #expect(tones.amplitudes(of: 554, in: samples).contains { $0 > 1000 }, "the next song followed")
    }

    @Test func aSeekInARangedEntryCountsFromItsStartAndARestartKeepsTheRange() throws {
        let session = try Session()
        defer { session.close() }
        _ = try Self.launch(session, thenRun: """
            c.stop()
            song = c.addid(parts, 0)
            c.rangeid(song, "2.5:")
            c.playid(song)
            c.pause(1)
            """)
        #expect(session.waitFor { (try? session.get("CanSeek")) == .bool(true) })
        _ = try Self.python(session, "c.seekcur('0.5')")
        // 0.5 s into the part is 3 s into the file: 880 Hz from here, for 2 s.
        #expect(session.waitFor { abs((session.position() ?? 0) - 500_000) < 50_000 }, "\(String(describing: session.position()))")
        #expect(session.metadata()["mpris:length"]?.int64Value == 9_500_000)
        let recording = try session.startRecordingSpeakers()
        Thread.sleep(forTimeInterval: 0.3)
        try session.call("Play")
        // Recorded until 1.5 s into the part (4 s into the file: 880 Hz still, 440 Hz again from 2.5 s).
        #expect(session.waitFor { (session.position() ?? 0) >= 1_500_000 })
        let samples = recording.finish()
        let tones = CrossfadeTests()
        #expect((tones.amplitudes(of: 880, in: samples).max() ?? 0) > 1000, "the seek went to 3 s of the file")
        #expect((tones.amplitudes(of: 440, in: samples).max() ?? 0) < 500)

        // The range is saved with the queue: a restarted Reprise has the same part, where it was.
        try session.call("Pause")
        let first = try #require(session.ownerProcess(of: Session.name))
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(first) == 0)
        try session.launch([]) { session.metadata()["mpris:length"]?.int64Value == 9_500_000 }
        let position = session.position() ?? 0
        #expect(position > 1_000_000 && position < 4_000_000, "restored at \(position) µs of the part")
        let song = try MPDTests.mpc(session, "playlist", "-f", "%file% %time%").output
        #expect(song.contains("parts.ogg 0:10"), "\(song)")
    }

    @Test func aRateChangedWhileTheRangePlaysKeepsItsEnd() throws {
        let session = try Session()
        defer { session.close() }
        _ = try Self.launch(session, thenRun: "c.stop()\nc.rangeid(c.addid(parts, 0), '3:5')")
        let recording = try session.startRecordingSpeakers()
        Thread.sleep(forTimeInterval: 0.3)
        try MPDTests.mpc(session, "play", "1")
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) > 300_000 })
        try session.set("Rate", .double(1.25))
        #expect(session.waitFor(10) { session.title() == "Second Wind" }, "the entry ended at the part's end")
        Thread.sleep(forTimeInterval: 0.5)
        let samples = recording.finish()
        let tones = CrossfadeTests()
        let loudest = tones.amplitudes(of: 880, in: samples).max() ?? 0
        #expect(loudest > 1000, "the part (880 Hz) was heard")
        #expect((tones.amplitudes(of: 440, in: samples).max() ?? 0) < loudest / 10, "the rate's seek kept the part's end")
    }
}

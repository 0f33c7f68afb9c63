import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// The equalizer measured at the speakers (the null sink's monitor): tones at band centres change by each preset's
/// gain there (with the pre-amplification), switching while playing leaves no gap, and the crossfade's second
/// pipeline is equalized too.
@Suite(.serialized) struct EqualizerTests {
    static let sound = "app.reprise.Sound1"
    static let bands: [(name: String, frequency: Int, index: Int)] = [("62", 62, 1), ("1k", 1000, 5), ("8k", 8000, 8)]

    func tones(in directory: String, seconds: Int = 60) throws -> [String] {
        try Self.bands.map { band in
            let path = directory + "/tone-\(band.name).ogg"
            try generateTone(at: path, seconds: seconds, frequency: band.frequency, tags: nil,
                             encoder: ["vorbisenc", "!", "oggmux"])
            return path
        }
    }

    /// The peak level of what plays now, once the sound is steady.
    func level(_ session: Session) throws -> Double {
        #expect(session.waitFor { (try? session.peakLevel(seconds: 0.3)) ?? 0 > 50 })
        usleep(300_000) // the sink's latency: what was heard before the change has gone
        return Double(max(1, try session.peakLevel(seconds: 0.8)))
    }

    func eq(_ arguments: [String], _ session: Session) throws {
        let result = try runCommand(repriseBinary, ["eq"] + arguments, environment: session.environment)
        #expect(result.status == 0, "\(arguments): \(result.errors)")
    }

    func goTo(_ index: Int, _ session: Session) throws {
        let ids = session.trackIDs()
        try #require(ids.count > index)
        try session.call("GoTo", [ids[index]], interface: "org.mpris.MediaPlayer2.TrackList")
        let file = "/tone-\(Self.bands[index].name).ogg"
        #expect(session.waitFor { session.metadata()["xesam:url"]?.stringValue?.hasSuffix(file) == true && session.status() == "Playing" },
                "\(session.metadata())")
    }

    @Test(arguments: SoundServerKind.allCases)
    func eachPresetChangesATonesLevelByItsBandsGain(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        try session.launch(try tones(in: session.directory))
        #expect(session.waitFor { session.status() == "Playing" })
        var off: [Double] = []
        for index in Self.bands.indices {
            try goTo(index, session)
            off.append(try level(session))
        }
        for preset in ["bass", "treble", "vocal", "loudness"] {
            try eq([preset], session)
            #expect(try session.get("Equalizer", interface: Self.sound) == .string(preset))
            guard case .array(_, let items) = try session.get("EqualizerGains", interface: Self.sound) else {
                Issue.record("EqualizerGains is no array")
                return
            }
            let gains = items.compactMap(\.doubleValue)
            try #require(gains.count == 10)
            let preamp = -max(0, gains.max() ?? 0)
            for (index, band) in Self.bands.enumerated() {
                try goTo(index, session)
                let change = 20 * log10(try level(session) / off[index])
                #expect(abs(change - (gains[band.index] + preamp)) <= 1,
                        "\(server) \(preset) at \(band.name): \(change) dB, expected \(gains[band.index] + preamp)")
            }
        }
        // A band cut alone (no pre-amplification), set while playing.
        try eq(["flat"], session)
        try eq(["1k=-9"], session)
        let untouched = 20 * log10(try level(session) / off[2]) // the 8 kHz tone still plays
        #expect(abs(untouched) <= 1, "\(server) 1k=-9 at 8k: \(untouched) dB")
        try goTo(1, session)
        let oneK = 20 * log10(try level(session) / off[1])
        #expect(abs(oneK + 9) <= 1, "\(server) 1k=-9: \(oneK) dB")
        try eq(["off"], session)
        #expect(abs(20 * log10(try level(session) / off[1])) <= 1, "off again: as before")
    }

    @Test func switchingWhilePlayingLeavesNoGapAndTheCrossfadesSecondPipelineFollows() throws {
        let session = try Session()
        defer { session.close() }
        let files = try tones(in: session.directory, seconds: 8)
        try session.launch(["--crossfade", "3", files[1], files[1]]) { session.status() == "Playing" }
        _ = try level(session)
        // Presets switched every 150 ms while recording: never a stretch of silence (20 ms or more).
        let recording = try session.startRecordingSpeakers()
        usleep(300_000)
        for preset in ["bass", "treble", "vocal", "off", "loudness", "1k=-6", "off", "bass", "off", "treble", "off"] {
            try eq([preset], session)
            usleep(150_000)
        }
        usleep(300_000)
        let samples = recording.finish()
        let frames = samples.map { abs(Int($0)) } // the left channel, its buffered start already left out
        let body = frames.dropLast(2205) // the recorder's stop
        var longestQuiet = 0, run = 0
        for frame in body {
            run = frame < 30 ? run + 1 : 0
            longestQuiet = max(longestQuiet, run)
        }
        #expect(body.count > 44100 && longestQuiet < 882, "a gap of \(longestQuiet) frames while switching")
        // The second track fades in on the crossfade's other pipeline: the cut is heard there too.
        try eq(["flat"], session)
        try eq(["1k=-9"], session)
        #expect(session.waitFor(15) { session.trackIDs().count == 2 && session.metadata()["mpris:trackid"] == session.trackIDs()[1] })
        usleep(3_500_000) // past the overlap: only the second pipeline sounds
        // Both levels from the second pipeline alone (measured before the switch, a busy machine's timing could catch
        // the first track fading out: 10.3 dB instead of 9).
        let before = try level(session)
        try eq(["off"], session)
        let after = try level(session)
        #expect(abs(20 * log10(after / before) - 9) <= 1, "the second pipeline: \(before) with the cut, \(after) without")
    }

    @Test func eInTheTerminalViewStepsThroughThePresets() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([try tones(in: session.directory, seconds: 20)[1]])
        let tmux = try session.terminal([repriseBinary, "ui"])
        #expect(session.waitFor { tmux.text().contains("❚❚ Pause") && tmux.text().contains("e EQ") }, "\(tmux.text())")
        #expect(!tmux.text().contains("EQ bass"))
        tmux.send("e")
        #expect(session.waitFor { tmux.text().contains("EQ bass") }, "\(tmux.text())")
        #expect(try session.get("Equalizer", interface: Self.sound) == .string("bass"))
        tmux.send("e")
        #expect(session.waitFor { tmux.text().contains("EQ treble") }, "\(tmux.text())")
    }
}

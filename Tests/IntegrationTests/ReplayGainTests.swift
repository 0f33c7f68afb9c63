import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// ReplayGain measured at the speakers: the same tone in two files tagged with gains 6 dB apart (one album).
@Suite(.serialized) struct ReplayGainTests {
    static let sound = "app.reprise.Sound1"

    /// Two 30 s files of the same tone: track gains -3 and -9 dB, both with album gain -6 dB, one album.
    func tonesTagged(in directory: String) throws -> (loud: String, quiet: String) {
        let loud = directory + "/loud.ogg", quiet = directory + "/quiet.ogg"
        for (path, title, trackGain, number) in [(loud, "Loud", -3.0, 1), (quiet, "Quiet", -9.0, 2)] {
            let tags = "title=(string)\"\(title)\",album=(string)\"Levels\",artist=(string)\"Tone\",track-number=(uint)\(number),"
                + "replaygain-track-gain=(double)\(trackGain),replaygain-track-peak=(double)0.2,"
                + "replaygain-album-gain=(double)-6.0,replaygain-album-peak=(double)0.2"
            try generateTone(at: path, seconds: 30, frequency: 440, tags: tags, encoder: ["vorbisenc", "!", "oggmux"])
        }
        return (loud, quiet)
    }

    /// The peak level while `title` plays (well into it, so the previous stream's sound has gone).
    func level(of title: String, _ session: Session) throws -> Double {
        #expect(session.waitFor { session.title() == title && session.status() == "Playing" })
        let start = session.position() ?? 0
        #expect(session.waitFor { (session.position() ?? 0) > start + 700_000 })
        // Turning levelling on or off loads the stream again where it was: wait for its sound to be back.
        #expect(session.waitFor { (try? session.peakLevel(seconds: 0.3)) ?? 0 > 100 })
        let peak = try session.peakLevel(seconds: 0.8)
        #expect(peak > 100, "\(title) is audible")
        return Double(max(peak, 1))
    }

    func decibels(_ a: Double, over b: Double) -> Double { 20 * log10(a / b) }

    func goTo(_ index: Int, _ session: Session) throws {
        let ids = session.trackIDs()
        try #require(ids.count > index)
        try session.call("GoTo", [ids[index]], interface: "org.mpris.MediaPlayer2.TrackList")
    }

    func soundProperty(_ name: String, _ session: Session) -> DBusValue? { try? session.get(name, interface: Self.sound) }

    @Test(arguments: SoundServerKind.allCases)
    func trackGainsSixDecibelsApartPlaySixDecibelsApartAndOffPlaysThemAlike(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let (loud, quiet) = try tonesTagged(in: session.directory)
        try session.launch(["--replaygain", "track", loud, quiet])
        #expect(soundProperty("ReplayGain", session)?.stringValue == "track")
        let loudTrack = try level(of: "Loud", session)
        #expect(session.waitFor { session.metadata()["reprise:replayGain"] == .double(-3) })
        #expect(session.metadata()["reprise:replayGainKind"]?.stringValue == "track")
        #expect(soundProperty("AppliedGain", session) == .double(-3))
        try goTo(1, session)
        let quietTrack = try level(of: "Quiet", session)
        #expect(session.waitFor { session.metadata()["reprise:replayGain"] == .double(-9) })
        #expect(abs(decibels(loudTrack, over: quietTrack) - 6) <= 0.5, "track mode on \(server): \(loudTrack) vs \(quietTrack)")

        // Off: the stream loads again where it is, without the leveller; both play as recorded.
        try session.set("ReplayGain", .string("off"), interface: Self.sound)
        #expect(session.waitFor { soundProperty("AppliedGainKind", session)?.stringValue == "none" })
        #expect(session.metadata()["reprise:replayGain"] == nil)
        let quietOff = try level(of: "Quiet", session)
        try goTo(0, session)
        let loudOff = try level(of: "Loud", session)
        #expect(abs(decibels(loudOff, over: quietOff)) <= 0.5, "off on \(server): \(loudOff) vs \(quietOff)")
        #expect(abs(decibels(loudOff, over: loudTrack) - 3) <= 0.5, "the loud file's -3 dB: \(loudOff) vs \(loudTrack)")

        // Album: both at the album's -6 dB.
        try session.set("ReplayGain", .string("album"), interface: Self.sound)
        #expect(session.waitFor { session.metadata()["reprise:replayGain"] == .double(-6) })
        let loudAlbum = try level(of: "Loud", session)
        try goTo(1, session)
        let quietAlbum = try level(of: "Quiet", session)
        #expect(abs(decibels(loudAlbum, over: quietAlbum)) <= 0.5, "album on \(server): \(loudAlbum) vs \(quietAlbum)")
        #expect(abs(decibels(loudOff, over: loudAlbum) - 6) <= 0.5, "album gain -6 dB: \(loudOff) vs \(loudAlbum)")
    }

    @Test func autoUsesAlbumGainForAnAlbumInOrderAndTrackGainUnderShuffle() throws {
        let session = try Session()
        defer { session.close() }
        let (loud, quiet) = try tonesTagged(in: session.directory)
        try session.launch([loud, quiet])
        #expect(soundProperty("ReplayGain", session)?.stringValue == "auto", "auto is the default")
        #expect(session.waitFor { session.title() == "Loud" && session.metadata()["reprise:replayGain"] == .double(-6) })
        #expect(session.metadata()["reprise:replayGainKind"]?.stringValue == "album")
        try session.set("Shuffle", .bool(true))
        #expect(session.waitFor { session.metadata()["reprise:replayGain"] == .double(-3) })
        #expect(session.metadata()["reprise:replayGainKind"]?.stringValue == "track")
    }

    @Test func preampFallbackAndTheirLimitsFromDBusTheCLIAndTheConfig() throws {
        let session = try Session()
        defer { session.close() }
        let (loud, _) = try tonesTagged(in: session.directory)
        let untagged = session.directory + "/untagged.ogg"
        try generateTone(at: untagged, seconds: 30, frequency: 440, tags: "title=(string)\"Plain\"", encoder: ["vorbisenc", "!", "oggmux"])
        let config = try session.makeHomeFolder(".config/reprise")
        try "replaygain = track\nreplaygain-preamp = 2\nreplaygain-fallback = -4\n".write(toFile: config + "/config", atomically: false, encoding: .utf8)
        try session.launch([loud, untagged])
        #expect(session.waitFor { session.title() == "Loud" && session.metadata()["reprise:replayGain"] == .double(-1) },
                "-3 dB + 2 dB pre-amplification")
        try goTo(1, session)
        #expect(session.waitFor { session.title() == "Plain" && session.metadata()["reprise:replayGain"] == .double(-4) },
                "untagged: the fallback gain, \(String(describing: session.metadata()["reprise:replayGain"]))")
        // Out of range and unknown values are refused and change nothing.
        #expect(session.dbusError { try session.set("ReplayGainPreamp", .double(40), interface: Self.sound) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(session.dbusError { try session.set("ReplayGain", .string("loudest"), interface: Self.sound) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(session.dbusError { try session.set("AppliedGain", .double(1), interface: Self.sound) } != nil)
        #expect(soundProperty("ReplayGainPreamp", session) == .double(2))
        // The CLI verb sets and shows; status carries it.
        let set = try runCommand(repriseBinary, ["replaygain", "track", "--fallback=-2"], environment: session.environment)
        #expect(set.status == 0 && set.output.contains("track") && set.output.contains("fallback -2.0 dB"), "\(set.output)\(set.errors)")
        #expect(session.waitFor { session.metadata()["reprise:replayGain"] == .double(-2) })
        let refused = try runCommand(repriseBinary, ["replaygain", "--preamp", "99"], environment: session.environment)
        #expect(refused.status != 0)
        // A negative number is a value, not an option.
        let negative = try runCommand(repriseBinary, ["replaygain", "track", "--preamp", "-3", "--fallback", "-2"], environment: session.environment)
        #expect(negative.status == 0 && negative.output.contains("preamp -3.0 dB"), "\(negative.output)\(negative.errors)")
        #expect(soundProperty("ReplayGainPreamp", session) == .double(-3))
        let seek = try runCommand(repriseBinary, ["seek", "-1"], environment: session.environment)
        #expect(seek.status == 0, "\(seek.errors)")
        let status = try runCommand(repriseBinary, ["status", "--json"], environment: session.environment)
        let object = (try? JSONSerialization.jsonObject(with: Data(status.output.utf8))) as? [String: Any]
        let replayGain = object?["replayGain"] as? [String: Any]
        #expect(replayGain?["mode"] as? String == "track" && replayGain?["appliedGain"] as? Double == -2, "\(status.output)")
        let text = try runCommand(repriseBinary, ["status"], environment: session.environment)
        #expect(text.output.contains("gain -2.0 dB (track)"), "\(text.output)")
    }

    @Test func opusR128GainsCountAsReplayGain() throws {
        let session = try Session()
        defer { session.close() }
        let path = session.directory + "/r128.opus"
        // R128_TRACK_GAIN -1536 is -6 dB towards -23 LUFS: -1 dB in ReplayGain's terms (-18 LUFS).
        try generateTone(at: path, seconds: 30, frequency: 440, tags: "title=(string)\"Opus\",extended-comment=(string)\"R128_TRACK_GAIN=-1536\"",
                         encoder: ["opusenc", "!", "oggmux"])
        try session.launch(["--replaygain", "track", path])
        #expect(session.waitFor { session.title() == "Opus" && session.metadata()["reprise:replayGain"] == .double(-1) },
                "\(String(describing: session.metadata()["reprise:replayGain"]))")
    }
}

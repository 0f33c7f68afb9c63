import Foundation
import Glibc
import Testing
import TestSupport

/// `getfingerprint` through the real service, asked by python-mpd2, against Debian's mpd asked the same on the same
/// files: a file longer than the two minutes fingerprinted, a short one at another rate, an MP3 (whose decoder gives
/// planar samples). Generated noise: a steady tone's fingerprint is nearly all zeros and would prove little. A FIFO in
/// the music folder is refused at once, not waited on; a missing file is answered as mpd answers it.
@Suite(.serialized) struct MPDFingerprintTests {
    /// Pink noise, `seconds` long, through `encoder`, at `path`.
    static func makeNoise(_ path: String, seconds: Int, rate: Int, channels: Int, encoder: [String]) throws {
        let made = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "wave=pink-noise", "num-buffers=\(seconds * 10)",
                                                     "samplesperbuffer=\(rate / 10)", "!",
                                                     "audio/x-raw,rate=\(rate),channels=\(channels)", "!", "audioconvert", "!"]
                                  + encoder + ["!", "filesink", "location=\(path)"])
        #expect(made.status == 0, "\(made.errors)")
    }

    /// Asks the server at argv[1] for each name's fingerprint; prints `name answer` lines. With `--again`, a question
    /// left unanswered for five seconds is asked again on a new connection (Debian's mpd often never answers one:
    /// https://github.com/MusicPlayerDaemon/MPD/issues/2286); without, the first answer counts, however long it takes.
    static let client = """
        import socket, sys
        from mpd import CommandError, MPDClient
        MPDClient.add_command("getfingerprint", MPDClient._parse_object)
        again = sys.argv[2] == "--again"
        for name in sys.argv[3:]:
            for attempt in range(40 if again else 1):
                client = MPDClient()
                client.timeout = 5 if again else 120
                client.connect(sys.argv[1])
                try:
                    print(name, client.getfingerprint(name)["chromaprint"])
                except CommandError as error:
                    print(name, "error:", str(error).replace(" {} ", " {getfingerprint} "))
                except (socket.timeout, TimeoutError):
                    client._sock.close()
                    continue
                client.close()
                break
            else:
                print(name, "never answered")
        """

    static func ask(_ server: String, again: Bool, _ names: [String], _ session: Session) throws -> [String: String] {
        let script = session.directory + "/client.py"
        try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        let asked = try runCommand("/usr/bin/python3", [script, server, again ? "--again" : "--once"] + names,
                                   environment: session.environment)
        #expect(asked.status == 0, "\(asked.output)\(asked.errors)")
        return Dictionary(asked.output.split(separator: "\n").map { line -> (String, String) in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theFingerprintIsMPDs() throws {
        let session = try Session()
        defer { session.close() }
        let library = session.directory + "/Music"
        let noise = try session.makeFolder("Music/Noise")
        try Self.makeNoise(noise + "/long.flac", seconds: 150, rate: 44100, channels: 2, encoder: ["flacenc"])
        try Self.makeNoise(noise + "/short.wav", seconds: 20, rate: 48000, channels: 1, encoder: ["wavenc"])
        try Self.makeNoise(noise + "/planar.mp3", seconds: 40, rate: 44100, channels: 2, encoder: ["lamemp3enc"])
        #expect(mkfifo(noise + "/pipe.flac", 0o644) == 0)
        try MPDTests.configure(session, library: library)
        try session.launch([])
        #expect(session.waitFor { FileManager.default.fileExists(atPath: MPDTests.socket(session)) })
        let mpdDirectory = try session.makeFolder("mpd")
        try session.makeFolder("mpd/playlists")
        let config = try runCommand(MPDTranscriptTests.tools + "/mpd-config.sh", [library, mpdDirectory])
        try config.output.write(toFile: mpdDirectory + "/mpd.conf", atomically: true, encoding: .utf8)
        try session.start("/usr/bin/mpd", ["--no-daemon", mpdDirectory + "/mpd.conf"], logName: "mpd")
        #expect(session.waitFor(30) { FileManager.default.fileExists(atPath: mpdDirectory + "/socket") }, "\(session.output(ofLog: "mpd"))")

        let songs = ["Noise/long.flac", "Noise/short.wav", "Noise/planar.mp3"]
        let ours = try Self.ask(MPDTests.socket(session), again: false, songs + ["Noise/pipe.flac", "Noise/missing.flac"], session)
        let theirs = try Self.ask(mpdDirectory + "/socket", again: true, songs + ["Noise/missing.flac"], session)
        for song in songs {
            let fingerprint = ours[song] ?? ""
            #expect(fingerprint.hasPrefix("AQA") && fingerprint.count > 200, "\(song): \(fingerprint)")
            #expect(theirs[song] != "never answered", "mpd never answered for \(song) (MPD issue 2286, forty times)")
            #expect(theirs[song] == "never answered" || fingerprint == theirs[song], "\(song): Reprise \(fingerprint)\nmpd \(theirs[song] ?? "")")
        }
        #expect(ours["Noise/pipe.flac"] == "error: [5@0] {getfingerprint} Decoding failed")
        #expect(ours["Noise/missing.flac"] == theirs["Noise/missing.flac"])
        #expect(ours["Noise/missing.flac"]
                == "error: [52@0] {getfingerprint} Failed to open '\(noise)/missing.flac': No such file or directory")
    }
}

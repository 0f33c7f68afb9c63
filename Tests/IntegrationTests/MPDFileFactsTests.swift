import Foundation
import Glibc
import Testing
import TestSupport

/// What a song's file says of itself, as Debian's `mpd` reports it: `Last-Modified` (the file's time) and `Format`
/// (the sample format its decoder gives: `RATE:BITS:CHANNELS`), in the library's listings, the queue's and
/// `currentsong`, and `audio` in `status` while it plays — for each kind of file people's libraries hold, both
/// servers on the same generated folder.
@Suite(.serialized) struct MPDFileFactsTests {
    /// Each file: its name, the raw audio it is made of, and the encoder (a pipeline's tail).
    static let files: [(name: String, audio: String, encoder: [String])] = [
        ("16-bit.flac", "rate=44100,channels=2,format=S16LE", ["flacenc"]),
        ("24-bit 96 kHz.flac", "rate=96000,channels=2,format=S24LE", ["flacenc"]),
        ("FLAC in Ogg.oga", "rate=44100,channels=1,format=S16LE", ["flacenc", "!", "oggmux"]),
        ("Mono.mp3", "rate=22050,channels=1,format=S16LE", ["lamemp3enc"]),
        ("Stereo.opus", "rate=48000,channels=2,format=S16LE", ["opusenc", "!", "oggmux"]),
        ("Opus in Ogg.ogg", "rate=48000,channels=1,format=S16LE", ["opusenc", "!", "oggmux"]),
        ("Vorbis.ogg", "rate=32000,channels=2,format=F32LE", ["vorbisenc", "!", "oggmux"]),
        ("8-bit.wav", "rate=11025,channels=1,format=U8", ["wavenc"]),
        ("16-bit.wav", "rate=44100,channels=2,format=S16LE", ["wavenc"]),
        ("24-bit.wav", "rate=48000,channels=2,format=S24LE", ["wavenc"]),
        ("Float.wav", "rate=44100,channels=2,format=F32LE", ["wavenc"]),
        ("16-bit.aiff", "rate=44100,channels=2,format=S16BE", ["aiffmux"]),
        ("AAC.m4a", "rate=44100,channels=2,format=S16LE", ["audioconvert", "!", "avenc_aac", "!", "mp4mux"]),
        ("WavPack.wv", "rate=44100,channels=2,format=S16LE", ["audioconvert", "!", "wavpackenc"]),
    ]

    /// (Every name begins with a digit or a capital: MPD sorts a folder's songs by ICU's collation, Reprise by
    /// their bytes, which agree on such names.)
    /// The keys compared: a song's name and what its file says of itself.
    static let compared: Set<String> = ["file", "directory", "Last-Modified", "Format", "audio", "state"]

    @Test func lastModifiedAndFormatAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        try FileManager.default.createDirectory(atPath: music + "/Formats", withIntermediateDirectories: true)
        for (index, file) in Self.files.enumerated() {
            let made = try runCommand("gst-launch-1.0", [
                "-q", "audiotestsrc", "num-buffers=200", "volume=0.2", "!", "audio/x-raw," + file.audio, "!", "taginject",
                "tags=\"title=(string)\\\"Format \(index)\\\",artist=(string)Formats\"", "!"] + file.encoder
                + ["!", "filesink", "location=\(music)/Formats/\(file.name)"])
            #expect(made.status == 0, "\(file.name): \(made.errors)")
        }
        try MPDTests.configure(session, library: music)
        let pid = try session.launch([])
        let count = Self.files.count
        #expect(session.waitFor(60) { MPDDifferentialTests.songs(try? MPDTests.mpc(session, "stats").output) == count })
        let mpdSocket = try MPDTranscriptTests.startReferenceMPD(session, music: music, songCount: count)

        let script = session.directory + "/ask.py"
        try MPDDifferentialTests.asker.write(toFile: script, atomically: true, encoding: .utf8)
        // The listings, the queue (entries from the library by name, and by path, read from the file), the song
        // playing and the status while it plays.
        let commands = ["lsinfo", "lsinfo Formats", "listallinfo", "find artist Formats", "add Formats", "playlistinfo",
                        "add \"\(music)/Formats/16-bit.flac\"", "playlistinfo \(count)"]
            + Self.files.indices.flatMap { ["play \($0)", "currentsong", "status"] }
        let replies = try [MPDTests.socket(session), mpdSocket].map { socket in
            var replies: [String] = []
            for command in commands {
                // `audio` comes once the decoder has begun: asked again until both servers show it.
                var reply = ""
                for _ in 0..<50 {
                    let asked = try runCommand("/usr/bin/python3", [script, socket, command], environment: session.environment)
                    #expect(asked.status == 0, "\(asked.errors)")
                    reply = asked.output
                    if command != "status" || reply.contains("\naudio: ") { break }
                    usleep(100_000)
                }
                replies.append(reply)
            }
            return replies
        }
        // What is compared is there: every file's format, from MPD itself.
        #expect(replies[1][0].contains("directory: Formats\nLast-Modified: "), "\(replies[1][0])")
        #expect(replies[1][1].components(separatedBy: "\nFormat: ").count == count + 1, "\(replies[1][1])")
        for (index, command) in commands.enumerated() {
            let ours = Self.facts(replies[0][index]), theirs = Self.facts(replies[1][index])
            #expect(ours == theirs, "\(index): \(command)\n--- Reprise\n\(ours)\n--- mpd\n\(theirs)\n--- Reprise's log\n\(Self.playing(session.log(of: pid)))")
        }
    }

    /// The lines of a log that tell what played, failed or was skipped.
    static func playing(_ log: String) -> String {
        log.split(separator: "\n").filter { line in ["playing", "fail", "error", "skip"].contains { line.contains($0) } }
            .suffix(80).joined(separator: "\n")
    }

    /// A reply's lines of the compared keys, and its last line.
    static func facts(_ reply: String) -> String {
        reply.split(separator: "\n").filter { line in
            line == "OK" || line.hasPrefix("ACK ") || compared.contains(String(line.prefix { $0 != ":" }))
        }.joined(separator: "\n")
    }
}

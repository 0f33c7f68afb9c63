import Foundation
import TestSupport

/// Media generated with GStreamer once per test run: tagged tones in several formats, and broken files.
struct TestMedia: Sendable {
    let directory: String
    /// Ogg Vorbis, 20 s, fully tagged ("First Light" by "Test Artist", track 1, disc 1).
    let first: String
    /// FLAC, 20 s, tagged ("Second Wind" by "Other Artist", track 2).
    let second: String
    /// Opus in Ogg, 20 s, tagged ("Third Time").
    let third: String
    /// Ogg Vorbis, 1 s, tagged ("Short One").
    let short: String
    /// WAV, 20 s, no tags.
    let untagged: String
    /// Random bytes named .ogg.
    let corrupt: String
    /// A text file named .mp3.
    let notMedia: String
    /// FLAC, 20 s, tagged ("Covered"), with ``coverImage`` embedded as its front-cover picture.
    let covered: String
    /// A 64×64 JPEG made by GStreamer.
    let coverImage: Data
    /// Ogg Vorbis, 11 minutes of quiet 8 kHz mono ("Long Talk"): long enough to have its position remembered.
    let long: String

    static let shared: TestMedia = {
        do { return try generate() } catch { fatalError("could not generate test media: \(error)") }
    }()

    private static func generate() throws -> TestMedia {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-media-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func tone(_ name: String, seconds: Int, frequency: Int, tags: String?, encoder: [String]) throws -> String {
            let path = dir + "/" + name
            try generateTone(at: path, seconds: seconds, frequency: frequency, tags: tags, encoder: encoder)
            return path
        }
        func tags(_ title: String, _ artist: String, track: Int) -> String {
            "title=\\\"\(title)\\\",artist=\\\"\(artist)\\\",album=\\\"Test Album\\\",album-artist=\\\"Test Band\\\","
                + "track-number=(uint)\(track),album-disc-number=(uint)1,genre=\\\"Test\\\""
        }
        let corrupt = dir + "/corrupt.ogg"
        var noise = SystemRandomNumberGenerator()
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &noise) }).write(to: URL(fileURLWithPath: corrupt))
        let notMedia = dir + "/notes.mp3"
        try Data("these are not the droids you are looking for\n".utf8).write(to: URL(fileURLWithPath: notMedia))
        let coverPath = dir + "/picture.jpg"
        let made = try runCommand("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=ball", "!",
                                                     "video/x-raw,width=64,height=64", "!", "jpegenc", "!",
                                                     "filesink", "location=\(coverPath)"])
        guard made.status == 0 else { throw HarnessError(message: "jpegenc: \(made.errors)") }
        let coverImage = try Data(contentsOf: URL(fileURLWithPath: coverPath))
        let covered = try tone("covered.flac", seconds: 20, frequency: 392, tags: tags("Covered", "Test Artist", track: 5),
                               encoder: ["flacenc"])
        try embedPicture(coverImage, mediaType: "image/jpeg", inFLAC: covered)
        let long = dir + "/long.ogg"
        let talk = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=\(660 * 8000 / 1024)", "volume=0.01", "!",
                                                     "audio/x-raw,rate=8000,channels=1", "!", "taginject",
                                                     "tags=\"title=(string)\\\"Long Talk\\\"\"", "!", "audioconvert", "!",
                                                     "vorbisenc", "!", "oggmux", "!", "filesink", "location=\(long)"])
        guard talk.status == 0 else { throw HarnessError(message: "long.ogg: \(talk.errors)") }
        return TestMedia(
            directory: dir,
            first: try tone("first.ogg", seconds: 20, frequency: 440, tags: tags("First Light", "Test Artist", track: 1),
                            encoder: ["vorbisenc", "!", "oggmux"]),
            second: try tone("second.flac", seconds: 20, frequency: 554, tags: tags("Second Wind", "Other Artist", track: 2),
                             encoder: ["flacenc"]),
            third: try tone("third.opus", seconds: 20, frequency: 659, tags: tags("Third Time", "Test Artist", track: 3),
                            encoder: ["opusenc", "!", "oggmux"]),
            short: try tone("short.ogg", seconds: 1, frequency: 880, tags: tags("Short One", "Test Artist", track: 4),
                            encoder: ["vorbisenc", "!", "oggmux"]),
            untagged: try tone("untagged tone.wav", seconds: 20, frequency: 330, tags: nil, encoder: ["wavenc"]),
            corrupt: corrupt,
            notMedia: notMedia,
            covered: covered,
            coverImage: coverImage,
            long: long)
    }

    /// Adds a FLAC PICTURE metadata block (front cover) right after STREAMINFO, as taggers do.
    static func embedPicture(_ image: Data, mediaType: String, inFLAC path: String) throws {
        var file = try Data(contentsOf: URL(fileURLWithPath: path))
        guard file.starts(with: Array("fLaC".utf8)), file.count > 42 else { throw HarnessError(message: "\(path) is not FLAC") }
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }
        var block: [UInt8] = be32(3) + be32(mediaType.utf8.count) + Array(mediaType.utf8) + be32(0)
        block += be32(64) + be32(64) + be32(24) + be32(0) + be32(image.count) + Array(image)
        let streamInfoWasLast = file[4] & 0x80 != 0
        file[4] &= 0x7f
        let header: [UInt8] = [(streamInfoWasLast ? 0x80 : 0) | 6] + be32(block.count).dropFirst()
        file.insert(contentsOf: header + block, at: 42)
        try file.write(to: URL(fileURLWithPath: path))
    }

    static func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }
}



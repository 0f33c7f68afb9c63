import Foundation
import TestSupport

/// The media the integration tests play.
let media = TestMedia.shared

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
        // The same bytes every run (a seeded generator), so no run can draw noise that happens to look like media.
        var noise = SplitMix(seed: 0x5EED)
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
    static func embedPicture(_ image: Data, mediaType: String, inFLAC path: String, width: Int = 64, height: Int = 64) throws {
        var block: [UInt8] = be32(3) + be32(mediaType.utf8.count) + Array(mediaType.utf8) + be32(0)
        block += be32(width) + be32(height) + be32(24) + be32(0) + be32(image.count) + Array(image)
        try rewriteFLACMetadata(path, inserting: [(6, block)])
    }

    /// Replaces a FLAC file's VORBIS_COMMENT block with `comments` ("KEY=value" as raw bytes, so they may be
    /// invalid UTF-8).
    static func setVorbisComments(_ comments: [[UInt8]], inFLAC path: String) throws {
        func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> $0) & 0xff) } }
        let vendor = Array("reprise tests".utf8)
        var block = le32(vendor.count) + vendor + le32(comments.count)
        for comment in comments { block += le32(comment.count) + comment }
        try rewriteFLACMetadata(path, inserting: [(4, block)], dropping: [4])
    }

    /// Rewrites a FLAC file's metadata blocks: drops those of the `dropping` types and inserts `blocks`
    /// (type, body) right after STREAMINFO. Each body must be under 16 MiB (the format's 24-bit length).
    static func rewriteFLACMetadata(_ path: String, inserting blocks: [(type: UInt8, body: [UInt8])],
                                    dropping: Set<UInt8> = []) throws {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard file.starts(with: Array("fLaC".utf8)) else { throw HarnessError(message: "\(path) is not FLAC") }
        var existing: [(type: UInt8, body: [UInt8])] = []
        var offset = 4, last = false
        while !last {
            guard offset + 4 <= file.count else { throw HarnessError(message: "\(path): truncated metadata") }
            last = file[offset] & 0x80 != 0
            let length = Int(file[offset + 1]) << 16 | Int(file[offset + 2]) << 8 | Int(file[offset + 3])
            guard offset + 4 + length <= file.count else { throw HarnessError(message: "\(path): truncated block") }
            existing.append((file[offset] & 0x7f, Array(file[offset + 4 ..< offset + 4 + length])))
            offset += 4 + length
        }
        let kept = existing.filter { !dropping.contains($0.type) }
        let all = [kept[0]] + blocks + kept.dropFirst()
        var output = Array("fLaC".utf8)
        for (index, block) in all.enumerated() {
            precondition(block.body.count < 1 << 24, "a FLAC metadata block is at most 16 MiB")
            output.append((index == all.count - 1 ? 0x80 : 0) | block.type)
            output += be32(block.body.count).dropFirst()
            output += block.body
        }
        output += file[offset...]
        try Data(output).write(to: URL(fileURLWithPath: path))
    }

    private static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }

    static func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }
}



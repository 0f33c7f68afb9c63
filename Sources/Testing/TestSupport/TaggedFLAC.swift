import Foundation

/// Tagged FLAC files made quickly in bulk: one real FLAC stream (a tone, encoded once by GStreamer's flacenc) with a
/// Vorbis comment block written per file in its place. Every file decodes and carries its own tags; 10,000 of them
/// take a second to write, where an encoder per file would take minutes.
public struct TaggedFLACMaker {
    private let streamInfo: Data
    private let frames: Data

    /// Encodes the template: `seconds` of a quiet tone, 44.1 kHz stereo.
    public init(seconds: Int, workDirectory: String) throws {
        let template = workDirectory + "/flac-template-\(seconds).flac"
        if !FileManager.default.fileExists(atPath: template) {
            try generateTone(at: template, seconds: seconds, tags: nil, encoder: ["flacenc"])
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: template))
        guard bytes.count > 8, bytes.prefix(4) == Data("fLaC".utf8) else { throw HarnessError(message: "\(template) is not FLAC") }
        var offset = 4, info: Data?
        while offset + 4 <= bytes.count {
            let header = bytes[bytes.startIndex + offset..<bytes.startIndex + offset + 4]
            let last = header.first! & 0x80 != 0, type = header.first! & 0x7F
            let length = Int(header[header.startIndex + 1]) << 16 | Int(header[header.startIndex + 2]) << 8 | Int(header[header.startIndex + 3])
            if type == 0 { info = bytes.subdata(in: bytes.startIndex + offset + 4..<bytes.startIndex + offset + 4 + length) }
            offset += 4 + length
            if last { break }
        }
        guard let info else { throw HarnessError(message: "\(template) has no STREAMINFO") }
        streamInfo = info
        frames = bytes.subdata(in: bytes.startIndex + offset..<bytes.endIndex)
    }

    /// A FLAC file with these Vorbis comments (e.g. `["TITLE": "A", "ARTIST": "B"]`, written in key order).
    public func file(tags: [(String, String)]) -> Data {
        file(blocks: [(4, Self.comment(tags.map { Data(($0.0 + "=" + $0.1).utf8) }))])
    }

    /// A FLAC file of STREAMINFO, then `blocks` (type, body) as given, the audio, then `trailer`.
    public func file(blocks: [(type: UInt8, body: Data)], trailer: Data = Data()) -> Data {
        func block(_ type: UInt8, last: Bool, _ body: Data) -> Data {
            Data([(last ? 0x80 : 0) | type, UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)]) + body
        }
        var bytes = Data("fLaC".utf8) + block(0, last: blocks.isEmpty, streamInfo)
        for (index, (type, body)) in blocks.enumerated() { bytes += block(type, last: index == blocks.count - 1, body) }
        return bytes + frames + trailer
    }

    /// A VORBIS_COMMENT block's body with these fields (each "KEY=value" as bytes, which may be anything).
    public static func comment(_ fields: [Data], vendor: String = "reprise-test") -> Data {
        func littleEndian(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
        var comment = littleEndian(vendor.utf8.count) + Data(vendor.utf8) + littleEndian(fields.count)
        for field in fields { comment += littleEndian(field.count) + field }
        return comment
    }

    /// A PICTURE block's body: picture `type` (3: front cover), its media type and bytes.
    public static func picture(type: UInt32, mediaType: String, description: String = "", bytes: Data) -> Data {
        func bigEndian(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).bigEndian) { Data($0) } }
        return bigEndian(Int(type)) + bigEndian(mediaType.utf8.count) + Data(mediaType.utf8) + bigEndian(description.utf8.count)
            + Data(description.utf8) + bigEndian(16) + bigEndian(16) + bigEndian(24) + bigEndian(0) + bigEndian(bytes.count) + bytes
    }

    /// Writes `count` tracks under `folder`: `Artist NNN/Album NNN/NN Title.flac`, ten tracks an album, twenty albums
    /// an artist; titles of words that searches find. Returns the paths.
    @discardableResult
    public func library(count: Int, in folder: String) throws -> [String] {
        let words = ["amber", "basalt", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
                     "krypton", "lumen", "marble", "nebula", "onyx", "prism", "quartz", "russet", "sierra", "tundra"]
        var paths: [String] = []
        paths.reserveCapacity(count)
        for index in 0..<count {
            let artist = "Artist \(words[index / 200 % 20]) \(index / 200)", album = "Album \(words[index / 10 % 20]) \(index / 10)"
            let directory = folder + "/\(artist)/\(album)"
            if index % 10 == 0 { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            let title = "Song \(words[index % 20]) \(words[(index / 20) % 20]) \(index)"
            let path = directory + String(format: "/%02d %@.flac", index % 10 + 1, title)
            let tags = [("TITLE", title), ("ARTIST", artist), ("ALBUM", album), ("GENRE", words[index % 7]),
                        ("TRACKNUMBER", String(index % 10 + 1)), ("DATE", String(1970 + index % 50))]
            try file(tags: tags).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }
}

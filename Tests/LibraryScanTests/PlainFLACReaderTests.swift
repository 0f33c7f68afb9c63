import CTagLibShim
import Foundation
import Glibc
import PosixFiles
import RepriseCore
@testable import TagLibKit
import Testing
import TestSupport

/// The service's plain FLAC reader (``PlainFLAC``) gives, for every file it takes, exactly what TagLib gives in the
/// tag reader (the property map's values in the file's order of keys, the audio properties, the picture), and leaves
/// to TagLib every file where the two could differ.
@Suite struct PlainFLACReaderTests {
    let folder: String
    let maker: TaggedFLACMaker

    init() throws {
        folder = try makeTemporaryFolder("plain-flac")
        maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
    }

    static func fields(_ text: [String]) -> Data { TaggedFLACMaker.comment(text.map { Data($0.utf8) }) }

    /// Files the plain reader takes: tags as people's files have them and what TagLib drops from a comment.
    static let plain: [(String, [(UInt8, Data)], Data)] = [
        ("tags", [(4, fields(["TITLE=Song", "ARTIST=One", "ARTIST=Two", "ALBUM=Album", "GENRE=Folk", "DATE=1999-02-03",
                              "TRACKNUMBER=3/12", "DISCNUMBER=1", "REPLAYGAIN_TRACK_GAIN=-6.5 dB", "ALBUMARTISTSORT=Band, The"]))], Data()),
        ("keys in any case, in any order", [(4, fields(["artist=Lower", "Album Artist=Spaced", "ARTIST=Upper", "title=t", "Title=T"]))], Data()),
        ("unicode", [(4, fields(["TITLE=Été à Paris", "ARTIST=日本語のアーティスト", "ALBUM=𝄞 Clef", "COMMENT=line\none"]))], Data()),
        ("dropped fields", [(4, TaggedFLACMaker.comment([Data("NOSEPARATOR".utf8), Data("=novalue".utf8), Data("EMPTY=".utf8),
                                                          Data("TI~TLE=tilde".utf8), Data([0xC3, 0xA9, 0x3D, 0x61]), Data("TITLE=kept".utf8),
                                                          Data([0x7F, 0x3D, 0x62])]))], Data()),
        ("padding, seek table and an application block", [(1, Data(count: 100)), (3, Data()), (2, Data("abcdxyz".utf8)),
                                                          (4, fields(["TITLE=Blocks"])), (1, Data(count: 8))], Data()),
        ("back cover then front", [(4, fields(["TITLE=Covers"])),
                                   (6, TaggedFLACMaker.picture(type: 4, mediaType: "image/png", bytes: Data(repeating: 1, count: 50))),
                                   (6, TaggedFLACMaker.picture(type: 3, mediaType: "image/jpeg", description: "Fröнт", bytes: Data(repeating: 2, count: 70)))], Data()),
        ("front cover then back", [(6, TaggedFLACMaker.picture(type: 3, mediaType: "image/jpeg", bytes: Data(repeating: 3, count: 30))),
                                   (4, fields(["TITLE=Front"])),
                                   (6, TaggedFLACMaker.picture(type: 4, mediaType: "image/png", bytes: Data(repeating: 4, count: 40)))], Data()),
        ("an empty picture, then one", [(6, TaggedFLACMaker.picture(type: 3, mediaType: "image/jpeg", bytes: Data())),
                                        (6, TaggedFLACMaker.picture(type: 0, mediaType: "image/gif", bytes: Data(repeating: 5, count: 10))),
                                        (4, fields(["TITLE=Empty picture"]))], Data()),
        ("a picture past the limit", [(4, fields(["TITLE=Big"])),
                                      (6, TaggedFLACMaker.picture(type: 3, mediaType: "image/jpeg", bytes: Data(repeating: 6, count: 5000)))], Data()),
        // Many distinct keys (as many as the plain reader takes), not in the property map's order.
        ("many distinct keys", [(4, fields((0..<16_384).reversed().map { "K\($0)=v" }))], Data()),
        ("long values and many", [(4, fields(["TITLE=" + String(repeating: "x", count: 3000)] + (0..<300).map { "GENRE=g\($0)" }))], Data()),
    ]

    /// Files left to TagLib: where its answer comes from elsewhere, or from text it decodes its own way.
    static let leftToTagLib: [(String, [(UInt8, Data)], Data)] = [
        ("an ID3v1 tag at the end", [(4, fields(["TITLE=With ID3v1"]))], Data("TAG".utf8) + Data(count: 125)),
        ("a picture among the fields", [(4, fields(["TITLE=P", "METADATA_BLOCK_PICTURE=AAAA"]))], Data()),
        ("COVERART in lower case", [(4, fields(["TITLE=P", "coverart=AAAA"]))], Data()),
        ("a value that is not UTF-8", [(4, TaggedFLACMaker.comment([Data("TITLE=".utf8) + Data([0xE9, 0x74, 0xE9])]))], Data()),
        ("an overlong form", [(4, TaggedFLACMaker.comment([Data("TITLE=".utf8) + Data([0xC0, 0xAF])]))], Data()),
        ("a surrogate", [(4, TaggedFLACMaker.comment([Data("TITLE=".utf8) + Data([0xED, 0xA0, 0x80])]))], Data()),
        ("a NUL in a value", [(4, TaggedFLACMaker.comment([Data("TITLE=cut".utf8) + Data([0]) + Data("here".utf8)]))], Data()),
        ("a NUL in a key", [(4, TaggedFLACMaker.comment([Data("TI".utf8) + Data([0]) + Data("TLE=value".utf8)]))], Data()),
        ("two comments", [(4, fields(["TITLE=First"])), (4, fields(["TITLE=Second"]))], Data()),
        // Hostile: more fields than the plain reader keeps keys for (each would be a key in the service's memory).
        ("more fields than it takes", [(4, fields((0..<16_385).map { "K\($0)=v" }))], Data()),
        ("no comment", [(1, Data(count: 10))], Data()),
        ("an empty comment", [(4, fields([]))], Data()),
        ("a comment whose count overruns it", [(4, fields(["TITLE=x"]).prefix(20) + Data([0xFF, 0xFF, 0, 0]))], Data()),
        ("a picture that overruns its block", [(4, fields(["TITLE=x"])),
                                               (6, TaggedFLACMaker.picture(type: 3, mediaType: "image/jpeg", bytes: Data(count: 40)).dropLast(5))], Data()),
        ("an empty block of another kind", [(4, fields(["TITLE=x"])), (2, Data())], Data()),
    ]

    func write(_ name: String, _ blocks: [(UInt8, Data)], _ trailer: Data) throws -> String {
        let path = folder + "/" + name.replacingOccurrences(of: " ", with: "-") + ".flac"
        try maker.file(blocks: blocks.map { (type: $0.0, body: $0.1) }, trailer: trailer).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Both readers' whole answers for `path`, and whether the plain reader takes the file.
    func compare(_ path: String) throws -> (plain: Bool, same: Bool, detail: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var info = stat()
        try #require(fstat(descriptor, &info) == 0)
        let size = Int(info.st_size)
        // Small limits, so that cutting values and counting them is compared too.
        var taglib = rp_taglib_file()
        defer { rp_taglib_free(&taglib) }
        let status = rp_taglib_read(descriptor, size, "flac", 1000, 2048, 200, 0, &taglib)
        let plain = PlainFLAC.read(size: Int64(size), limits: PlainFLAC.Limits(pictureBytes: 1000, valueBytes: 2048, valueCount: 200)) {
            Descriptor.read(descriptor, at: $0, count: $1)
        }
        func describe(_ properties: [(key: String, value: String)], _ headers: AudioHeaders, inFileOrder: Bool,
                      _ picture: EmbeddedPicture?) -> String {
            "length \(headers.lengthMilliseconds) ms \(headers.sampleRate) Hz \(headers.channels) ch \(headers.bitrateKilobits) kb/s "
                + "codec \(String(describing: headers.codec)) \(headers.bitsPerSample) bits properties \(properties.map { "\($0.key)=\($0.value)" }) "
                + "in file order \(inFileOrder) picture \(picture?.bytes.count ?? 0) \(picture?.mediaType ?? "") "
                + "\((picture?.bytes ?? []).reduce(0) { $0 &* 31 &+ Int($1) })"
        }
        let plainAnswer = plain.map { describe($0.properties, $0.headers, inFileOrder: true, $0.picture) } ?? "not taken"
        var taglibAnswer = "status \(status)"
        if status == 0 {
            let header = taglib.headers
            let properties = taglib.properties.map {
                TagLibReader.records(UnsafeBufferPointer(start: $0, count: taglib.properties_size))
            } ?? []
            let picture = taglib.picture.map { bytes in
                EmbeddedPicture(bytes: Array(UnsafeBufferPointer(start: bytes, count: taglib.picture_size)),
                                declaredType: withUnsafeBytes(of: taglib.picture_type) { Array($0.prefix { $0 != 0 }) })
            }
            taglibAnswer = describe(properties, AudioHeaders(lengthMilliseconds: header.length_ms, sampleRate: Int(header.sample_rate),
                                                             channels: Int(header.channels), bitrateKilobits: Int(header.bitrate_kbps),
                                                             codec: TagLibReader.codec(header.codec), bitsPerSample: Int(header.bits_per_sample)),
                                    inFileOrder: header.properties_in_file_order != 0, picture)
        }
        return (plain != nil, plain == nil || plainAnswer == taglibAnswer, "plain: \(plainAnswer)\nTagLib: \(taglibAnswer)")
    }

    @Test func filesItTakesAreReadAsTagLibReadsThem() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, blocks, trailer) in Self.plain {
            let result = try compare(try write(name, blocks, trailer))
            #expect(result.plain, "\(name): taken by the plain reader")
            #expect(result.same, "\(name)\n\(result.detail)")
        }
    }

    @Test func filesWhereTheyCouldDifferGoToTagLib() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, blocks, trailer) in Self.leftToTagLib {
            let result = try compare(try write(name, blocks, trailer))
            #expect(!result.plain, "\(name): left to TagLib")
        }
    }

    /// Damaged copies of a file with tags and pictures (bytes changed, lengths among them, at fixed random places):
    /// whatever the plain reader takes, it reads as TagLib does; the rest goes to TagLib. Neither crashes.
    @Test func damagedFilesAreReadAsTagLibReadsThemOrLeftToIt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = maker.file(blocks: [
            (type: 4, body: Self.fields(["TITLE=Damaged", "ARTIST=A", "ARTIST=B", "ALBUM=Ålbum", "GENRE=Folk"])),
            (type: 6, body: TaggedFLACMaker.picture(type: 4, mediaType: "image/png", bytes: Data(repeating: 1, count: 40))),
            (type: 6, body: TaggedFLACMaker.picture(type: 3, mediaType: "image/jpeg", bytes: Data(repeating: 2, count: 60))),
            (type: 1, body: Data(count: 16)),
        ])
        let metadataEnd = 400 // the blocks above end before this
        var generator = SplitMix(seed: 69)
        var taken = 0
        for round in 0..<1500 {
            var bytes = original
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let at = 4 + Int(generator.next() % UInt64(metadataEnd - 4))
                bytes[bytes.startIndex + at] = generator.next() % 4 == 0 ? 0xFF : UInt8(truncatingIfNeeded: generator.next())
            }
            let path = folder + "/damaged.flac"
            try bytes.write(to: URL(fileURLWithPath: path))
            let result = try compare(path)
            if result.plain { taken += 1 }
            #expect(result.same, "round \(round)\n\(result.detail)")
        }
        #expect(taken > 100, "the plain reader still takes files with changed bytes where TagLib reads them as it does")
    }

    /// A FLAC file GStreamer's encoder wrote (with its own tags and seek table) is read the same way too.
    @Test func whatFlacencWritesIsReadAsTagLibReadsIt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/flacenc.flac"
        try generateTone(at: path, seconds: 2, tags: "title=\"Tone Ünïcode\",artist=\"Sine Player\",album=\"Waves\",track-number=(uint)3",
                         encoder: ["flacenc"])
        let result = try compare(path)
        #expect(result.plain)
        #expect(result.same, "\(result.detail)")
    }
}

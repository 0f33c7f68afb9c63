import Foundation
import Glibc
import PosixFiles
import RepriseCore
import RepriseLibrary
import TagLibKit
import Testing
import TestSupport

/// TagLib through the shim, on files GStreamer's encoders and muxers wrote (each format Reprise indexes), on files
/// made byte by byte (pictures, lyrics, gains, bytes that are not UTF-8) and on hostile ones.
@Suite struct TagLibReaderTests {
    let folder: String

    init() throws {
        folder = try makeTemporaryFolder("taglib")
    }

    func readTags(_ path: String) -> (tags: FileTags, picture: EmbeddedPicture?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let fileExtension = String(path[path.index(after: path.lastIndex(of: ".")!)...])
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return TagLibReader.read(descriptor: descriptor, size: Int64(info.st_size), fileExtension: fileExtension, pictureLimit: 1 << 20)
    }

    static let encoders: [(String, [String])] = [
        ("flac", ["flacenc"]), ("ogg", ["vorbisenc", "!", "oggmux"]), ("opus", ["opusenc", "!", "oggmux"]),
        ("mp3", ["lamemp3enc", "!", "xingmux", "!", "id3v2mux"]), ("m4a", ["avenc_aac", "!", "mp4mux"]), ("wav", ["wavenc"]),
    ]

    @Test(arguments: encoders)
    func readsWhatGStreamerWrote(_ format: (String, [String])) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var path = folder + "/tone." + format.0
        try generateTone(at: path, seconds: 2, tags: "title=\"Tone Ünïcode\",artist=\"Sine Player\",album=\"Waves\",track-number=(uint)3",
                         encoder: format.1)
        if format.0 == "m4a" {
            // TagLib 1.13 finds no tags in the item list GStreamer's mp4mux writes (ffprobe does): such files go to
            // the discoverer (TrackFileReader); here TagLib reads the same tags as iTunes and ffmpeg write them.
            #expect(TrackFileReader(art: nil).read(path)?.title == "Tone Ünïcode")
            let remuxed = folder + "/remuxed.m4a"
            #expect(try runCommand("ffmpeg", ["-v", "error", "-y", "-i", path, "-c", "copy", remuxed]).status == 0)
            path = remuxed
        }
        let read = try #require(readTags(path), "TagLib read no \(format.0)")
        let length = try #require(read.tags.lengthMicroseconds)
        #expect(abs(length - 2_000_000) < 150_000, "\(format.0): \(length) µs")
        #expect(read.tags.sampleRate == 44_100 || read.tags.sampleRate == 48_000)
        #expect(read.tags.channels == 2)
        guard format.0 != "wav" else { return } // wavenc writes no tags
        #expect(read.tags.tags.title == "Tone Ünïcode", "\(format.0)")
        #expect(read.tags.tags.artists == ["Sine Player"] && read.tags.tags.album == "Waves", "\(format.0)")
        #expect(read.tags.tags.trackNumber == 3, "\(format.0)")
    }

    /// An untagged FLAC or Ogg is read by TagLib alone (its length from the headers); only an untagged MP4, whose
    /// tags TagLib may miss, goes to the discoverer as well.
    @Test func untaggedFilesStayWithTagLibButAnUntaggedMP4() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = TrackFileReader(art: nil)
        for (name, encoder) in [("plain.flac", ["flacenc"]), ("plain.ogg", ["vorbisenc", "!", "oggmux"])] {
            try generateTone(at: folder + "/" + name, seconds: 2, tags: nil, encoder: encoder)
            let track = try #require(reader.read(folder + "/" + name))
            #expect(track.title == nil && abs((track.lengthMicroseconds ?? 0) - 2_000_000) < 150_000, "\(name)")
        }
        #expect(reader.readByTagLib == 2 && reader.readByDiscoverer == 0)
        try generateTone(at: folder + "/plain.m4a", seconds: 2, tags: nil, encoder: ["avenc_aac", "!", "mp4mux"])
        #expect(reader.read(folder + "/plain.m4a") != nil)
        #expect(reader.readByTagLib == 2 && reader.readByDiscoverer == 1)
    }

    @Test func readsPicturesLyricsGainsAndRepairsBadUTF8() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)
        var picture = Data()
        func bigEndian(_ value: Int) { picture += withUnsafeBytes(of: UInt32(value).bigEndian) { Data($0) } }
        bigEndian(3) // front cover
        bigEndian(9); picture += Data("image/png".utf8)
        bigEndian(0)
        for _ in 0..<4 { bigEndian(0) }
        bigEndian(png.count); picture += Data(png)
        let lyrics = "First line\nSecond line\nÜber alles"
        let path = folder + "/tagged.flac"
        var file = maker.file(tags: [("TITLE", "Pictured"), ("ARTIST", "One"), ("ARTIST", "Two"), ("LYRICS", lyrics),
                                     ("REPLAYGAIN_TRACK_GAIN", "-6.50 dB"), ("REPLAYGAIN_TRACK_PEAK", "0.912"),
                                     ("R128_ALBUM_GAIN", "-1280"), ("TRACKNUMBER", "4/12"), ("DATE", "1999-05-02"),
                                     ("METADATA_BLOCK_PICTURE", picture.base64EncodedString()), ("ALBUM", "BAD_UTF8")])
        // The album's value as bytes that are not UTF-8 (same length as the placeholder).
        let placeholder = Data("BAD_UTF8".utf8)
        let range = try #require(file.range(of: placeholder))
        file.replaceSubrange(range, with: Data([0x41, 0xFF, 0xFE, 0x42, 0xC3, 0x28, 0x43, 0x44]))
        try file.write(to: URL(fileURLWithPath: path))
        let read = try #require(readTags(path))
        #expect(read.tags.tags.title == "Pictured" && read.tags.tags.artists == ["One", "Two"])
        #expect(read.tags.lyrics == lyrics)
        #expect(read.tags.loudness == LoudnessTags(trackGain: -6.5, albumGain: 0, trackPeak: 0.912))
        #expect(read.tags.tags.trackNumber == 4 && read.tags.year == 1999)
        #expect(read.picture == EmbeddedPicture(bytes: png, mediaType: "image/png"))
        // TagLib drops a value that is not UTF-8 (GStreamer repairs it with U+FFFD); either way nothing raw.
        #expect(read.tags.tags.album == nil || read.tags.tags.album?.contains("\u{FFFD}") == true)
    }

    /// An AAC stream's channels as its decoder configuration says (FFmpeg's answer, which mpd's `Format` gives): a
    /// mono file's sample entry says 2. Damaged configurations give at most 8 channels or TagLib's count, never a
    /// crash: every byte of the `esds` box changed in turn, and its descriptors' sizes set to their largest.
    @Test func aacChannelsComeFromTheDecoderConfiguration() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (channels, layout) in [(1, "mono"), (2, "stereo"), (6, "5.1")] {
            let path = folder + "/\(layout).m4a"
            let made = try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1",
                                                 "-af", "aformat=channel_layouts=\(layout)", "-c:a", "aac", path])
            #expect(made.status == 0, "\(made.errors)")
            #expect(readTags(path)?.tags.channels == channels, "\(layout)")
        }
        let mono = try Data(contentsOf: URL(fileURLWithPath: folder + "/mono.m4a"))
        let esds = try #require(mono.range(of: Data("esds".utf8)))
        for offset in esds.upperBound..<min(esds.upperBound + 48, mono.count) {
            for value: UInt8 in [0x00, 0x80, 0xFF, mono[offset] ^ 0x0F] {
                var damaged = mono
                damaged[offset] = value
                let path = folder + "/damaged.m4a"
                try damaged.write(to: URL(fileURLWithPath: path))
                let channels = readTags(path)?.tags.channels
                #expect(channels == nil || (1...8).contains(channels!), "byte \(offset - esds.upperBound) = \(value): \(String(describing: channels))")
            }
        }
    }

    /// An APE tag at a file's end, as mpd's `readcomments` lists it (mpd's generic scan reads it for every file): its
    /// text items in the tag's order, a list's values apart, a binary item left out; and crafted ones — a value or a
    /// count past the tag, a key without its end, a tag longer than the file, a hundred thousand items — read as far
    /// as they are well formed, within the reader's count of values.
    @Test func anAPETagsItemsAsMPDListsThemAndCraftedOnesBounded() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mp3 = folder + "/plain.mp3"
        let made = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=20", "!", "lamemp3enc", "!", "filesink", "location=" + mp3])
        #expect(made.status == 0, "\(made.errors)")
        let audio = try Data(contentsOf: URL(fileURLWithPath: mp3))
        func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        func item(_ key: String, _ value: Data, flags: UInt32 = 0) -> Data { le32(UInt32(value.count)) + le32(flags) + Data(key.utf8) + Data([0]) + value }
        func tag(_ items: Data, count: UInt32, length: UInt32? = nil) -> Data {
            items + Data("APETAGEX".utf8) + le32(2000) + le32(length ?? UInt32(items.count + 32)) + le32(count) + Data(count: 12)
        }
        func comments(_ name: String, _ bytes: Data) throws -> [String] {
            let path = folder + "/" + name
            try bytes.write(to: URL(fileURLWithPath: path))
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(descriptor) }
            let read = TagLibReader.properties(descriptor: descriptor, size: Int64(bytes.count), fileExtension: "mp3",
                                               limitBytes: 8 << 20)
            guard case .read(let found) = read else { return [] }
            return found.map { $0.key + "=" + $0.value }
        }
        let items = item("Title", Data("Tune".utf8)) + item("Artist", Data("One\u{0}Two".utf8))
            + item("Cover Art (Front)", Data([1, 2, 3]), flags: 2) + item("Mood", Data())
        #expect(try comments("good.mp3", audio + tag(items, count: 4)) == ["Title=Tune", "Artist=One", "Artist=Two", "Mood="])
        // A count of four billion, a value's size past the tag, a key that never ends: what came before is kept.
        #expect(try comments("count.mp3", audio + tag(items, count: .max)) == ["Title=Tune", "Artist=One", "Artist=Two", "Mood="])
        let oversized = item("Title", Data("Tune".utf8)) + le32(.max - 8) + le32(0) + Data("Artist\u{0}x".utf8)
        #expect(try comments("value.mp3", audio + tag(oversized, count: 2)) == ["Title=Tune"])
        let endless = item("Title", Data("Tune".utf8)) + le32(1) + le32(0) + Data("Artist".utf8)
        #expect(try comments("key.mp3", audio + tag(endless, count: 2)) == ["Title=Tune"])
        // A tag that says it is longer than the file, or longer than mpd's megabyte: none.
        #expect(try comments("long.mp3", tag(items, count: 4, length: UInt32(audio.count) * 4)) == [])
        #expect(try comments("mega.mp3", audio + tag(items, count: 4, length: 2 << 20)) == [])
        // A hundred thousand items in a tag of under a megabyte: the reader's count of values, no more.
        let many = (0..<100_000).reduce(into: Data()) { data, _ in data += item("K", Data()) }
        #expect(try comments("many.mp3", audio + tag(many, count: 100_000)).count == 4_096)
    }

    /// `readcomments`' reading: a value longer than the library keeps (an embedded picture's base64 in a Vorbis
    /// comment, 1.6 MB) comes whole; a file whose tags are more than the limit asked is told too large, not cut.
    @Test func commentsComeWholeUpToTheirLimit() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let picture = String(repeating: "QUJD", count: 400_000)
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
        let path = folder + "/long.flac"
        try maker.file(tags: [("TITLE", "Long"), ("METADATA_BLOCK_PICTURE", picture), ("ARTIST", "After")]).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var info = stat()
        #expect(fstat(descriptor, &info) == 0)
        let whole = TagLibReader.properties(descriptor: descriptor, size: Int64(info.st_size), fileExtension: "flac", limitBytes: 8 << 20)
        guard case .read(let found) = whole else { Issue.record("not read: \(whole)"); return }
        #expect(found.map(\.key) == ["TITLE", "METADATA_BLOCK_PICTURE", "ARTIST"])
        #expect(found.first { $0.key == "METADATA_BLOCK_PICTURE" }?.value == picture)
        let limited = TagLibReader.properties(descriptor: descriptor, size: Int64(info.st_size), fileExtension: "flac", limitBytes: 1 << 20)
        guard case .tooLarge = limited else { Issue.record("not refused: \(limited)"); return }
        // The reader answered in step: the next file is read as usual.
        guard case .read = TagLibReader.properties(descriptor: descriptor, size: Int64(info.st_size), fileExtension: "flac",
                                                   limitBytes: 8 << 20) else { Issue.record("not read after"); return }
    }

    /// A plain AIFF file's text chunks, which TagLib does not read, as libsndfile reads them for mpd: NAME as the
    /// title, AUTH as the artist, ANNO as a comment, each up to a NUL, a later NAME over an earlier one; none when a
    /// chunk is longer than libsndfile takes or runs past the file; an ID3 chunk's tag before them.
    @Test func anAIFFsTextChunksAsLibsndfileReadsThem() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = folder + "/plain.aiff"
        #expect(try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", plain]).status == 0)
        let audio = try Data(contentsOf: URL(fileURLWithPath: plain))
        func be32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        func chunk(_ id: String, _ body: Data) -> Data { Data(id.utf8) + be32(UInt32(body.count)) + body + (body.count % 2 == 1 ? Data([0]) : Data()) }
        /// The file with `chunks` before its own and `after` after them, its FORM's size made to fit.
        func aiff(_ name: String, _ chunks: Data, after: Data = Data()) throws -> FileTags? {
            let body = chunks + audio[12...] + after
            let path = folder + "/" + name
            try (Data("FORM".utf8) + be32(UInt32(body.count + 4)) + Data("AIFF".utf8) + body).write(to: URL(fileURLWithPath: path))
            return readTags(path)?.tags
        }
        let tagged = try #require(try aiff("tagged.aiff", chunk("NAME", Data("First".utf8)) + chunk("AUTH", Data("Writer".utf8))
                                           + chunk("ANNO", Data("Said".utf8)) + chunk("NAME", Data("Tune\u{0}junk".utf8))))
        #expect(tagged.tags.title == "Tune" && tagged.tags.artists == ["Writer"] && tagged.tags.comments == ["Said"], "\(tagged.tags)")
        #expect(tagged.lengthMicroseconds.map { abs($0 - 1_000_000) < 50_000 } == true)
        let long = try #require(try aiff("long.aiff", chunk("AUTH", Data("Writer".utf8)) + chunk("NAME", Data(repeating: 65, count: 9000))))
        #expect(long.tags.title == nil && long.tags.artists.isEmpty, "libsndfile refuses the file: \(long.tags)")
        // A chunk that says it runs past the file's end: what came before it stays.
        let past = try aiff("past.aiff", chunk("AUTH", Data("Writer".utf8)), after: Data("JUNK".utf8) + be32(1 << 30) + Data("NAME".utf8))
        #expect(past?.tags.artists ?? [] == ["Writer"] && past?.tags.title == nil, "\(String(describing: past?.tags))")
        // With an ID3 chunk: its tag (TagLib's) is the file's.
        let id3 = folder + "/id3.aiff"
        #expect(try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", "-write_id3v2", "1",
                                          "-metadata", "title=From ID3", "-metadata", "author=Writer", id3]).status == 0)
        #expect(readTags(id3)?.tags.tags.title == "From ID3")
    }

    @Test func hostileFilesAreHarmless() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
        var generator = SplitMix(seed: 31)
        var files: [String: Data] = [
            "empty.flac": Data(), "zeros.mp3": Data(count: 1 << 20), "text.m4a": Data("not a movie".utf8),
            "random.ogg": Data((0..<65_536).map { _ in UInt8(truncatingIfNeeded: generator.next()) }),
            "random.opus": Data((0..<4_096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }),
        ]
        let real = maker.file(tags: [("TITLE", "x")])
        files["truncated.flac"] = real.prefix(60)
        // A Vorbis comment block whose comment count says four billion.
        var lying = real
        let count = try #require(lying.range(of: Data([1, 0, 0, 0, 7, 0, 0, 0]) + Data("TITLE=x".utf8).prefix(2)))
        lying.replaceSubrange(count.lowerBound..<count.lowerBound + 4, with: Data([0xFF, 0xFF, 0xFF, 0xFF]))
        files["lying.flac"] = lying
        for (name, bytes) in files {
            try bytes.write(to: URL(fileURLWithPath: folder + "/" + name))
            let read = readTags(folder + "/" + name)
            #expect(read == nil || read?.tags.tags.title == nil || read?.tags.tags.title == "x", "\(name)")
        }
        // 8 GiB of nothing named like music (sparse): TagLib would search it all for a marker; its reading is
        // bounded, and the file is left to the discoverer.
        for name in ["huge.flac", "huge.mp3"] {
            let path = folder + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, 8 << 30) == 0)
            #expect(readTags(path) == nil, "\(name)")
        }
        // MP4 boxes whose 64-bit sizes reach past Int64's end: TagLib's `offset + size` overflows to a negative
        // position (its loop over the boxes once went round the first one forever, allocating as it went).
        let ftyp = Data([0, 0, 0, 16]) + Data("ftypM4A ".utf8) + Data([0, 0, 2, 0])
        let nearMax = Data([0, 0, 0, 1]), size = Data([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0])
        let anonymousBefore = anonymousResidentMiB(of: getpid())
        for box in ["free", "moov", "mdat", "udta"] {
            let path = folder + "/huge-\(box).m4a"
            try (ftyp + nearMax + Data(box.utf8) + size + Data(count: 64)).write(to: URL(fileURLWithPath: path))
            #expect(readTags(path)?.tags.tags.title == nil, "\(box)")
        }
        #expect(anonymousResidentMiB(of: getpid()) - anonymousBefore < 16)
        // A FIFO named like music is never opened (it would block).
        mkfifo(folder + "/pipe.flac", 0o600)
        #expect(TrackFileReader(art: nil).read(folder + "/pipe.flac") == nil)
        // A file TagLib cannot read still gets its name as its title through the discoverer's fallback.
        let track = try #require(TrackFileReader(art: nil).read(folder + "/text.m4a"))
        #expect(track.title == nil && track.displayTitle == "text")
    }
}

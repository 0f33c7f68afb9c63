import Foundation
import RepriseCore
import RepriseLibrary
import Testing
import TestSupport

/// The order a file has its tags in, as the tag reader reads it (MPD lists a song's tags so): from Vorbis comments —
/// FLAC (plain, or behind an ID3v2 tag, which TagLib reads), Ogg Vorbis, Opus — and from an MP3's ID3v2 tag, the
/// order of mpd's ID3 scanner, whatever the file's.
@Suite struct TagOrderReadingTests {
    let folder: String

    init() throws { folder = try makeTemporaryFolder("tag-order") }

    func order(_ name: String) throws -> TagOrder {
        try #require(TrackFileReader(art: nil).read(folder + "/" + name)).tagOrder
    }

    @Test func aFLACFilesCommentInItsOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
        let flac = maker.file(tags: [("GENRE", "Jazz"), ("date", "1959"), ("TITLE", "So What"), ("Comment", "take 3"),
                                     ("ARTIST", "Miles Davis"), ("GENRE", "Modal"), ("ALBUM", "Kind of Blue")])
        try flac.write(to: URL(fileURLWithPath: folder + "/plain.flac"))
        // The second genre after the artist: a place of its own, as mpd lists it.
        let expected = TagOrder(valuesInFileOrder: [.genre, .date, .title, .artist, .genre, .album])
        #expect(try order("plain.flac") == expected)
        // An ID3v2 tag before the stream (ten bytes of padding): not a plain file, so TagLib reads it; the same order.
        let id3 = Data("ID3".utf8) + Data([3, 0, 0, 0, 0, 0, 10]) + Data(count: 10)
        try (id3 + flac).write(to: URL(fileURLWithPath: folder + "/behind-id3.flac"))
        #expect(try order("behind-id3.flac") == expected)
    }

    @Test func anOggFilesCommentInItsOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tags = "genre=(string)Jazz,title=(string)\\\"So What\\\",artist=(string)\\\"Miles Davis\\\",track-number=(uint)1"
        try generateTone(at: folder + "/a.ogg", seconds: 1, tags: tags, encoder: ["vorbisenc", "!", "oggmux"])
        try generateTone(at: folder + "/a.opus", seconds: 1, tags: tags, encoder: ["opusenc", "!", "oggmux"])
        for name in ["a.ogg", "a.opus"] {
            #expect(try order(name) == TagOrder([.genre, .title, .artist, .track]), "\(name)")
        }
    }

    @Test func anMP3sID3TagInMPDsOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Written genre first and title before artist; TIT1 (mpd's Grouping, TagLib's work) and TPE4 (mpd's Performer).
        let made = try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame",
                                             "-id3v2_version", "4", "-metadata", "genre=Jazz", "-metadata", "title=Blue",
                                             "-metadata", "TIT1=Sessions", "-metadata", "TPE4=Gil", "-metadata", "artist=Miles",
                                             "-metadata", "MusicBrainz Album Id=0b2a3c4d-1111-2222-3333-444455556666",
                                             "-metadata", "album=Kind of Blue", folder + "/a.mp3"])
        #expect(made.status == 0, "\(made.errors)")
        let read = try #require(TrackFileReader(art: nil).read(folder + "/a.mp3"))
        #expect(read.title == "Blue")
        #expect(read.tagOrder == TagOrder([.artist, .title, .album, .genre, .performer, .grouping, .musicBrainzAlbum]))
        #expect(read.moreTags.values(of: .grouping) == ["Sessions"] && read.moreTags.values(of: .performer) == ["Gil"])
        #expect(read.moreTags.values(of: .work).isEmpty)
    }

    /// Hostile: an ID3v2.3 tag of 20,000 TIT1 frames before the audio. Every value is moved to Grouping, none is
    /// left under TagLib's key, and the moving stays linear (each value looked up once).
    @Test func aCraftedTagOfThousandsOfGroupingFramesIsReadWhole() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = folder + "/plain.mp3"
        let made = try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame",
                                             "-write_id3v2", "0", "-write_xing", "0", plain])
        #expect(made.status == 0, "\(made.errors)")
        var frames = Data()
        for index in 0..<20_000 {
            let text = Data([0]) + Data("g\(index)".utf8) // ISO-8859-1, then the value
            frames += Data("TIT1".utf8) + withUnsafeBytes(of: UInt32(text.count).bigEndian) { Data($0) } + Data([0, 0]) + text
        }
        let size = frames.count // syncsafe: seven bits a byte
        let header = Data("ID3".utf8) + Data([3, 0, 0]) + Data([3, 2, 1, 0].map { UInt8((size >> ($0 * 7)) & 0x7F) })
        try (header + frames + Data(contentsOf: URL(fileURLWithPath: plain))).write(to: URL(fileURLWithPath: folder + "/crafted.mp3"))
        let read = try #require(TrackFileReader(art: nil).read(folder + "/crafted.mp3"))
        #expect(read.moreTags.values(of: .work).isEmpty)
        #expect(read.moreTags.values(of: .grouping).first == "g0")
    }
}

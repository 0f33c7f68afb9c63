@testable import MPDProtocol
import RepriseCore
import Testing

/// A song's tags are written as MPD writes them: in the order its file has them (MPD follows the file), each tag's
/// values together; the tags whose place the file does not give (and every tag of a file without an order) after, in
/// the fixed order.
@Suite struct TagOrderTests {
    static let wanted = MPDWantedTags(Set(MPDSongWriter.tagTypes))

    /// A track as a Vorbis comment "GENRE, DATE, COMPOSER, TITLE, ARTIST, TRACKNUMBER" reads, its album and album
    /// artist named where the file gives no place (set by hand).
    func track(ordered: Bool) -> LibraryTrack {
        var track = LibraryTrack(path: "/music/a.ogg", title: "Urlicht", artist: "Mahler", album: "Symphony No. 2",
                                 albumArtist: "Gustav Mahler", genre: "Classical", year: 1895, track: 4, lengthMicroseconds: 5_000_000)
        track.genres = ["Classical", "Romantic"]
        track.moreTags.append(.composer, "Gustav Mahler")
        track.moreTags.append(.conductor, "Abbado")
        if ordered { track.tagOrder = TagOrder([.genre, .date, .composer, .title, .artist, .track]) }
        return track
    }

    func written(_ track: LibraryTrack) -> [String] {
        var response = MPDResponse()
        MPDSongWriter(musicFolder: "/music").write(track, name: "a.ogg", wanted: Self.wanted, into: &response)
        return String(decoding: response.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aFilesOrderIsKeptAndTheRestFollowInTheFixedOrder() {
        #expect(written(track(ordered: true)) == [
            "file: a.ogg", "Genre: Classical", "Genre: Romantic", "Date: 1895", "Composer: Gustav Mahler", "Title: Urlicht",
            "Artist: Mahler", "Track: 4", "Album: Symphony No. 2", "AlbumArtist: Gustav Mahler", "Conductor: Abbado",
            "Time: 5", "duration: 5.000",
        ])
        #expect(written(track(ordered: false)) == [
            "file: a.ogg", "Title: Urlicht", "Artist: Mahler", "Album: Symphony No. 2", "AlbumArtist: Gustav Mahler",
            "Track: 4", "Date: 1895", "Genre: Classical", "Genre: Romantic", "Composer: Gustav Mahler", "Conductor: Abbado",
            "Time: 5", "duration: 5.000",
        ])
    }

    @Test func theLibrarysSnapshotWritesWhatTheTrackWrites() {
        let tracks = [track(ordered: true), track(ordered: false), track(ordered: true)]
        let table = MPDSongTable(tracks.enumerated().map { ("\($0.offset).ogg", $0.element) }, folderPrefix: "/music/")
        for (index, track) in tracks.enumerated() {
            var fromTable = MPDResponse(), fromTrack = MPDResponse()
            MPDSongWriter(musicFolder: "/music").write(table.song(at: index), wanted: Self.wanted, into: &fromTable)
            MPDSongWriter(musicFolder: "/music").write(track, name: "\(index).ogg", wanted: Self.wanted, into: &fromTrack)
            #expect(String(decoding: fromTable.bytes, as: UTF8.self) == String(decoding: fromTrack.bytes, as: UTF8.self))
            #expect(table[index].track.tagOrder == track.tagOrder)
        }
    }

    @Test func onlyTheTagsAConnectionAskedForAreWritten() {
        var response = MPDResponse()
        MPDSongWriter(musicFolder: "/music").write(track(ordered: true), name: "a.ogg", wanted: MPDWantedTags(["Title", "Date"]), into: &response)
        #expect(String(decoding: response.bytes, as: UTF8.self) == "file: a.ogg\nDate: 1895\nTitle: Urlicht\nTime: 5\nduration: 5.000\n")
    }

    @Test func theOrderIsReadFromTheFilesKeysWhenTheyComeInItsOrder() {
        let properties: [(key: String, value: String)] = [
            ("DATE", "1993"), ("GENRE", "Pop"), ("UNKNOWN", "x"), ("TITLE", "Venus"), ("ARTIST", "Björk"), ("EMPTY", ""),
            ("COMPOSER", "Björk"), ("ARTIST", "Guest"), ("ALBUM ARTIST", "Björk"), ("TRACKNUMBER", "3/11"), ("YEAR", "1992"),
        ]
        #expect(FileTags(properties: properties, inFileOrder: true).tags.tagOrder
                == TagOrder([.date, .genre, .title, .artist, .composer, .albumArtist, .track]))
        #expect(FileTags(properties: properties).tags.tagOrder.isEmpty, "the property map's order (by key) is no file's")
    }

    @Test func everyFurtherTagHasItsPlace() {
        for name in MoreTags.Name.allCases { #expect(TagOrder.Tag(name).moreTagName == name) }
        #expect(TagOrder.Tag.allCases.compactMap(\.moreTagName).count == MoreTags.Name.allCases.count)
        #expect(Set(TagOrder.Tag.allCases.map(\.mpdName)).count == TagOrder.Tag.allCases.count)
    }

    @Test func theIndexTextComesBack() {
        let order = TagOrder([.musicBrainzTrack, .title, .movementNumber, .date])
        #expect(order.storedText == "MUSICBRAINZ_TRACKID,Title,MovementNumber,Date")
        #expect(TagOrder(storedText: order.storedText!) == order)
        #expect(TagOrder().storedText == nil)
        #expect(TagOrder(storedText: "Title,,Bogus,title,Title,Genre") == TagOrder([.title, .genre]))
    }
}

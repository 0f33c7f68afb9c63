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
        // The second artist comes after the composer, the year (a date) last: each run of values has its place.
        #expect(FileTags(properties: properties, inFileOrder: true).tags.tagOrder
                == TagOrder(valuesInFileOrder: [.date, .genre, .title, .artist, .composer, .artist, .albumArtist, .track, .date]))
        #expect(FileTags(properties: properties).tags.tagOrder.isEmpty, "the property map's order (by key) is no file's")
    }

    @Test func everyFurtherTagHasItsPlace() {
        for name in MoreTags.Name.allCases { #expect(TagOrder.Tag(name).moreTagName == name) }
        #expect(TagOrder.Tag.allCases.compactMap(\.moreTagName).count == MoreTags.Name.allCases.count)
        #expect(Set(TagOrder.Tag.allCases.map(\.mpdName)).count == TagOrder.Tag.allCases.count)
    }

    /// A Vorbis comment that interleaves a tag's values with another's (`ARTIST`, `TITLE`, `ARTIST`) is listed as
    /// mpd lists it, each value at its place — by the track's writer and by the library's snapshot alike.
    @Test func valuesInterleavedWithAnotherTagsAreListedWhereTheFileHasThem() {
        let properties: [(key: String, value: String)] = [
            ("ARTIST", "Fischer-Dieskau"), ("TITLE", "Erlkönig"), ("ARTIST", "Moore"), ("ARTIST", "Britten"), ("GENRE", "Lied"),
            ("TITLE", "The Erl-King"), ("COMPOSER", "Schubert"), ("GENRE", "Romantic"), ("COMPOSER", "Goethe"), ("GENRE", "Song"),
        ]
        let order = FileTags(properties: properties, inFileOrder: true).tags.tagOrder
        #expect(order.storedText == "Artist*1,Title*1,Artist,Genre*1,Title,Composer*1,Genre*1,Composer,Genre")
        #expect(order.tags == [.artist, .title, .genre, .composer])
        var track = LibraryTrack(path: "/music/a.flac", title: "Erlkönig", artist: "Fischer-Dieskau", album: nil,
                                 albumArtist: nil, genre: "Lied", year: nil, track: nil, lengthMicroseconds: 5_000_000)
        track.setArtists(["Fischer-Dieskau", "Moore", "Britten"], albumArtists: [])
        track.genres = ["Lied", "Romantic", "Song"]
        track.furtherValues.append(.title, "The Erl-King")
        track.moreTags.append(.composer, "Schubert")
        track.moreTags.append(.composer, "Goethe")
        track.tagOrder = order
        #expect(written(track) == [
            "file: a.ogg", "Artist: Fischer-Dieskau", "Title: Erlkönig", "Artist: Moore", "Artist: Britten", "Genre: Lied",
            "Title: The Erl-King", "Composer: Schubert", "Genre: Romantic", "Composer: Goethe", "Genre: Song",
            "Time: 5", "duration: 5.000",
        ])
        let table = MPDSongTable([("a.ogg", track)], folderPrefix: "/music/")
        var fromTable = MPDResponse()
        MPDSongWriter(musicFolder: "/music").write(table.song(at: 0), wanted: Self.wanted, into: &fromTable)
        #expect(String(decoding: fromTable.bytes, as: UTF8.self).split(separator: "\n").map(String.init) == written(track))
        // A place holding more values than the tag has lists what there is; the tag's last place lists the rest.
        track.tagOrder = TagOrder(storedText: "Artist*5,Title,Artist")
        #expect(written(track).prefix(5) == ["file: a.ogg", "Artist: Fischer-Dieskau", "Artist: Moore", "Artist: Britten", "Title: Erlkönig"])
    }

    @Test func theIndexTextComesBack() {
        let order = TagOrder([.musicBrainzTrack, .title, .movementNumber, .date])
        #expect(order.storedText == "MUSICBRAINZ_TRACKID,Title,MovementNumber,Date")
        #expect(TagOrder(storedText: order.storedText!) == order)
        #expect(TagOrder().storedText == nil)
        #expect(TagOrder(storedText: "Title,,Bogus,title,Title,Genre") == TagOrder([.title, .genre]))
        let interleaved = TagOrder(valuesInFileOrder: [.artist, .artist, .title, .artist])
        #expect(interleaved.storedText == "Artist*2,Title,Artist")
        #expect(TagOrder(storedText: interleaved.storedText!) == interleaved)
        // Hostile counts are left out; a place after its tag's last is too; a count on the last place means nothing.
        #expect(TagOrder(storedText: "Artist*0,Artist*-1,Artist*x,Artist*99999999999999999999,Title,Artist*2,Title") == TagOrder([.title, .artist]))
        #expect(TagOrder(storedText: "Artist*3,Title") == TagOrder([.artist, .title]))
    }
}

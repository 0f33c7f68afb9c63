import Foundation
import RepriseCore
import RepriseLibrary
import SQLiteKit
import Testing
import TestSupport

/// MusicBrainz ids in the index: kept and read back (checked again on the way out); an index of schema 3 gains the
/// columns, and its rows are read again at the next pass with what was measured of them kept.
@Suite struct MusicBrainzIndexTests {
    let folder: String
    static let ids = MusicBrainzIDs(recording: "0b2a3c4d-1111-2222-3333-444455556666", release: "1b2a3c4d-1111-2222-3333-444455556666",
                                    releaseTrack: "4b2a3c4d-1111-2222-3333-444455556666",
                                    artists: ["2b2a3c4d-1111-2222-3333-444455556666", "5b2a3c4d-1111-2222-3333-444455556666"],
                                    albumArtists: ["3b2a3c4d-1111-2222-3333-444455556666"])

    init() throws {
        folder = try makeTemporaryFolder("musicbrainz")
    }

    @Test func idsAreKeptAndAnIndexFromBeforeReadsItsFilesAgainKeepingTheirMeasurements() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/library.db", song = folder + "/a.flac"
        var track = LibraryTrack(path: FilePath(escaped: song), title: "A", artist: "B", lengthMicroseconds: 60_000_000)
        track.musicBrainz = Self.ids
        do {
            let store = try LibraryStore(path: path) { _ in }
            try store.store(track, root: folder, size: 10, modified: 1)
            #expect(try store.track(atPath: song)?.musicBrainz == Self.ids)
            #expect(try store.fileStates(root: folder)[song]?.isCurrent(size: 10, modified: 1) == true)
            let waiting = try #require(try store.tracksToMeasure(limit: 1).first)
            #expect(try store.storeMeasurement(MeasuredLoudness(integratedLUFS: -10, truePeak: 0.9), of: waiting))
        }
        // The index as schema 3 had it: without the columns (nor those of versions 5 to 9).
        do {
            let database = try Database(path: path)
            for column in ["mb_recording", "mb_release", "mb_release_track", "mb_artists", "mb_album_artists", "tags_version",
                           "artist_sort", "album_artist_sort", "album_sort", "encoding", "more_tags", "tag_order", "date", "further_values"] {
                try database.execute("ALTER TABLE tracks DROP COLUMN \(column)")
            }
            try database.execute("PRAGMA user_version = 3")
        }
        let store = try LibraryStore(path: path) { _ in }
        #expect(try store.track(atPath: song)?.musicBrainz == MusicBrainzIDs())
        #expect(try store.fileStates(root: folder)[song]?.isCurrent(size: 10, modified: 1) == false, "read again at the next pass")
        try store.store(track, root: folder, size: 10, modified: 1)
        #expect(try store.track(atPath: song)?.musicBrainz == Self.ids)
        #expect(try store.fileStates(root: folder)[song]?.isCurrent(size: 10, modified: 1) == true)
        #expect(try store.measuredLoudness(atPath: song)?.track.integratedLUFS == -10, "the same file: its measurement holds")
        // What the index holds is checked on the way out like any file's contents.
        try Database(path: path).execute("UPDATE tracks SET mb_release = 'not-an-id', mb_artists = 'x;\(Self.ids.artists[1].uppercased())'")
        let read = try #require(try store.track(atPath: song)?.musicBrainz)
        #expect(read.release == nil && read.artists == [Self.ids.artists[1]])
    }

    /// Every genre of a file is kept (joined in one column) and found: by a selector (without case), in the names
    /// listed (each once) and in the outline (the track under each).
    @Test func everyGenreIsKeptAndFound() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try LibraryStore(path: folder + "/library.db") { _ in }
        var both = LibraryTrack(path: FilePath(escaped: folder + "/two.ogg"), title: "Two", artist: "Band", lengthMicroseconds: 1)
        both.genres = ["Rock", "Folk"]
        let one = LibraryTrack(path: FilePath(escaped: folder + "/one.ogg"), title: "One", artist: "Singer", genre: "folk", lengthMicroseconds: 1)
        try store.store(both, root: folder, size: 1, modified: 1)
        try store.store(one, root: folder, size: 1, modified: 1)
        #expect(try store.track(atPath: both.path.escaped)?.genres == ["Rock", "Folk"])
        #expect(try store.tracks(matching: .genre("FOLK")).map(\.title) == ["One", "Two"].sorted())
        #expect(try store.tracks(matching: .genre("Fo")).isEmpty, "a whole genre, not a part of one")
        #expect(try store.names(.genres) == ["Folk", "Rock"] || store.names(.genres) == ["folk", "Rock"])
        #expect(try store.outline().genres["Rock"] == 1)
        // A separator inside a value is no second genre: a hostile file cannot make one value into hundreds.
        var hostile = LibraryTrack(path: FilePath(escaped: folder + "/three.ogg"), title: "Three", lengthMicroseconds: 1)
        hostile.genres = ["A\u{1F}B"]
        try store.store(hostile, root: folder, size: 1, modified: 1)
        #expect(try store.track(atPath: hostile.path.escaped)?.genres == ["A B"])
    }

    /// The sort names a file gives are kept (and read back cut as tags are); an index of schema 4 gains their
    /// columns and reads its files again.
    @Test func sortNamesAreKeptAndAnIndexFromBeforeGainsThem() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/library.db", song = folder + "/a.flac"
        var track = LibraryTrack(path: FilePath(escaped: song), title: "Help!", artist: "The Beatles", album: "Help!", lengthMicroseconds: 1)
        track.sortNames = SortNames(artist: "Beatles, The", albumArtist: "Beatles, The", album: "Help")
        do {
            let store = try LibraryStore(path: path) { _ in }
            try store.store(track, root: folder, size: 10, modified: 1)
            #expect(try store.track(atPath: song)?.sortNames == track.sortNames)
        }
        do {
            let database = try Database(path: path)
            for column in ["artist_sort", "album_artist_sort", "album_sort", "encoding", "more_tags", "tag_order", "date", "further_values"] {
                try database.execute("ALTER TABLE tracks DROP COLUMN \(column)")
            }
            try database.execute("PRAGMA user_version = 4; UPDATE tracks SET tags_version = 2")
        }
        let store = try LibraryStore(path: path) { _ in }
        #expect(try store.track(atPath: song)?.sortNames == SortNames())
        #expect(try store.fileStates(root: folder)[song]?.isCurrent(size: 10, modified: 1) == false, "read again at the next pass")
        // From the file's tags: the first of each, empty ones left out.
        let tags = FileTags(properties: [("ARTISTSORT", "Beatles, The"), ("ARTISTSORT", "Other"), ("ALBUMSORT", ""), ("ALBUMARTISTSORT", "Beatles, The")])
        #expect(tags.sortNames == SortNames(artist: "Beatles, The", albumArtist: "Beatles, The", album: nil))
    }
}

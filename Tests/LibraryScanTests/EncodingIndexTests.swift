import Foundation
import RepriseCore
import RepriseLibrary
import SQLiteKit
import Testing
import TestSupport

/// How each track's audio is encoded, when its file changed, its further tags, its date as the file has it and the later
/// values of its one-valued tags, in the index: kept and read back (a value the index holds that Reprise did not store
/// is left out); an index of schema 5 gains the columns, and its rows are read again at the next pass. Files read by
/// TagLib carry it from their headers.
@Suite struct EncodingIndexTests {
    @Test func keptReadBackAndAnIndexFromBeforeReadsItsFilesAgain() throws {
        let folder = try makeTemporaryFolder("encoding")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/library.db", song = folder + "/a.flac", other = folder + "/b.flac"
        var track = LibraryTrack(path: FilePath(escaped: song), title: "A", lengthMicroseconds: 1)
        track.fileFacts.encoding = AudioEncoding(codec: .flac, sampleRate: 96_000, channels: 2, bitsPerSample: 24)
        track.moreTags.append(.composer, "Mahler")
        track.moreTags.append(.movementNumber, "4")
        track.tagOrder = TagOrder([.movementNumber, .title, .composer])
        track.date = "1958-03-21"
        track.furtherValues.append(.title, "The Erl-King")
        track.furtherValues.append(.date, "1959")
        track.furtherValues.append(.title, "Le Roi des Aulnes")
        do {
            let store = try LibraryStore(path: path) { _ in }
            try store.store(track, root: folder, size: 10, modified: 1_764_307_445_123_456_789)
            try store.store(LibraryTrack(path: FilePath(escaped: other), title: "B"), root: folder, size: 10, modified: -5)
            let read = try #require(try store.track(atPath: song))
            #expect(read.fileFacts == FileFacts(modifiedSeconds: 1_764_307_445, encoding: track.fileFacts.encoding))
            #expect(read.moreTags == track.moreTags)
            #expect(read.tagOrder == track.tagOrder)
            #expect(read.date == "1958-03-21" && read.furtherValues == track.furtherValues)
            #expect(read.furtherValues[.title] == ["The Erl-King", "Le Roi des Aulnes"])
            #expect(try store.track(atPath: other)?.fileFacts == FileFacts())
        }
        do {
            let database = try Database(path: path)
            try database.execute("UPDATE tracks SET encoding = 'flac:44100:999:2', tag_order = 'Title,Nonsense,Title,Date', "
                                 + "further_values = 'Nonsense\u{1F}x\u{1E}Album\u{1E}Album\u{1F}Second' WHERE path = '\(other)'")
        }
        let odd = try LibraryStore(path: path) { _ in }.track(atPath: other)
        #expect(odd?.fileFacts.encoding == nil)
        #expect(odd?.tagOrder == TagOrder([.title, .date]), "an unknown name left out, a tag placed once")
        #expect(odd?.furtherValues.values == [.album: ["Second"]], "an unknown name and an entry without a value left out")
        do {
            let database = try Database(path: path)
            try database.execute("ALTER TABLE tracks DROP COLUMN encoding; ALTER TABLE tracks DROP COLUMN more_tags; "
                                 + "ALTER TABLE tracks DROP COLUMN tag_order; ALTER TABLE tracks DROP COLUMN date; "
                                 + "ALTER TABLE tracks DROP COLUMN further_values")
            try database.execute("PRAGMA user_version = 5; UPDATE tracks SET tags_version = 3; CREATE INDEX tracks_root ON tracks(root); "
                                 + "CREATE INDEX tracks_folder ON tracks(folder)")
        }
        let store = try LibraryStore(path: path) { _ in }
        #expect(try store.track(atPath: song)?.fileFacts.encoding == nil)
        #expect(try Database(path: path).prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('tracks_root', 'tracks_folder')")
                    .firstInt() == 0, "the indexes on root and folder dropped (version 10)")
        #expect(try store.fileStates(root: folder)[song]?.isCurrent(size: 10, modified: 1_764_307_445_123_456_789) == false,
                "read again at the next pass")
    }

    @Test func readFromTheHeaders() throws {
        let folder = try makeTemporaryFolder("encoding-files")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try generateTone(at: folder + "/a.flac", seconds: 1, tags: "title=(string)A", encoder: ["flacenc"])
        let read = try #require(TrackFileReader(art: nil).read(folder + "/a.flac"))
        #expect(read.fileFacts.encoding == AudioEncoding(codec: .flac, sampleRate: 44_100, channels: 2, bitsPerSample: 16))
    }
}

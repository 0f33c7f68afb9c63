import Foundation
import Glibc
import RepriseCore
import RepriseLibrary
import Testing
import TestSupport

/// The library pass over real files: walking, reading (TagLib) and writing overlapped, and a second pass that reads
/// only what changed.
@Suite struct ScanPipelineTests {
    let folder: String

    init() throws {
        folder = try makeTemporaryFolder("scan")
    }

    func scanner() throws -> (LibraryScanner, LibraryStore) {
        let store = try LibraryStore(path: folder + "/library.db") { _ in }
        return (LibraryScanner(store: store, art: nil), store)
    }

    @Test func aPassIndexesEveryFileAndTheNextReadsOnlyWhatChanged() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let music = folder + "/Music"
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
        let paths = try maker.library(count: 2_000, in: music)
        // A cover beside one album (any case), a link to a folder outside (never followed), a hidden file.
        let albumFolder = String(paths[0][..<paths[0].lastIndex(of: "/")!])
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: albumFolder + "/Cover.PNG"))
        let outside = folder + "/Outside"
        try maker.library(count: 10, in: outside)
        symlink(outside, music + "/Linked")
        try maker.file(tags: [("TITLE", "Hidden")]).write(to: URL(fileURLWithPath: music + "/.hidden.flac"))
        let (scanner, store) = try scanner()
        var last = LibraryScanner.Progress()
        let started = Date()
        try scanner.scan(roots: [music]) { last = $0 }
        print("2,000 FLAC files indexed in \(Date().timeIntervalSince(started)) s")
        #expect(last.read == 2_000 && last.seen == 2_000 && last.total == 2_000)
        #expect(try store.counts().tracks == 2_000)
        let found = try store.search(LibraryQuery("amber delta 60"), limit: 50).first { $0.title == "Song amber delta 60" }
        #expect(found?.artist == "Artist amber 0" && found?.album == "Album garnet 6" && found?.track == 1, "\(String(describing: found))")
        #expect(found?.year == 1980 && found?.genre == "ember")
        #expect(found.flatMap(\.lengthMicroseconds).map { abs($0 - 1_000_000) < 50_000 } == true)
        let covered = try store.tracks(matching: .folder(FilePath(escaped: albumFolder)))
        #expect(covered.count == 10 && covered.allSatisfy { $0.cover == albumFolder + "/Cover.PNG" })
        #expect(try store.search(LibraryQuery("hidden"), limit: 5).isEmpty)

        // Nothing changed: nothing read. Then 10 files changed, 5 removed.
        try scanner.scan(roots: [music]) { last = $0 }
        #expect(last.read == 0 && last.removed == 0 && last.seen == 2_000)
        for path in paths[100..<110] {
            try maker.file(tags: [("TITLE", "Changed Zephyr"), ("ARTIST", "Someone Else")]).write(to: URL(fileURLWithPath: path))
        }
        for path in paths[200..<205] { unlink(path) }
        try scanner.scan(roots: [music]) { last = $0 }
        #expect(last.read == 10 && last.removed == 5 && last.seen == 1_995)
        #expect(try store.search(LibraryQuery("zephyr"), limit: 50).count == 10)
        #expect(try store.counts().tracks == 1_995)
    }

    /// A change inotify saw is applied only where the index does not already have the file as it is: a file a pass
    /// has read since is not read again (and no change is announced for it); a removal counts only for a file it had.
    @Test func aChangeSeenAfterAPassReadItChangesNothing() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let music = folder + "/Music"
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: folder)
        let paths = try maker.library(count: 20, in: music)
        let (scanner, store) = try scanner()
        try scanner.scan(roots: [music]) { _ in }
        #expect(try scanner.update(path: paths[0], root: music) == false, "read by the pass as it is")
        try maker.file(tags: [("TITLE", "Edited Later")]).write(to: URL(fileURLWithPath: paths[1]))
        #expect(try scanner.update(path: paths[1], root: music) == true)
        #expect(try scanner.update(path: paths[1], root: music) == false, "already read")
        #expect(try store.search(LibraryQuery("edited later"), limit: 5).count == 1)
        try scanner.scan(roots: [music]) { _ in }
        try maker.file(tags: [("TITLE", "Edited Again")]).write(to: URL(fileURLWithPath: paths[2]))
        try scanner.scan(roots: [music]) { _ in } // the pass reads it before the change is applied
        #expect(try scanner.update(path: paths[2], root: music) == false)
        try "not music".write(toFile: music + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(try scanner.update(path: music + "/notes.txt", root: music) == false)
        unlink(paths[3])
        #expect(try scanner.update(path: paths[3], root: music) == true, "a file it had is forgotten")
        #expect(try scanner.update(path: paths[3], root: music) == false)
        #expect(try store.counts().tracks == 19)
    }

    /// A large pass stops keeping the full-text index row by row and rebuilds it at its end; a process that ends
    /// in between leaves rows the index does not know, which it finds again when next opened.
    @Test func aPassCutShortInBulkModeIsSearchableAfterTheNextOpen() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let (_, store) = try scanner()
            try store.suspendTextIndexing()
            try store.batch {
                try store.store(LibraryTrack(path: FilePath(escaped: folder + "/a.flac"), title: "Orphaned Quokka"), root: folder,
                                size: 1, modified: 1)
            }
            #expect(try store.search(LibraryQuery("quokka"), limit: 5).isEmpty)
        }
        let (_, reopened) = try scanner()
        #expect(try reopened.search(LibraryQuery("quokka"), limit: 5).map(\.title) == ["Orphaned Quokka"])
        #expect(!reopened.textIndexingSuspended)
    }
}

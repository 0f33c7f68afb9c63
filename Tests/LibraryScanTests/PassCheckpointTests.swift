import Foundation
import RepriseCore
import RepriseLibrary
import Testing
import TestSupport

/// A pass holds SQLite's automatic checkpoints back, so that copying its WAL pages into the database (and the syncs
/// that go with it) waits until the pass is over and the library searchable; the service then checkpoints. What a
/// pass wrote is in the index all along (readers see the WAL); only where the pages lie changes.
@Suite struct PassCheckpointTests {
    /// 12,000 rows in batches of 500, as a first index writes them (some 2,500 pages, past SQLite's 1,000 before a
    /// checkpoint); the database file's size and the WAL's after.
    func written(holding: Bool, in folder: String) throws -> (database: Int, wal: Int, store: LibraryStore) {
        let path = folder + "/library.db"
        let store = try LibraryStore(path: path) { _ in }
        store.holdCheckpoints(holding)
        for batch in 0..<24 {
            try store.batch {
                for index in 0..<500 {
                    let number = batch * 500 + index
                    let track = LibraryTrack(path: FilePath(escaped: folder + "/Artist \(number / 100)/Album/\(number) Song.flac"),
                                             title: "Song \(number) " + String(repeating: "long title ", count: 10),
                                             artist: "Artist \(number / 100)", album: "Album \(number / 10)")
                    try store.store(track, root: folder, size: 1000, modified: 1)
                }
            }
        }
        func size(_ file: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0 }
        return (size(path), size(path + "-wal"), store)
    }

    @Test func aPassesPagesReachTheDatabaseAtTheCheckpointAfterIt() throws {
        let folder = try makeTemporaryFolder("checkpoint")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let held = try written(holding: true, in: folder)
        // Written, and readable: the rows are there, their pages still in the WAL.
        #expect(try held.store.counts().tracks == 12_000)
        #expect(held.wal > 8 * 1024 * 1024, "WAL \(held.wal) bytes")
        #expect(held.database < 256 * 1024, "database \(held.database) bytes: checkpointed during the pass")
        try held.store.checkpoint()
        let after = ((try? FileManager.default.attributesOfItem(atPath: folder + "/library.db"))?[.size] as? Int) ?? 0
        #expect(after > 4 * 1024 * 1024, "database \(after) bytes after the checkpoint")
        #expect(try held.store.counts().tracks == 12_000)
    }

    @Test func withoutAPassSQLitesOwnCheckpointsCopyAsTheyGo() throws {
        let folder = try makeTemporaryFolder("checkpoint")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try written(holding: false, in: folder)
        #expect(plain.database > 2 * 1024 * 1024, "database \(plain.database) bytes")
    }
}

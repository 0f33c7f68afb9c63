import Foundation
import Glibc
import LoopKit
import PosixFiles
import CoreTestDoubles
import RepriseCore
import Testing
@testable import RepriseLibrary

/// The library says Scanning from the moment it exists until its first pass has ended, so a client (or a test) that
/// waits for the pass to end never takes a library whose index is not yet open for an empty one; with no music
/// folder and no index it says it is not scanning once it knows.
@Suite struct LibraryStartTests {
    let feed = ChangeFeed()
    /// Runs `loop` until `done` holds (at most 20 s).
    func run(_ loop: EventLoop, until done: @escaping () -> Bool) {
        let tick = loop.every(milliseconds: 10) { if done() { loop.quit() } }
        let bound = loop.once(afterMilliseconds: 20_000) { loop.quit() }
        loop.run()
        tick.cancel()
        bound.cancel()
    }

    func library(_ folders: [String], loop: EventLoop, in directory: String) throws -> LibraryService {
        try #require(LibraryService(folders: folders.map(FilePath.init(escaped:)), database: FilePath(escaped: directory + "/library.db"),
                                    art: ArtCache(directory: directory + "/art"), fileSystem: PosixFileSystem(), loop: loop,
                                    log: Log(verbose: false), feed: feed, measuresLoudness: false))
    }

    @Test func scanningIsTrueFromTheStartUntilTheFirstPassEnds() throws {
        let directory = try temporaryDirectory()
        defer { removeTree(directory) }
        let music = directory + "/Music"
        mkdir(music, 0o700)
        let loop = try #require(EventLoop())
        let library = try library([music], loop: loop, in: directory)
        var seen: [Bool] = []
        feed.listen(ChangeClosure { if $0.aspects.contains(.library) { seen.append(library.status.scanning) } })
        #expect(library.status.scanning, "before the index is even opened")
        library.start()
        #expect(library.status.scanning)
        run(loop) { !library.status.scanning }
        #expect(!library.status.scanning && library.status.counts.tracks == 0)
        #expect(seen.first == true && seen.last == false && seen.drop(while: { $0 }).allSatisfy { !$0 },
                "true until the pass ended, then false: \(seen)")
        library.stop()
    }

    @Test func noFolderAndNoIndexSaysNotScanningOnceItKnows() throws {
        let directory = try temporaryDirectory()
        defer { removeTree(directory) }
        let loop = try #require(EventLoop())
        let library = try library([directory + "/nowhere"], loop: loop, in: directory)
        library.start()
        run(loop) { !library.status.scanning }
        #expect(!library.status.scanning)
        library.stop()
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-library-start-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func removeTree(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
}

import CoreTestDoubles
import Foundation
import PosixFiles
import RepriseCore
import SDBus
import Testing
@testable import RepriseInterfaces

/// MediaServer2's SearchObjects and listings over a library of thousands of containers: the loop only hands the work
/// to the library's worker — it reads the outline once, whatever the library's size, and describes nothing — and the
/// answer, made there, holds every container and track, paged as asked, with the page's items readable afterwards.
@Suite struct MediaServerSearchTests {
    /// `count` tracks as a compilation-heavy library has them: each its own album, ten to an artist, a folder an album.
    static func library(_ count: Int) -> MemoryLibrary {
        let tracks = (0..<count).map { index in
            LibraryTrack(path: FilePath(escaped: "/music/Artist \(index / 10)/Album \(index)/01.flac"), title: "Song \(index)",
                         artist: "Artist \(index / 10)", album: "Album \(index)", genre: "g\(index % 7)", track: 1, id: Int64(index + 1))
        }
        return MemoryLibrary(tracks: tracks, folders: ["/music"])
    }

    static func tree(_ library: MemoryLibrary) -> MediaServerTree {
        MediaServerTree(library: library, playlists: PlaylistLibrary(directories: [], fileSystem: PosixFileSystem()))
    }

    static let everything = try! MediaQuery(parsing: #"upnp:class derivedfrom "object""#)

    @Test func aSearchOverEveryContainerIsMadeOnTheWorker() {
        let library = Self.library(3000)
        let tree = Self.tree(library)
        library.holdsWork = true
        let readsBefore = library.outlineReads
        var answer: [[String: DBusValue]]?
        tree.search(MediaServerTree.root, query: Self.everything, offset: 0, max: 0, filter: ["Path", "Type"]) { answer = $0 }
        #expect(answer == nil, "nothing is described before the worker runs")
        #expect(library.outlineReads - readsBefore <= 2, "the loop read the outline \(library.outlineReads - readsBefore) times")
        library.runHeldWork()
        let found = answer ?? []
        // Below the root: 5 branches, 300 artists with 3,000 albums, 3,000 albums, 7 genres, the root folder with
        // 300 artist folders and 3,000 album folders; then the 3,000 tracks.
        let containers = 5 + 300 + 3000 + 3000 + 7 + 1 + 300 + 3000
        #expect(found.count == containers + 3000)
        #expect(found.filter { $0["Type"] == .string("music") }.count == 3000)
        #expect(found.prefix(containers).allSatisfy { $0["Type"] == .string("container") }, "containers first")
    }

    @Test func aPageIsDescribedAndItsItemsCanBeReadAfterwards() {
        let library = Self.library(200)
        let tree = Self.tree(library)
        let music = try! MediaQuery(parsing: #"Type = "music" and DisplayName contains "Song 1""#)
        var page: [[String: DBusValue]] = []
        tree.search(MediaServerTree.root, query: music, offset: 3, max: 4, filter: ["*"]) { page = $0 }
        // "Song 1", "Song 10"…"Song 19", "Song 100"…"Song 199": 111 matches; the page is the 4th to the 7th.
        #expect(page.count == 4)
        for item in page {
            guard case .objectPath(let path)? = item["Path"] else { Issue.record("no path in \(item)"); continue }
            #expect(tree.properties(at: path, interface: MediaServerTree.itemInterface) != nil, "\(path) is readable")
            #expect(tree.properties(at: path, interface: MediaServerTree.objectInterface)?.first { $0.0 == "DisplayName" }?.1 == item["DisplayName"])
        }
    }

    @Test func aLongListingIsMadeOnTheWorkerToo() {
        let library = Self.library(3000)
        let tree = Self.tree(library)
        library.holdsWork = true
        var answer: [[String: DBusValue]]?
        tree.list(MediaServerTree.root + "/Albums", offset: 10, max: 0, filter: ["DisplayName"], containers: true, itemsToo: true) { answer = $0 }
        #expect(answer == nil)
        library.runHeldWork()
        #expect(answer?.count == 2990)
    }
}

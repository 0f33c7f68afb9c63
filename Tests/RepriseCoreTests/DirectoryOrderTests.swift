import CoreTestDoubles
import Foundation
import Testing
import PosixFiles
@testable import RepriseCore

@Suite struct DirectoryOrderTests {
    @Test func directoriesAreWalkedRecursivelyAndLoopsEnteredOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-walk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/CD 2", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/CD 10", withIntermediateDirectories: true)
        for path in ["/b.ogg", "/CD 2/x.flac", "/CD 10/y.mp3", "/CD 10/notes.txt"] {
            _ = FileManager.default.createFile(atPath: dir + path, contents: Data([1]))
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/CD 2/loop", withDestinationPath: dir)
        let result = MediaLocation.expand([dir], relativeTo: "/", in: PosixFileSystem())
        #expect(result.uris.map { String($0.dropFirst("file://".count + dir.count)) } == ["/b.ogg", "/CD%202/x.flac", "/CD%2010/y.mp3"])
        #expect(result.directoryGroups == [0..<3])
    }

    @Test func aDirectoryGroupIsSortedByAlbumDiscAndTrackOnceRead() {
        let (player, engine, observer) = makePlayer(tracks: 0)
        let uris = ["file:///m/a.ogg", "file:///m/b.ogg", "file:///m/c.ogg", "file:///m/z/d.ogg"]
        player.enqueue(["http://example.invalid/radio"] + uris, directoryGroups: [1..<5])
        player.goTo(id: player.trackIDs[1])
        let tags = [TrackTags(album: "B", trackNumber: 1, discNumber: 2), TrackTags(album: "B", trackNumber: 2, discNumber: 1),
                    TrackTags(album: "B", trackNumber: 1, discNumber: 1), TrackTags(album: "A", trackNumber: 9)]
        var taken: [Int] = []
        while let entry = player.takeEntryToDescribe() { taken.append(entry.id) }
        #expect(taken.first == player.trackIDs[1]) // the current entry is read first
        #expect(Set(taken) == Set(player.trackIDs))
        observer.reset()
        for (index, id) in player.trackIDs.dropFirst().enumerated() {
            #expect(player.track(id: player.trackIDs[0])?.url == "http://example.invalid/radio")
            player.entryDescribed(id: id, tags: tags[index], lengthMicroseconds: 1_000_000, artURL: nil)
        }
        player.entryDescribed(id: player.trackIDs[0], tags: nil, lengthMicroseconds: nil, artURL: nil)
        #expect(player.queue.entries.map(\.uri) == ["http://example.invalid/radio", "file:///m/z/d.ogg", "file:///m/c.ogg",
                                                    "file:///m/b.ogg", "file:///m/a.ogg"])
        #expect(observer.trackListChanges.contains(.replaced))
        #expect(observer.trackListChanges.filter { if case .metadataChanged = $0 { true } else { false } }.count == 4)
        // Playback had just begun with a.ogg (first by name): it moves to the album order's first entry.
        #expect(player.queue.current?.uri == "file:///m/z/d.ogg")
        #expect(engine.loads.last == "file:///m/z/d.ogg")
    }

    /// Other entries' tags are not saved; the current entry's are (a restart answers with them at once).
    @Test func tagsReadInTheBackgroundAloneLeaveTheSavedStateAlone() {
        let (player, _, _) = makePlayer(tracks: 2)
        let current = player.takeEntryToDescribe()!
        #expect(current.id == player.queue.current?.id)
        player.entryDescribed(id: current.id, tags: TrackTags(title: "C"), lengthMicroseconds: 5, artURL: nil)
        #expect(player.lastChangeAffectsSavedState)
        let entry = player.takeEntryToDescribe()!
        player.entryDescribed(id: entry.id, tags: TrackTags(title: "T"), lengthMicroseconds: 5, artURL: nil)
        #expect(!player.lastChangeAffectsSavedState)
        #expect(player.track(id: entry.id)?.title == "T")
        player.next()
        #expect(player.lastChangeAffectsSavedState)
    }

    @Test func rearrangingUnderShuffleKeepsThePlayOrderOfEveryEntry() {
        var queue = PlayQueue()
        let ids = queue.append((1...6).map(uri))
        var generator = SystemRandomNumberGenerator()
        queue.setShuffled(true, using: &generator)
        queue.move(to: 2)
        let before = queue.playOrder.map(\.id), current = queue.current?.id
        queue.rearrange([ids[3], ids[2], ids[1]])
        #expect(queue.playOrder.map(\.id) == before)
        #expect(queue.current?.id == current)
        #expect(queue.entries.map(\.id) == [ids[0], ids[3], ids[2], ids[1], ids[4], ids[5]])
        for id in ids { #expect(queue.entry(withID: id)?.id == id) }
    }
}

import CoreTestDoubles
import Foundation
import Testing
@testable import RepriseCore

/// Requests whose URIs take long to resolve (a playlist) wait for the resolver; the queue is edited when the
/// answer comes, and requests finish in the order they came.
@Suite final class DeferredResolutionTests {
    /// This test's own temporary folder, removed after it.
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-unit-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A playlist of `count` http entries in the test's folder.
    private func playlist(_ count: Int) throws -> String {
        let file = folder.appendingPathComponent("list.m3u")
        try (1...count).map { "http://list.example/\($0).ogg" }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        return MediaURI.file(path: file.path)
    }

    @Test func aPlaylistWaitsForTheResolverAndLaterRequestsWaitBehindIt() throws {
        let resolver = HeldResolver()
        let (player, _, observer) = makePlayer(tracks: 2, resolver: resolver)
        let list = try playlist(100)
        var outcomes: [String: PlayerError?] = [:]
        player.addTrack(list, after: player.trackIDs[0], makeCurrent: false) { outcomes["list"] = $0 }
        player.addTrack("https://radio.example/a", after: nil, makeCurrent: false) { outcomes["single"] = $0 }
        #expect(resolver.waitingCount == 2)
        #expect(outcomes.isEmpty && player.queue.count == 2)

        resolver.answerNext()
        #expect(outcomes.count == 1 && outcomes["list"]! == nil)
        #expect(player.queue.count == 102)
        #expect(player.queue.entries[1].uri == "http://list.example/1.ogg")
        #expect(player.queue.entries[100].uri == "http://list.example/100.ogg")
        #expect(player.queue.entries[101].uri == uri(2))
        resolver.answerNext()
        #expect(outcomes["single"]! == nil)
        #expect(player.queue.entries.first?.uri == "https://radio.example/a")
        #expect(observer.trackListChanges.filter { if case .added = $0 { true } else { false } }.count == 101)

        // Quick requests no longer wait once nothing is under way.
        player.addTrack("https://radio.example/b", after: nil, makeCurrent: false) { outcomes["quick"] = $0 }
        #expect(resolver.waitingCount == 0 && outcomes["quick"]! == nil)
    }

    @Test func theEntryToAddAfterRemovedMeanwhileIsAClearError() throws {
        let resolver = HeldResolver()
        let (player, _, _) = makePlayer(tracks: 2, resolver: resolver)
        let list = try playlist(3)
        let after = player.trackIDs[1]
        var outcome: PlayerError??
        player.addTrack(list, after: after, makeCurrent: false) { outcome = $0 }
        player.removeTrack(id: after)
        resolver.answerNext()
        guard case .invalidArgument(let message)?? = outcome else { Issue.record("no error: \(String(describing: outcome))"); return }
        #expect(message.contains("removed"))
        #expect(player.queue.count == 1)
    }

    @Test func openingAPlaylistPlaysItsFirstEntryOnceResolved() throws {
        let resolver = HeldResolver()
        let (player, engine, _) = makePlayer(tracks: 1, resolver: resolver)
        let list = try playlist(70)
        player.open(list) { _ in }
        #expect(engine.loads.isEmpty)
        resolver.answerNext()
        #expect(engine.loads == ["http://list.example/1.ogg"])
        #expect(player.queue.count == 71)
    }

    /// A client sending playlist after playlist is told at once that the player is busy, instead of making every
    /// request after them wait; quick requests still queue, and once the playlists are read more are taken again.
    @Test func playlistsBeyondTheLimitAreRefusedAsBusyAtOnce() throws {
        let resolver = HeldResolver()
        let (player, _, _) = makePlayer(tracks: 1, resolver: resolver)
        let list = try playlist(3)
        var outcomes: [PlayerError?] = []
        for _ in 0..<Player.maximumLongResolutions { player.appendTracks([list]) { outcomes.append($0) } }
        player.addTrack("https://radio.example/a", after: nil, makeCurrent: false) { outcomes.append($0) }
        #expect(outcomes.isEmpty && resolver.waitingCount == Player.maximumLongResolutions + 1)

        var refused: PlayerError??
        player.open(list) { refused = $0 }
        guard case .busy(let message)?? = refused else { Issue.record("not refused: \(String(describing: refused))"); return }
        #expect(message.contains("\(Player.maximumLongResolutions) playlists"))
        #expect(resolver.waitingCount == Player.maximumLongResolutions + 1)

        while resolver.waitingCount > 0 { resolver.answerNext() }
        #expect(outcomes.count == Player.maximumLongResolutions + 1 && outcomes.allSatisfy { $0 == nil })
        #expect(player.queue.count == 1 + 3 * Player.maximumLongResolutions + 1)
        player.open(list) { _ in }
        #expect(resolver.waitingCount == 1)
    }

    @Test func manyEntriesInsertedInTheMiddleKeepListAndPlayOrder() {
        var queue = PlayQueue()
        let first = queue.append((1...1000).map { "a\($0)" })
        queue.move(to: 10)
        let inserted = queue.insert((1...500).map { "b\($0)" }, after: first[499])
        #expect(inserted?.position == 500)
        #expect(queue.entries.map(\.uri) == (1...500).map { "a\($0)" } + (1...500).map { "b\($0)" } + (501...1000).map { "a\($0)" })
        #expect(queue.playOrder.map(\.uri) == queue.entries.map(\.uri))
        #expect(queue.current?.uri == "a11")
        #expect(queue.insert(["x"], after: 99_999) == nil)
    }
}

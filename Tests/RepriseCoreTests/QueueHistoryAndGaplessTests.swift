import CoreTestDoubles
import Testing
@testable import RepriseCore

/// What actually played (history, Previous under shuffle) and gapless hand-over at track boundaries.
@Suite struct QueueHistoryAndGaplessTests {
    @Test func previousUnderShuffleGoesBackToWhatActuallyPlayed() {
        let (player, _, _) = makePlayer(tracks: 20)
        player.setShuffle(true)
        player.play()
        var played = [player.queue.current!.id]
        // Jump somewhere in the middle of the shuffled order (so Next and the end of a track have somewhere to go).
        player.goTo(id: player.queue.playOrder[5].id)
        played.append(player.queue.current!.id)
        player.next()
        played.append(player.queue.current!.id)
        player.engineDidReachEnd()
        played.append(player.queue.current!.id)
        #expect(player.canGoPrevious)
        for expected in played.reversed().dropFirst() {
            player.previous()
            #expect(player.queue.current?.id == expected)
        }
        #expect(player.status == .playing)
        // Back at the first entry of the shuffle with no history left: nothing before it.
        #expect(!player.canGoPrevious)
    }

    @Test func historySkipsRemovedEntriesAndPreviousWithoutShuffleIsListOrder() {
        let (player, _, _) = makePlayer(tracks: 5)
        player.play()
        player.goTo(id: player.trackIDs[3])
        player.goTo(id: player.trackIDs[1])
        #expect(player.queue.playedEntries.map(\.uri) == [uri(1), uri(4)])
        player.removeTrack(id: player.trackIDs[3])
        #expect(player.queue.playedEntries.map(\.uri) == [uri(1)])
        player.previous() // list order: the entry before
        #expect(player.queue.current?.uri == uri(1))
        player.setShuffle(true)
        player.goTo(id: player.trackIDs[2])
        player.previous()
        #expect(player.queue.current?.uri == uri(1))
    }

    @Test func unshufflingReturnsToListOrderAtTheCurrentEntry() {
        let (player, _, _) = makePlayer(tracks: 10)
        player.setShuffle(true)
        player.next()
        player.next()
        let current = player.queue.current!
        player.setShuffle(false)
        #expect(player.queue.current == current)
        #expect(player.queue.playOrder.map(\.uri) == (1...10).map(uri))
        let index = player.trackIDs.firstIndex(of: current.id)!
        player.next()
        // The entry after it in list order; from the last one, Next stops and keeps the last entry.
        #expect(player.queue.current?.id == (index + 1 < 10 ? player.trackIDs[index + 1] : current.id))
    }

    @Test func theEngineIsToldWhatFollowsForEachLoopStatus() {
        let (player, engine, _) = makePlayer(tracks: 3)
        #expect(engine.preparedNext == nil) // nothing loaded
        player.play()
        #expect(engine.preparedNext == uri(2))
        player.setLoopStatus(.track)
        #expect(engine.preparedNext == uri(1))
        player.setLoopStatus(.none)
        player.goTo(id: player.trackIDs[2])
        #expect(engine.preparedNext == nil) // last entry, no loop
        player.setLoopStatus(.playlist)
        #expect(engine.preparedNext == uri(1))
        player.stop()
        #expect(engine.preparedNext == nil)
    }

    @Test func theBoundaryMovesToTheNextEntryWithoutReloading() {
        let (player, engine, observer) = makePlayer(tracks: 3)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        let loadsBefore = engine.loads.count
        player.engineDidStartNextStream(uri: uri(2), seekable: true)
        #expect(player.queue.current?.uri == uri(2))
        #expect(player.announcedTrack?.url == uri(2))
        #expect(player.status == .playing && player.canSeek)
        #expect(engine.loads.count == loadsBefore)
        #expect(engine.preparedNext == uri(3))
        #expect(observer.seeks.isEmpty)
        #expect(player.queue.playedEntries.map(\.uri) == [uri(1)])
    }

    @Test func aHandoverOvertakenByEditsLoadsWhatFollowsNow() {
        let (player, engine, observer) = makePlayer(tracks: 3)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        // Handed uri(2) over, then the user asked to repeat the track.
        player.setLoopStatus(.track)
        player.engineDidStartNextStream(uri: uri(2), seekable: true)
        #expect(player.queue.current?.uri == uri(1))
        #expect(engine.loads.last == uri(1))
        #expect(observer.seeks == [0])
        // Handed over while the next entry was removed at the end of the list: the queue ends.
        player.setLoopStatus(.none)
        player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        player.goTo(id: player.trackIDs[1])
        player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        player.removeTrack(id: player.trackIDs[2])
        player.engineDidStartNextStream(uri: uri(3), seekable: true)
        #expect(player.status == .stopped)
    }

    @Test func aHandedOverStreamThatFailsIsSkipped() {
        let (player, engine, _) = makePlayer(tracks: 3)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        player.engineDidFailNextStream("could not decode")
        #expect(player.queue.current?.uri == uri(3))
        #expect(engine.loads.last == uri(3))
        #expect(player.status == .playing)
    }

    /// An opened file so small playbin read it whole and took the next URI before failing (a text file, say): the
    /// failure is the opened file's, so the open is answered with it and what it interrupted plays on.
    @Test func aFailureBeforeThePrerollIsTheLoadedStreamsEvenWithTheNextHandedOver() {
        let (player, engine, _) = makePlayer(tracks: 3)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        var outcome: PlayerError??
        player.open("http://example.invalid/tiny.txt") { outcome = $0 }
        #expect(engine.loads.last == "http://example.invalid/tiny.txt")
        player.engineDidFailNextStream("Can't play a text file without video or visualizations.")
        #expect(outcome == .some(.unplayable("Can't play a text file without video or visualizations.")))
        #expect(player.queue.current?.uri == uri(1) && !player.queue.entries.contains { $0.uri.hasSuffix("tiny.txt") })
        #expect(engine.loads.last == uri(1) && player.status == .playing)
    }
}

import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct PlayerStateTests {
    @Test func playStartsTheFirstEntryAndPauseResumes() {
        let (player, engine, observer) = makePlayer()
        #expect(player.status == .stopped)
        #expect(player.canPlay && player.canPause && !player.canSeek)
        let changesBefore = observer.changes
        player.play()
        #expect(player.status == .playing)
        #expect(engine.requests == [.load(uri(1), playing: true)])
        #expect(observer.changes == changesBefore + 1)
        player.pause()
        #expect(player.status == .paused)
        player.play()
        #expect(player.status == .playing)
        #expect(engine.requests.suffix(2) == [.pause, .resume])
    }

    @Test func repeatedRequestsHaveNoEffect() {
        let (player, engine, _) = makePlayer()
        player.pause()
        player.stop()
        #expect(engine.requests.isEmpty)
        player.play()
        player.play()
        #expect(engine.requests.count == 1)
        player.pause()
        player.pause()
        #expect(engine.requests.count == 2)
        player.stop()
        player.stop()
        #expect(engine.requests.last == .stop)
        #expect(engine.requests.count == 3)
        #expect(player.positionMicroseconds == 0)
    }

    @Test func playPauseTogglesAndStartsFromStopped() {
        let (player, engine, _) = makePlayer()
        player.playPause()
        #expect(player.status == .playing)
        player.playPause()
        #expect(player.status == .paused)
        player.stop()
        player.playPause()
        #expect(player.status == .playing)
        #expect(engine.loads == [uri(1), uri(1)])
    }

    @Test func emptyQueueCannotPlay() {
        let (player, engine, _) = makePlayer(tracks: 0)
        #expect(!player.canPlay && !player.canPause && !player.canGoNext && !player.canGoPrevious)
        player.play()
        player.next()
        #expect(player.status == .stopped)
        #expect(engine.requests.isEmpty)
        #expect(player.announcedTrack == nil)
    }

    @Test func nextAndPreviousFollowTheQueueAndKeepTheStatus() {
        let (player, engine, _) = makePlayer()
        #expect(!player.canGoPrevious && player.canGoNext)
        player.next() // stopped: moves without loading
        #expect(engine.requests.isEmpty)
        #expect(player.queue.current?.uri == uri(2))
        player.play()
        player.next()
        #expect(engine.requests.last == .load(uri(3), playing: true))
        #expect(!player.canGoNext)
        player.next()
        #expect(player.queue.current?.uri == uri(3))
        player.pause()
        player.previous()
        #expect(engine.requests.last == .load(uri(2), playing: false))
        #expect(player.status == .paused)
    }

    @Test func loopPlaylistWraps() {
        let (player, _, _) = makePlayer(tracks: 2)
        player.next()
        #expect(!player.canGoNext)
        player.setLoopStatus(.playlist)
        #expect(player.canGoNext)
        player.next()
        #expect(player.queue.current?.uri == uri(1))
        player.previous()
        #expect(player.queue.current?.uri == uri(2))
    }

    @Test func endOfTrackAdvancesRepeatsOrStops() {
        let (player, engine, observer) = makePlayer(tracks: 2)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 1_000_000, seekable: true)
        player.engineDidReachEnd()
        #expect(engine.requests.last == .load(uri(2), playing: true))
        player.engineDidPreroll(lengthMicroseconds: 1_000_000, seekable: true)
        player.setLoopStatus(.track)
        player.engineDidReachEnd()
        #expect(engine.requests.last == .seek(0))
        #expect(observer.seeks == [0])
        player.setLoopStatus(.none)
        player.engineDidReachEnd()
        #expect(player.status == .stopped)
        #expect(player.queue.current?.uri == uri(2))
        #expect(player.announcedTrack?.url == uri(2))
    }

    @Test func unplayableEntriesAreSkippedButNeverForever() {
        let (player, engine, _) = makePlayer(tracks: 3)
        player.play()
        player.engineDidFail("not media")
        #expect(engine.requests.last == .load(uri(2), playing: true))
        #expect(player.status == .playing)
        player.setLoopStatus(.playlist)
        player.engineDidFail("corrupt")
        player.engineDidFail("corrupt")
        #expect(player.status == .stopped)
        #expect(engine.loads == [uri(1), uri(2), uri(3)])
    }

    @Test func refusedLoadSkipsToTheNextEntry() {
        let (player, engine, _) = makePlayer(tracks: 2)
        engine.refuseLoads = true
        player.play()
        #expect(engine.loads == [uri(1), uri(2)])
        #expect(player.status == .stopped)
    }

    @Test func shuffleKeepsTheCurrentEntryAndPlaysEveryEntryOnce() {
        let (player, _, _) = makePlayer(tracks: 20)
        player.next()
        player.setShuffle(true)
        #expect(player.shuffle)
        #expect(player.queue.current?.uri == uri(2))
        let order = player.queue.playOrder.map(\.uri)
        #expect(order.first == uri(2))
        #expect(Set(order) == Set((1...20).map(uri)))
        player.setShuffle(false)
        #expect(player.queue.playOrder.map(\.uri) == (1...20).map(uri))
        #expect(player.queue.current?.uri == uri(2))
    }
}

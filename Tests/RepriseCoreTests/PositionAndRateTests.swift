import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct PositionAndRateTests {
    /// A playing player whose first track (10 s) has prerolled.
    func playing() -> (Player, ScriptedEngine, RecordingObserver) {
        let (player, engine, observer) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 10_000_000, seekable: true)
        engine.position = 4_000_000
        return (player, engine, observer)
    }

    @Test func seekMovesRelativeAndClampsAtZero() {
        let (player, engine, observer) = playing()
        player.seek(by: 1_000_000)
        #expect(engine.requests.last == .seek(5_000_000))
        player.seek(by: -60_000_000)
        #expect(engine.requests.last == .seek(0))
        #expect(observer.seeks == [5_000_000, 0])
        player.seek(by: Int64.min)
        #expect(observer.seeks.last == 0)
    }

    /// On an output that plays later (a Snapcast stream's buffer), Position is what is heard: the pipeline's
    /// position less the delay; a change of output announces the position as now heard, and a seek the place heard next.
    @Test func positionIsWhatIsHeardOnADelayedOutput() {
        let (player, engine, observer) = playing()
        player.setOutputDelay(microseconds: 1_000_000)
        #expect(player.positionMicroseconds == 3_000_000)
        #expect(observer.seeks == [3_000_000])
        player.setOutputDelay(microseconds: 1_000_000)
        #expect(observer.seeks == [3_000_000]) // no change, no announcement
        player.seek(by: 2_000_000) // relative to what is heard
        #expect(engine.requests.last == .seek(5_000_000))
        engine.position = 5_000_000
        #expect(observer.seeks.last == 4_000_000 && player.positionMicroseconds == 4_000_000)
        engine.position = 500_000
        #expect(player.positionMicroseconds == 0) // the start is still on its way
        player.setOutputDelay(microseconds: 0)
        #expect(player.positionMicroseconds == 500_000 && observer.seeks.last == 500_000)
        player.setOutputDelay(microseconds: Int64.max) // at most a minute
        #expect(player.outputDelayMicroseconds == 60_000_000)
        player.stop()
        let before = observer.seeks.count
        player.setOutputDelay(microseconds: 2_000_000)
        #expect(observer.seeks.count == before) // nothing plays: nothing to announce
    }

    @Test func seekPastTheEndActsLikeNext() {
        let (player, engine, observer) = playing()
        player.seek(by: 7_000_000)
        #expect(engine.requests.last == .load(uri(2), playing: true))
        #expect(observer.seeks.isEmpty)
        player.engineDidPreroll(lengthMicroseconds: 10_000_000, seekable: true)
        player.next()
        player.engineDidPreroll(lengthMicroseconds: 10_000_000, seekable: true)
        player.seek(by: Int64.max) // last track, no next: no effect
        #expect(player.queue.current?.uri == uri(3))
        #expect(player.status == .playing)
    }

    @Test func seekingNeedsALoadedSeekableStream() {
        let (player, engine, observer) = makePlayer()
        player.seek(by: 1_000_000) // stopped
        player.play()
        player.seek(by: 1_000_000) // not prerolled yet
        player.engineDidPreroll(lengthMicroseconds: nil, seekable: false)
        player.seek(by: 1_000_000) // live stream
        #expect(!player.canSeek)
        #expect(observer.seeks.isEmpty)
        #expect(!engine.requests.contains { if case .seek = $0 { true } else { false } })
    }

    /// A client that seeks right after a track change (MPD's `seek 1 7` as the song loads) is not ignored: the seek is
    /// made once the stream is ready (the engine holds it), and the position reads it meanwhile.
    @Test func setPositionWhileTheEntryLoadsIsMadeWhenItIsReady() {
        let (player, engine, _) = makePlayer()
        player.play()
        let current = player.queue.current!.id
        player.setPosition(entryID: current, microseconds: 7_000_000)
        #expect(engine.requests.last == .seek(7_000_000))
        #expect(player.positionMicroseconds == 7_000_000)
        player.stop()
        player.setPosition(entryID: current, microseconds: 3_000_000)
        #expect(engine.requests.filter { if case .seek = $0 { true } else { false } } == [.seek(7_000_000)], "stopped: nothing to seek")
    }

    /// Shuffle is a mode of playback: clearing the queue leaves it on for what is added next.
    @Test func clearingTheQueueKeepsShuffle() {
        let (player, _, _) = makePlayer()
        player.setShuffle(true)
        player.clear()
        #expect(player.shuffle)
    }

    @Test func setPositionIgnoresStaleIdsAndOutOfRangePositions() {
        let (player, engine, observer) = playing()
        let current = player.queue.current!.id
        player.setPosition(entryID: current + 1, microseconds: 1_000_000)
        player.setPosition(entryID: nil, microseconds: 1_000_000)
        player.setPosition(entryID: current, microseconds: -1)
        player.setPosition(entryID: current, microseconds: 10_000_001)
        #expect(observer.seeks.isEmpty)
        player.setPosition(entryID: current, microseconds: 10_000_000)
        player.setPosition(entryID: current, microseconds: 2_500_000)
        #expect(observer.seeks == [10_000_000, 2_500_000])
        #expect(engine.requests.last == .seek(2_500_000))
    }

    @Test func positionIsZeroWhenStoppedAndNeverPastTheLength() {
        let (player, engine, _) = playing()
        #expect(player.positionMicroseconds == 4_000_000)
        engine.position = 99_000_000
        #expect(player.positionMicroseconds == 10_000_000)
        engine.position = nil
        #expect(player.positionMicroseconds == 0)
        engine.position = 3_000_000
        player.stop()
        #expect(player.positionMicroseconds == 0)
    }

    @Test func rateRules() throws {
        let (player, engine, _) = playing()
        try player.setRate(1.5)
        #expect(player.rate == 1.5)
        #expect(engine.requests.last == .rate(1.5))
        #expect(throws: PlayerError.self) { try player.setRate(3.0) }
        #expect(throws: PlayerError.self) { try player.setRate(-1.0) }
        #expect(throws: PlayerError.self) { try player.setRate(.nan) }
        #expect(throws: PlayerError.self) { try player.setRate(.infinity) }
        #expect(player.rate == 1.5)
        try player.setRate(0)
        #expect(player.status == .paused)
        #expect(player.rate == 1.5)
        #expect(player.rateRange.contains(1.0))
    }

    @Test func volumeRules() throws {
        let (player, engine, _) = playing()
        try player.setVolume(-0.5)
        #expect(player.volume == 0)
        #expect(engine.requests.last == .volume(0))
        try player.setVolume(0.25)
        #expect(player.volume == 0.25)
        try player.setVolume(7)
        #expect(player.volume == 1)
        #expect(throws: PlayerError.self) { try player.setVolume(.nan) }
        #expect(player.volume == 1)
    }
}

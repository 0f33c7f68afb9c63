import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct SleepTimerTests {
    @Test func requestsAreParsed() throws {
        #expect(try SleepRequest.parse("90s") == .after(microseconds: 90_000_000))
        #expect(try SleepRequest.parse("30m") == .after(microseconds: 1_800_000_000))
        #expect(try SleepRequest.parse("1h30m") == .after(microseconds: 5_400_000_000))
        #expect(try SleepRequest.parse("1.5h") == .after(microseconds: 5_400_000_000))
        #expect(try SleepRequest.parse("20") == .after(microseconds: 1_200_000_000), "a plain number is minutes")
        #expect(try SleepRequest.parse("end-of-track") == .endOfTrack)
        #expect(try SleepRequest.parse("End-Of-Chapter") == .endOfChapter)
        #expect(try SleepRequest.parse("off") == .off)
        for bad in ["", "soon", "0s", "25h", "5x", "1h30", "-5m", "nan"] {
            #expect(throws: PlayerError.self, "\(bad)") { try SleepRequest.parse(bad) }
        }
    }

    @Test func theFadeIsTenSecondsOrHalfAShortTimer() {
        let long = SleepTimer(kind: .duration, serial: 1, left: 1_800_000_000)
        #expect(long.fadeMicroseconds == 10_000_000)
        #expect(long.fadeGain(left: 20_000_000) == 1)
        #expect(long.fadeGain(left: 5_000_000) == 0.25)
        #expect(long.fadeGain(left: 0) == 0)
        #expect(SleepTimer(kind: .duration, serial: 1, left: 5_000_000).fadeMicroseconds == 2_500_000)
    }

    @Test func aDurationCountsOnlyWhilePlayingFadesAndPausesKeepingThePosition() throws {
        let (player, engine, _) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 600_000_000, seekable: true)
        try player.setSleep(.after(microseconds: 30_000_000))
        #expect(player.sleepRemainingMicroseconds == 30_000_000)
        player.sleepTimerTick(elapsedMicroseconds: 15_000_000)
        #expect(player.sleepRemainingMicroseconds == 15_000_000)
        #expect(engine.sleepFade == 1)
        player.pause()
        player.sleepTimerTick(elapsedMicroseconds: 60_000_000)
        #expect(player.sleepRemainingMicroseconds == 15_000_000, "a pause stops the count")
        player.play()
        player.sleepTimerTick(elapsedMicroseconds: 10_000_000)
        #expect(engine.sleepFade == 0.25, "5 s of a 10 s fade left")
        engine.position = 123_000_000
        engine.requests.removeAll()
        player.sleepTimerTick(elapsedMicroseconds: 5_000_000)
        #expect(player.status == .paused)
        #expect(engine.requests == [.pause], "paused where it was, no seek")
        #expect(player.sleepTimer == nil)
        #expect(engine.sleepFade == 0, "silent until played again")
        player.play()
        #expect(engine.sleepFade == 1)
    }

    @Test func endOfTrackLetsTheStreamEndAndWaitsAtTheNextOne() throws {
        let (player, engine, _) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        #expect(engine.preparedNext == uri(2))
        engine.position = 40_000_000
        try player.setSleep(.endOfTrack)
        #expect(engine.preparedNext == nil, "no gapless hand-over: the stream ends by itself")
        #expect(player.sleepRemainingMicroseconds == 20_000_000)
        engine.position = 55_000_000
        player.sleepTimerTick(elapsedMicroseconds: 15_000_000)
        #expect(engine.sleepFade == 0.25)
        player.engineDidReachEnd()
        #expect(player.status == .paused)
        #expect(player.announcedTrack?.url == uri(1) || player.queue.current?.uri == uri(2))
        #expect(engine.loads.last == uri(2))
        #expect(engine.requests.last == .load(uri(2), playing: false))
    }

    @Test func endOfChapterNeedsChaptersAndStopsAtTheNextOnesStart() throws {
        let (player, engine, _) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 600_000_000, seekable: true)
        #expect(throws: PlayerError.self) { try player.setSleep(.endOfChapter) }
        player.engineDidReadChapters([Chapter(title: "A", startMicroseconds: 0), Chapter(title: "B", startMicroseconds: 300_000_000)])
        engine.position = 290_000_000
        try player.setSleep(.endOfChapter)
        #expect(player.sleepRemainingMicroseconds == 10_000_000)
        engine.position = 300_010_000
        player.sleepTimerTick(elapsedMicroseconds: 10_010_000)
        #expect(player.status == .paused)
        #expect(engine.requests.contains(.seek(300_000_000)))
    }

    @Test func cancellingRestoresTheLevel() throws {
        let (player, engine, _) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 600_000_000, seekable: true)
        try player.setSleep(.after(microseconds: 4_000_000))
        player.sleepTimerTick(elapsedMicroseconds: 3_000_000)
        #expect(engine.sleepFade < 1)
        try player.setSleep(.off)
        #expect(engine.sleepFade == 1)
        #expect(player.status == .playing)
    }
}

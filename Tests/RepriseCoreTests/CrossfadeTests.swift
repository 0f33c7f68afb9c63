import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct CrossfadeTests {
    func entry(_ id: Int, _ name: String, album: String? = nil) -> QueueEntry {
        var entry = QueueEntry(id: id, uri: "file:///music/\(name)")
        entry.tags = TrackTags(artists: ["X"], album: album)
        return entry
    }

    @Test func thePlanForEachKindOfTransition() {
        let on = CrossfadeSettings(seconds: 4)
        let song = entry(1, "a.flac", album: "One"), other = entry(2, "b.flac", album: "Two"), same = entry(3, "c.flac", album: "One")
        #expect(CrossfadeSettings().plan(current: song, next: other) == .off)
        #expect(on.plan(current: song, next: other) == CrossfadePlan(nextOverlapSeconds: 4, userChangeFadeSeconds: 0.3))
        #expect(on.plan(current: song, next: same).nextOverlapSeconds == nil, "one album: gapless")
        #expect(on.plan(current: song, next: song).nextOverlapSeconds == nil, "a track repeating itself: gapless")
        #expect(on.plan(current: song, next: nil) == CrossfadePlan(userChangeFadeSeconds: 0.3))
        #expect(on.plan(current: entry(4, "film.mkv"), next: other) == .off, "video never fades")
        #expect(on.plan(current: song, next: entry(5, "clip.webm")).nextOverlapSeconds == nil)
        #expect(on.plan(current: entry(6, "x.ogg"), next: entry(7, "y.ogg")).nextOverlapSeconds == 4, "no album: crossfade")
    }

    @Test func settingsFromTextAndTheirLimits() throws {
        #expect(try CrossfadeSettings.seconds("off") == 0)
        #expect(try CrossfadeSettings.seconds("2.5") == 2.5)
        #expect(try CrossfadeSettings.seconds("12s") == 12)
        for bad in ["0.2", "13", "soon", "-1", "nan"] {
            #expect(throws: PlayerError.self, "\(bad)") { try CrossfadeSettings.seconds(bad) }
        }
        #expect(try AudioSettings(config: "crossfade = 6").crossfade.seconds == 6)
    }

    @Test func thePlayerTellsTheEngineHowTheCurrentTrackGivesWay() {
        let (player, engine, _) = makePlayer(tracks: 3)
        player.setCrossfade(CrossfadeSettings(seconds: 5))
        player.play()
        #expect(engine.crossfadePlan == CrossfadePlan(nextOverlapSeconds: 5, userChangeFadeSeconds: 0.3))
        player.setCrossfade(CrossfadeSettings())
        #expect(engine.crossfadePlan == .off)
    }
}

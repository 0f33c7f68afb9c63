import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct ReplayGainTests {
    let albumA = AlbumKey(TrackTags(artists: ["X"], album: "A"))
    let albumB = AlbumKey(TrackTags(artists: ["Y"], album: "B"))

    @Test func eachModeChoosesItsGain() {
        func kind(_ mode: ReplayGainMode, previous: AlbumKey?, next: AlbumKey?, shuffled: Bool = false) -> ReplayGainKind {
            ReplayGainSettings(mode: mode).kind(current: albumA, previous: previous, next: next, shuffled: shuffled)
        }
        #expect(kind(.off, previous: albumA, next: albumA) == .none)
        #expect(kind(.track, previous: albumA, next: albumA) == .track)
        #expect(kind(.album, previous: albumB, next: nil) == .album)
        // auto: album gain while the album plays in order, track gain in a mixed queue or under shuffle.
        #expect(kind(.auto, previous: albumA, next: albumB) == .album)
        #expect(kind(.auto, previous: nil, next: albumA) == .album)
        #expect(kind(.auto, previous: albumB, next: nil) == .track)
        #expect(kind(.auto, previous: albumA, next: albumA, shuffled: true) == .track)
        #expect(ReplayGainSettings(mode: .auto).kind(current: nil, previous: nil, next: nil, shuffled: false) == .track)
    }

    @Test func albumsAreTheSameByTitleAndAlbumArtistWhateverTheCase() {
        #expect(AlbumKey(TrackTags(artists: ["Band"], album: "Live")) == AlbumKey(TrackTags(artists: ["band"], album: "live ")))
        #expect(AlbumKey(TrackTags(artists: ["One"], album: "Hits", albumArtists: ["Various"]))
                == AlbumKey(TrackTags(artists: ["Two"], album: "Hits", albumArtists: ["Various"])))
        #expect(AlbumKey(TrackTags(artists: ["One"], album: "Hits")) != AlbumKey(TrackTags(artists: ["Two"], album: "Hits")))
        #expect(AlbumKey(TrackTags(artists: ["One"])) == nil)
        #expect(AlbumKey(TrackTags(album: "  ")) == nil)
    }

    @Test func theConfigFileAndItsErrors() throws {
        let settings = try AudioSettings(config: "replaygain = Album\nreplaygain-preamp = +3.5 dB\nreplaygain-fallback = -6\n")
        #expect(settings.replayGain == ReplayGainSettings(mode: .album, preampDecibels: 3.5, fallbackDecibels: -6))
        #expect(AudioSettings().replayGain.mode == .auto)
        for bad in ["replaygain = loud", "replaygain-preamp = 16", "replaygain-fallback = nan", "replaygain-preamp = x dB"] {
            #expect(throws: PlayerError.self, "\(bad)") { try AudioSettings(config: bad) }
        }
    }

    @Test func thePlayerTellsTheEngineTheGainForWhatPlays() {
        let (player, engine, _) = makePlayer(tracks: 3)
        let ids = player.queue.ids
        for (index, album) in ["A", "A", "B"].enumerated() {
            player.entryDescribed(id: ids[index], tags: TrackTags(artists: ["X"], album: album), lengthMicroseconds: nil, artURL: nil)
        }
        player.play()
        // auto: the first track's album goes on with the second, so album gain, told before the stream loads.
        #expect(engine.replayGainKinds.last == .album)
        #expect(engine.requests.first == .load(uri(1), playing: true))
        player.next()
        #expect(engine.replayGainKinds.last == .album)
        player.next()
        #expect(engine.replayGainKinds.last == .track, "album B has one track here")
        player.setShuffle(true)
        #expect(engine.replayGainKinds.last == .track)
        player.setReplayGain(ReplayGainSettings(mode: .album, preampDecibels: 2, fallbackDecibels: -3))
        #expect(engine.replayGain?.kind == .album && engine.replayGain?.preamp == 2 && engine.replayGain?.fallback == -3)
        let told = engine.replayGainKinds.count
        player.setReplayGain(player.sound.replayGain)
        #expect(engine.replayGainKinds.count == told, "the engine hears only of changes")
        player.setReplayGain(ReplayGainSettings(mode: .off))
        #expect(engine.replayGain?.kind == ReplayGainKind.none)
    }

    @Test func theAppliedGainIsPartOfTheCurrentTrackWhileLevellingIsOn() {
        let (player, engine, _) = makePlayer(tracks: 2)
        player.setReplayGain(ReplayGainSettings(mode: .track))
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 1_000_000, seekable: true)
        engine.appliedGainDecibels = -6.5
        #expect(player.announcedTrack?.replayGain == AppliedGain(kind: .track, decibels: -6.5))
        player.setReplayGain(ReplayGainSettings(mode: .off))
        #expect(player.announcedTrack?.replayGain == nil)
        player.stop()
        player.setReplayGain(ReplayGainSettings(mode: .track))
        #expect(player.announcedTrack?.replayGain == nil, "nothing plays")
    }
}


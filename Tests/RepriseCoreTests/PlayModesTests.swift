import CoreTestDoubles
import Testing
@testable import RepriseCore

/// Repeat, single, consume and priorities as the player's own modes: every surface sees them (MPRIS's LoopStatus is
/// a view of repeat and single), single without repeat stops after the song, the change that moves on also removes
/// the consumed entry, and a restart keeps them.
@Suite struct PlayModesTests {
    @Test func consumeRemovesTheEntryPlaybackLeftInTheSameChange() {
        let (player, _, observer) = makePlayer(tracks: 3)
        let ids = player.trackIDs
        player.goTo(id: ids[0])
        player.setConsume(.on)
        #expect(observer.published.last?.aspects.contains(.options) == true)
        player.next()
        #expect(player.trackIDs == [ids[1], ids[2]])
        let change = observer.published.last
        #expect(change?.queueEdits == [.removed(id: ids[0])] && change?.aspects.contains(.current) == true,
                "one change moves on and removes: \(String(describing: change))")
        player.goTo(id: ids[2])
        #expect(player.trackIDs == [ids[2]])
    }

    @Test func consumeOneshotConsumesOnceThenIsOff() {
        let (player, _, _) = makePlayer(tracks: 3)
        let ids = player.trackIDs
        player.goTo(id: ids[0])
        player.setConsume(.oneshot)
        player.next()
        #expect(player.trackIDs == [ids[1], ids[2]] && player.modes.consume == .off)
        player.next()
        #expect(player.trackIDs == [ids[1], ids[2]])
    }

    /// MPD's "stop after this song": single without repeat. The song is not repeated (LoopStatus None); at its end
    /// playback stops there, the next song not begun; single stays on for the next song played.
    /// A player of three entries, the one at `position` playing (its stream ready).
    private func playing(at position: Int) -> (player: Player, engine: ScriptedEngine, ids: [Int]) {
        let (player, engine, _) = makePlayer(tracks: 3)
        let ids = player.trackIDs
        player.goTo(id: ids[position])
        player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        return (player, engine, ids)
    }

    @Test func singleWithoutRepeatStopsAfterTheSong() {
        let (player, engine, ids) = playing(at: 0)
        player.setSingle(.on)
        #expect(player.single == .on && player.loopStatus == LoopStatus.none)
        #expect(player.canGoNext, "next by hand still moves on")
        #expect(engine.preparedNext == nil, "nothing is queued gaplessly")
        player.engineDidReachEnd()
        #expect(player.status == .stopped && player.queue.current?.id == ids[0] && player.single == .on)
        player.play()
        #expect(player.queue.current?.id == ids[0])
    }

    @Test func singleWithRepeatPlaysTheSongAgainAndIsLoopStatusTrack() {
        let (player, _, ids) = playing(at: 1)
        player.setRepeat(true)
        #expect(player.loopStatus == .playlist)
        player.setSingle(.on)
        #expect(player.loopStatus == .track)
        player.engineDidReachEnd()
        #expect(player.status == .playing && player.queue.current?.id == ids[1] && player.loopRestarts == 1)
        // MPRIS's loop statuses set both modes: None ends a stop after this song as well.
        player.setLoopStatus(.none)
        #expect(!player.modes.repeats && player.single == .off)
        player.setLoopStatus(.track)
        #expect(player.modes.repeats && player.single == .on)
    }

    @Test func singleOneshotHasItsOneSongThenIsOff() {
        let (player, _, ids) = playing(at: 0)
        player.setSingle(.oneshot)
        player.engineDidReachEnd()
        #expect(player.status == .stopped && player.single == .off, "without repeat: stopped after the song")
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        player.setRepeat(true)
        player.setSingle(.oneshot)
        #expect(player.loopStatus == .track)
        player.engineDidReachEnd()
        #expect(player.queue.current?.id == ids[0] && player.status == .playing, "with repeat: played once more")
        #expect(player.single == .off && player.loopStatus == .playlist)
        player.engineDidReachEnd()
        #expect(player.queue.current?.id == ids[1])
    }

    @Test func prioritiesOrderWhatPlaysUnderShuffleWhoeverTurnsItOn() {
        let (player, _, observer) = makePlayer(tracks: 6)
        let ids = player.trackIDs
        player.goTo(id: ids[0])
        #expect(player.setPriority(9, ofEntries: [ids[4], 999]) == [ids[4]])
        #expect(observer.published.last?.queueEdits == [.priorityChanged(id: ids[4])])
        #expect(player.setPriority(9, ofEntries: [ids[4]]).isEmpty, "the same priority again changes nothing")
        player.setShuffle(true)
        #expect(player.queue.playOrder.map(\.id).prefix(2) == [ids[0], ids[4]])
    }

    @Test func aRestartKeepsTheModesAndPriorities() throws {
        let (player, _, _) = makePlayer(tracks: 3)
        let ids = player.trackIDs
        player.goTo(id: ids[0])
        player.setConsume(.oneshot)
        player.setSingle(.oneshot)
        player.setPriority(7, ofEntries: [ids[2]])
        let text = player.savedState.encoded()
        #expect(text.contains("consume oneshot\n") && text.contains("single oneshot\n") && text.contains("priority 7\n"))
        let (restarted, _, _) = makePlayer(tracks: 0)
        restarted.restore(try SavedState.decode(text))
        #expect(restarted.modes.consume == .oneshot && restarted.single == .oneshot)
        // Stop after this song survives a restart; a file from before single was a mode reads its oneshot.
        player.setSingle(.on)
        #expect(try SavedState.decode(player.savedState.encoded()).modes == PlayModes(single: .on, consume: .oneshot))
        let older = try SavedState.decode("reprise-state 4\nloop Track\nsingle-oneshot Playlist\nend\n")
        #expect(older.modes == PlayModes(repeats: true, single: .oneshot))
        #expect(restarted.queue.entries.map(\.priority) == [0, 0, 7])
        // A hostile priority line is left out, not the queue.
        let hostile = try SavedState.decode("reprise-state 4\nentry file:///a\npriority 900\nentry file:///b\npriority 3\nend\n")
        #expect(hostile.priorities == [1: 3] && hostile.skippedLines == 1)
        #expect(throws: StateError.self) { try SavedState.decode("reprise-state 4\nconsume sometimes\nend\n") }
    }
}

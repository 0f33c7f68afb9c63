import CoreTestDoubles
import Testing
@testable import RepriseCore

/// Consume, `single oneshot` and priorities as the player's own modes: every surface sees them, the change that
/// moves on also removes the consumed entry, and a restart keeps them.
@Suite struct QueueModesTests {
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
        #expect(player.trackIDs == [ids[1], ids[2]] && player.queueModes.consume == .off)
        player.next()
        #expect(player.trackIDs == [ids[1], ids[2]])
    }

    @Test func singleOneshotRepeatsTheEntryOnceThenGivesBackTheLoopStatus() {
        let (player, _, _) = makePlayer(tracks: 3)
        let ids = player.trackIDs
        player.setLoopStatus(.playlist)
        player.goTo(id: ids[0])
        player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        player.setSingle(.oneshot)
        #expect(player.single == .oneshot && player.loopStatus == .track)
        player.engineDidReachEnd()
        #expect(player.queue.current?.id == ids[0] && player.single == .off && player.loopStatus == .playlist)
        player.setSingle(.oneshot)
        player.setLoopStatus(.none) // anyone's loop status ends it
        #expect(player.single == .off && player.queueModes.singleOneshot == nil)
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
        #expect(text.contains("consume oneshot\n") && text.contains("single-oneshot None\n") && text.contains("priority 7\n"))
        let (restarted, _, _) = makePlayer(tracks: 0)
        restarted.restore(try SavedState.decode(text))
        #expect(restarted.queueModes.consume == .oneshot && restarted.single == .oneshot)
        #expect(restarted.queue.entries.map(\.priority) == [0, 0, 7])
        // A hostile priority line is left out, not the queue.
        let hostile = try SavedState.decode("reprise-state 4\nentry file:///a\npriority 900\nentry file:///b\npriority 3\nend\n")
        #expect(hostile.priorities == [1: 3] && hostile.skippedLines == 1)
        #expect(throws: StateError.self) { try SavedState.decode("reprise-state 4\nconsume sometimes\nend\n") }
    }
}

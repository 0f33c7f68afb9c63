import CoreTestDoubles
import RepriseCore
import Testing

/// Every surface asks through ``RemoteControl``: the policy hears each request before the player carries it out,
/// and a PlayPause it takes for an echo of Reprise's own cork request is dropped, unless it came from Reprise's
/// own window.
@Suite struct RemoteControlTests {
    @Test func thePolicyHearsEachRequestBeforeThePlayerActs() {
        let (player, _, _) = makePlayer(tracks: 3)
        let policy = RecordingPolicy()
        let remote = RemoteControl(player: player, policy: policy)
        let order = StatusWhenTold(player: player)
        RemoteControl(player: player, policy: order).play()
        #expect(order.told == [.stopped] && player.status == .playing)
        remote.play()
        #expect(policy.events == [.userPlayed])
        remote.pause()
        remote.next()
        remote.stop()
        remote.goTo(id: player.trackIDs[0])
        #expect(policy.events == [.userPlayed, .userPaused, .userChangedTrack, .userStopped, .userChangedTrack])
        remote.request(.userStopped) { player.clear() }
        #expect(policy.events.last == .userStopped && player.trackIDs.isEmpty)
    }

    /// Notes the player's status when it is told of a request.
    private final class StatusWhenTold: UserActionPolicy {
        let player: Player
        var told: [PlaybackStatus] = []
        init(player: Player) { self.player = player }
        func userActed(_ event: PolicyEvent) { told.append(player.status) }
        func allowsPlayPause() -> Bool { true }
    }

    @Test func aPlayPauseThePolicyTakesForAnEchoIsDroppedButNotAKeyInTheWindow() {
        let (player, _, _) = makePlayer(tracks: 1)
        let policy = RecordingPolicy()
        let remote = RemoteControl(player: player, policy: policy)
        #expect(remote.playPause())
        #expect(player.status == .playing && policy.events == [.userPlayed])
        policy.allowing = false
        #expect(!remote.playPause())
        #expect(player.status == .playing && policy.events == [.userPlayed])
        remote.togglePlayback()
        #expect(player.status == .paused && policy.events == [.userPlayed, .userPaused])
    }
}

import CoreTestDoubles
import RepriseCore
import Testing
@testable import RepriseService

/// Components that run timers cancel them on stop, and the lifecycle cancels its own bound once every component is
/// done: after the service stopped, no timer is left to fire.
@Suite struct LifecycleTimersTests {
    @Test func noTimerOutlivesTheService() throws {
        let loop = ManualLoop()
        let (player, _, _) = makePlayer(tracks: 2)
        let log = Log(verbose: false)
        var refreshes = 0
        let periodic = PeriodicComponent(name: "playlists", loop: loop, everyMilliseconds: 5000) { refreshes += 1 }
        let saver = StateSaver(store: MemoryStore(), player: player, loop: loop, log: log)
        let listening = ListeningClock(player: player, timers: loop, work: nil, log: log)
        let lifecycle = Lifecycle(loop: loop, log: log)
        try lifecycle.start([saver, listening, periodic])
        player.play()
        listening.followPlayback()
        saver.markDirty()
        loop.tick()
        #expect(refreshes == 1 && loop.activeTimers > 0)
        var stopped = false
        lifecycle.stop(reason: "test") { stopped = true }
        #expect(stopped)
        #expect(loop.activeTimers == 0, "a timer outlived the service")
        loop.tick()
        loop.runOnce()
        #expect(refreshes == 1)
    }
}

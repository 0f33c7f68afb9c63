import CoreTestDoubles
import RepriseCore
import Synchronization
import Testing
@testable import RepriseService

/// Components start in order and stop in reverse, each after the later one is done; a failing start stops what
/// started; a component that never finishes cannot hold the exit past the bound.
@Suite struct LifecycleTests {
    final class Part: ServiceComponent {
        let name: String
        let journal: Journal
        var failsToStart = false
        /// Finishes stopping only when the test says so.
        var holdsStop = false
        var pendingStop: (() -> Void)?

        init(_ name: String, _ journal: Journal) {
            self.name = name
            self.journal = journal
        }

        func start() throws {
            if failsToStart { throw PlayerError.unplayable("\(name) cannot start") }
            journal.lines.append("start \(name)")
        }

        func stop(_ done: @escaping () -> Void) {
            journal.lines.append("stop \(name)")
            if holdsStop { pendingStop = done } else { done() }
        }
    }

    final class Journal { var lines: [String] = [] }

    /// A component's timer fires while it runs and never after it stopped.
    @Test func aPeriodicComponentsTimerIsCancelledOnStop() throws {
        let loop = ManualLoop()
        var runs = 0
        let periodic = PeriodicComponent(name: "playlists", loop: loop, everyMilliseconds: 5000) { runs += 1 }
        periodic.start()
        loop.tick()
        #expect(runs == 1 && loop.activeTimers == 1)
        var stopped = false
        periodic.stop { stopped = true }
        loop.tick()
        #expect(stopped && runs == 1 && loop.activeTimers == 0)
    }

    /// The listening clock ticks while a sleep timer runs; stopped, its waiting tick is cancelled and no other comes.
    @Test func theListeningClocksTickIsCancelledOnStop() throws {
        let loop = ManualLoop()
        let (player, _, _) = makePlayer(tracks: 2)
        let clock = ListeningClock(player: player, timers: loop, work: nil, log: Log(verbose: false))
        player.play()
        try player.setSleep(.after(microseconds: 30_000_000))
        clock.followPlayback()
        #expect(clock.isTicking && loop.pendingOnce == 1)
        loop.runOnce()
        #expect(clock.isTicking, "it goes on ticking")
        clock.stop {}
        #expect(!clock.isTicking && loop.activeTimers == 0)
        clock.followPlayback()
        #expect(loop.activeTimers == 0, "nothing scheduled after stop")
    }

    @Test func startsInOrderAndStopsInReverse() throws {
        let journal = Journal(), loop = ManualLoop()
        let lifecycle = Lifecycle(loop: loop, log: Log(verbose: false))
        try lifecycle.start(["engine", "bus", "audio"].map { Part($0, journal) })
        var finished = 0
        lifecycle.stop(reason: "test") { finished += 1 }
        lifecycle.stop(reason: "again") { finished += 100 }
        #expect(journal.lines == ["start engine", "start bus", "start audio", "stop audio", "stop bus", "stop engine"])
        #expect(finished == 1)
        loop.runOnce() // the bound's timer, after everything finished: nothing more
        #expect(finished == 1)
    }

    @Test func eachStopsOnlyWhenTheLaterOneIsDone() throws {
        let journal = Journal(), loop = ManualLoop()
        let lifecycle = Lifecycle(loop: loop, log: Log(verbose: false))
        let audio = Part("audio", journal)
        audio.holdsStop = true
        try lifecycle.start([Part("engine", journal), audio])
        var finished = false
        lifecycle.stop(reason: "test") { finished = true }
        #expect(journal.lines.last == "stop audio")
        #expect(!finished)
        audio.pendingStop?()
        #expect(journal.lines.last == "stop engine")
        #expect(finished)
    }

    @Test func theBoundEndsAStopThatNeverFinishes() throws {
        let journal = Journal(), loop = ManualLoop()
        let lines = Mutex<[String]>([])
        let lifecycle = Lifecycle(loop: loop, log: Log(verbose: false) { line in lines.withLock { $0.append(line) } })
        let audio = Part("audio", journal)
        audio.holdsStop = true
        try lifecycle.start([Part("engine", journal), audio, Part("lyrics", journal)])
        var finished = 0
        lifecycle.stop(reason: "test") { finished += 1 }
        loop.runOnce()
        #expect(finished == 1)
        #expect(lines.withLock { $0 }.contains { $0.contains("(audio did not finish)") },
                "the warning names the component that held the stop, not the one stopped before it: \(lines.withLock { $0 })")
        audio.pendingStop?() // too late: nothing runs twice
        #expect(finished == 1)
    }

    @Test func aFailedStartStopsWhatStartedAndThrows() {
        let journal = Journal(), loop = ManualLoop()
        let lifecycle = Lifecycle(loop: loop, log: Log(verbose: false))
        let bus = Part("bus", journal)
        bus.failsToStart = true
        #expect(throws: PlayerError.self) { try lifecycle.start([Part("engine", journal), bus, Part("audio", journal)]) }
        #expect(journal.lines == ["start engine", "stop engine"])
    }
}

import CoreTestDoubles
import Dispatch
import RepriseCore
import Synchronization
import LoopKit
import Testing
@testable import RepriseService

/// The state saver with a hand-driven loop and a store in memory: a change never writes on the caller's path,
/// writes happen on the writer queue in order, failures are tried again, and the last save at exit comes last.
@Suite struct StateSaverTests {
    final class Rig {
        let player: Player
        let loop = ManualLoop()
        let store = MemoryStore()
        let saver: StateSaver

        init() {
            (player, _, _) = makePlayer(tracks: 3)
            saver = StateSaver(store: store, player: player, loop: loop, log: Log(verbose: false))
            saver.start()
        }

        /// Waits until the writer queue has done what it was given.
        func drain() { _ = saver.finish(with: nil) }
    }

    @Test func aChangeIsWrittenAfterTheRequestNotDuringIt() {
        let rig = Rig()
        rig.player.setShuffle(true)
        rig.saver.markDirty()
        #expect(rig.store.saves.isEmpty, "nothing is written on the caller's path")
        #expect(rig.loop.pendingOnce == 1)
        rig.loop.runOnce()
        rig.drain()
        #expect(rig.store.saves.map(\.shuffle) == [true])
    }

    @Test func aBurstOfChangesWaitsForTheNextTick() {
        let rig = Rig()
        rig.saver.markDirty()
        rig.loop.runOnce()
        rig.player.setShuffle(true)
        rig.saver.markDirty()
        rig.player.setLoopStatus(.playlist)
        rig.saver.markDirty()
        #expect(rig.loop.pendingOnce == 0, "saved less than a second ago: no second immediate save")
        rig.loop.tick()
        rig.drain()
        #expect(rig.store.saves.count == 2)
        #expect(rig.store.saves.last?.shuffle == true && rig.store.saves.last?.modes.loopStatus == .playlist)
    }

    @Test func aFailedWriteIsTriedAgainAtTheNextTick() {
        let rig = Rig()
        rig.store.failing = true
        rig.saver.markDirty()
        rig.loop.runOnce()
        rig.drain()
        #expect(rig.store.saves.isEmpty)
        rig.store.failing = false
        rig.loop.tick()
        rig.drain()
        #expect(rig.store.saves.count == 1)
    }

    @Test func theLastSaveWaitsForWritesUnderWayAndComesLast() {
        let rig = Rig()
        rig.store.holdWrites()
        rig.saver.markDirty()
        rig.loop.runOnce()
        rig.player.setShuffle(true)
        let final = rig.player.savedState
        let finished = Mutex(false)
        let done = DispatchSemaphore(value: 0)
        let saver = UncheckedBox(rig.saver)
        DispatchQueue.global().async {
            let saved = saver.value.finish(with: final)
            finished.withLock { $0 = saved }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut, "the exit save waits for the write under way")
        rig.store.releaseWrites()
        done.wait()
        #expect(finished.withLock { $0 })
        #expect(rig.store.saves.map(\.shuffle) == [false, true])
    }
}

// MARK: Doubles

/// A loop whose timers the test runs by hand.
final class ManualLoop: LoopTimers {
    private var repeating: [(id: Int, run: () -> Void)] = []
    private var once: [(id: Int, run: () -> Void)] = []
    private var lastID = 0
    var pendingOnce: Int { once.count }
    var activeTimers: Int { repeating.count + once.count }

    @discardableResult func every(milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer {
        lastID += 1
        let id = lastID
        repeating.append((id, handler))
        return LoopTimer(isActive: { [weak self] in self?.repeating.contains { $0.id == id } == true }) { [weak self] in
            self?.repeating.removeAll { $0.id == id }
        }
    }

    @discardableResult func once(afterMilliseconds milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer {
        lastID += 1
        let id = lastID
        once.append((id, handler))
        return LoopTimer(isActive: { [weak self] in self?.once.contains { $0.id == id } == true }) { [weak self] in
            self?.once.removeAll { $0.id == id }
        }
    }

    /// Runs the one-shot callbacks due now.
    func runOnce() {
        let due = once
        once.removeAll()
        due.forEach { $0.run() }
    }

    /// One second passes: the repeating timers fire.
    func tick() { repeating.forEach { $0.run() } }
}

/// A store in memory that can fail, or hold writes until released (a disk that does not answer).
final class MemoryStore: StateStoring, @unchecked Sendable {
    private let state = Mutex<(saves: [SavedState], failing: Bool)>(([], false))
    private let gate = DispatchSemaphore(value: 1)
    let path = "/memory/state"

    var saves: [SavedState] { state.withLock { $0.saves } }
    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    func holdWrites() { gate.wait() }
    func releaseWrites() { gate.signal() }

    func save(_ saved: SavedState) -> Bool {
        gate.wait()
        defer { gate.signal() }
        return state.withLock { state in
            guard !state.failing else { return false }
            state.saves.append(saved)
            return true
        }
    }
}

/// Hands a loop-side object to another thread in a test that knows only one thread uses it at a time.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

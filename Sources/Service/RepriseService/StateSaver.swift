import Dispatch
import LoopKit
import RepriseCore
import Synchronization

/// Saves the player's state a second after anything changes and every ten seconds while playing (the position),
/// never on the path of a key press: a change only marks the state dirty; the snapshot is taken on the loop once the
/// request that changed it has been carried out (the engine has acted, the reply is sent), and a writer queue does
/// the durable write (write-temp, fsync, rename, fsync the directory) while the loop goes on.
final class StateSaver: ServiceComponent {
    let name = "state"
    private let store: StateStoring
    private let player: Player
    private let log: Log
    private let loop: LoopTimers
    private let writer = DispatchQueue(label: "reprise.state-writer")
    /// Set by the writer when a write failed, so the next tick tries again.
    private let writeFailed = FailureFlag()
    private var dirty = false
    private var saveScheduled = false
    private var secondsSinceSave = 0
    private var lastSaveAt = -1.0

    /// Asked at start: only the instance that owns the plain name keeps the saved state.
    private let keepsState: () -> Bool
    private var active = false
    /// The every-second tick and a save scheduled for the next turn: cancelled on stop.
    private var ticker: LoopTimer?
    private var scheduledSave: LoopTimer?
    /// What the command line gave replaces the saved queue: saved at once.
    private let dirtyAtStart: Bool

    init(store: StateStoring, player: Player, loop: LoopTimers, log: Log, keepsState: @escaping () -> Bool = { true },
         dirtyAtStart: Bool = false) {
        self.store = store
        self.player = player
        self.loop = loop
        self.log = log
        self.keepsState = keepsState
        self.dirtyAtStart = dirtyAtStart
    }

    func start() {
        active = keepsState()
        guard active else { return }
        ticker = loop.every(milliseconds: 1000) { [self] in tick() }
        if dirtyAtStart { markDirty() }
    }

    /// The last save, of the state as it is now (before playback stops), written before `done`.
    func stop(_ done: @escaping () -> Void) {
        if active && !finish(with: player.savedState) { log.warning("could not save the state to \(store.path)") }
        active = false
        ticker?.cancel()
        scheduledSave?.cancel()
        ticker = nil
        scheduledSave = nil
        saveScheduled = false
        done()
    }

    /// Something changed: saved as soon as the loop is free when nothing was saved in the last second (so a queue
    /// given at start-up is on disk right away); a burst of changes waits for the next tick.
    func markDirty() {
        guard active else { return }
        dirty = true
        guard !saveScheduled, monotonicSeconds() - lastSaveAt >= 1 else { return }
        saveScheduled = true
        scheduledSave = loop.once(afterMilliseconds: 0) { [self] in
            saveScheduled = false
            if dirty { save() }
        }
    }

    /// At exit, with the loop stopped: waits for the writes under way, then writes `state` (if any) and waits for it.
    func finish(with state: SavedState?) -> Bool {
        writer.sync {}
        return state.map(store.save) ?? true
    }

    private func tick() {
        secondsSinceSave += 1
        if writeFailed.take() { dirty = true }
        guard dirty || (player.status == .playing && secondsSinceSave >= 10) else { return }
        save()
    }

    private func save() {
        lastSaveAt = monotonicSeconds()
        dirty = false
        secondsSinceSave = 0
        let state = player.savedState
        writer.async { [store, log, writeFailed] in
            guard !store.save(state) else { return }
            log.warning("could not save the state to \(store.path)")
            writeFailed.set()
        }
    }
}

/// A flag the writer queue sets and the loop takes (reads and clears).
private final class FailureFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    func take() -> Bool { value.withLock { failed in defer { failed = false }; return failed } }
}

/// Where the state is written (``StateStore``); called from the writer queue.
protocol StateStoring: Sendable {
    var path: String { get }
    /// Writes durably; false (the old file untouched) on failure.
    func save(_ state: SavedState) -> Bool
}

extension StateStore: StateStoring {}

/// The loop's timers (``EventLoop``).
protocol LoopTimers: AnyObject {
    @discardableResult func every(milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer
    @discardableResult func once(afterMilliseconds milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer
}

extension EventLoop: LoopTimers {}

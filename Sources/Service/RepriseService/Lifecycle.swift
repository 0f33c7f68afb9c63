import LoopKit
import RepriseCore
import RepriseInterfaces

/// A part of the service with a life of its own: started in the order the service declares, stopped in reverse.
protocol ServiceComponent: AnyObject {
    var name: String { get }
    func start() throws
    /// Stops; calls `done` once everything it still had to send is sent (at once for most components).
    func stop(_ done: @escaping () -> Void)
}

/// A component that follows the player: told after each change of the player's state (``ChangeAspects/player``),
/// in the order the service lists them, reading what it needs from the player.
protocol PlayerFollower: ChangeListener {
    /// The parts of the player's state it follows.
    var followedParts: ChangeAspects { get }
    /// Reads `change`, which names at least one followed part.
    func follow(_ change: Change)
}

extension PlayerFollower {
    func didChange(_ change: Change) {
        if !change.aspects.isDisjoint(with: followedParts) { follow(change) }
    }
}

/// The audio session counts the player's starts and stops.
extension AudioSessionController: PlayerFollower {
    var followedParts: ChangeAspects { .transport }
    func follow(_ change: Change) { lookAtPlaybackStatus() }
}

/// Chapters, the sleep timer and the position's ticks follow the whole player.
extension ListeningClock: PlayerFollower {
    var followedParts: ChangeAspects { .player }
    func follow(_ change: Change) { followPlayback() }
}

/// Entries to describe come with queue edits; the current one goes first.
extension MetadataReader: PlayerFollower {
    var followedParts: ChangeAspects { [.queue, .current] }
    func follow(_ change: Change) { scheduleReading() }
}

/// The window shows what plays and how.
extension VideoController: PlayerFollower, StreamEventListener {
    var followedParts: ChangeAspects { .player }
    func follow(_ change: Change) { followPlayback() }
}

/// The state saver follows the changes that touch what is saved.
final class SavedStateFollower: ChangeListener {
    private let saver: StateSaver
    init(saver: StateSaver) { self.saver = saver }
    func didChange(_ change: Change) {
        if change.affectsSavedState, !change.aspects.isDisjoint(with: .player) { saver.markDirty() }
    }
}

/// Starts the service's components in their declared order and stops them in reverse, each once the one after it
/// (in start order) is done: stopping drains. A bound keeps a component that never finishes (a dead sound server)
/// from holding the exit.
final class Lifecycle {
    private let loop: LoopTimers
    private let log: Log
    private let boundMilliseconds: UInt32
    private var started: [ServiceComponent] = []
    /// The component asked to stop that has not yet said it is done (named when the bound runs out).
    private var stoppingNow: ServiceComponent?
    private var stopping = false
    private var finished: (() -> Void)?
    /// The bound on stopping, cancelled once every component is done (no timer outlives the service).
    private var bound: LoopTimer?

    init(loop: LoopTimers, log: Log, boundMilliseconds: UInt32 = 2000) {
        self.loop = loop
        self.log = log
        self.boundMilliseconds = boundMilliseconds
    }

    /// Starts `components` in order. When one fails, those already started are stopped (without waiting) and the
    /// error is thrown.
    func start(_ components: [ServiceComponent]) throws {
        for component in components {
            do {
                try component.start()
            } catch {
                log.warning("\(component.name): \(error)")
                for earlier in started.reversed() { earlier.stop {} }
                started.removeAll()
                throw error
            }
            started.append(component)
        }
    }

    var isStopping: Bool { stopping }

    /// Stops the started components in reverse order, then calls `then` (once), also if the bound runs out first.
    func stop(reason: String, then: @escaping () -> Void) {
        guard !stopping else { return }
        stopping = true
        finished = then
        log.info("\(reason): stopping")
        bound = loop.once(afterMilliseconds: boundMilliseconds) { [weak self] in
            guard let self, finished != nil else { return }
            log.warning("stopping took over \(boundMilliseconds) ms (\(stoppingNow?.name ?? "?") did not finish); quitting anyway")
            finish()
        }
        stopNext()
    }

    private func stopNext() {
        guard let component = started.popLast() else { return finish() }
        stoppingNow = component
        component.stop { [weak self] in
            self?.stoppingNow = nil
            self?.stopNext()
        }
    }

    private func finish() {
        bound?.cancel()
        bound = nil
        let then = finished
        finished = nil
        then?()
    }
}

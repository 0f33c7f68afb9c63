import LoopKit

/// A component's one pending timer: setting it replaces the one waiting, and once closed (the component stopped)
/// none is set again.
final class TimerSlot {
    private let timers: LoopTimers
    private var pending: LoopTimer?
    private(set) var isClosed = false

    init(_ timers: LoopTimers) {
        self.timers = timers
    }

    /// Whether a timer is waiting.
    var isSet: Bool { pending?.isActive == true }

    /// Replaces the timer waiting with one that runs `action` after `milliseconds`; nothing once closed.
    func set(afterMilliseconds milliseconds: UInt32, _ action: @escaping () -> Void) {
        cancel()
        guard !isClosed else { return }
        pending = timers.once(afterMilliseconds: milliseconds) { [weak self] in
            self?.pending = nil
            action()
        }
    }

    func cancel() {
        pending?.cancel()
        pending = nil
    }

    /// Cancels the timer waiting, for good.
    func close() {
        isClosed = true
        cancel()
    }
}

/// A component that starts nothing and keeps one timer (``timer``), closed when it stops.
protocol TimedComponent: ServiceComponent {
    var timer: TimerSlot { get }
}

extension TimedComponent {
    func start() {}

    func stop(_ done: @escaping () -> Void) {
        timer.close()
        done()
    }
}

import Dispatch
import Glibc
import Synchronization

/// A thread of its own that runs the work handed to it in order and sleeps while there is none, until ``end()``.
/// A request finds it running: a dispatch queue lets its worker go after a few idle seconds and starts another for
/// the next request, so a pause after a quiet spell waited for a thread to start before the pipeline heard it.
public final class StandingThread: Sendable {
    private let items = Mutex(FIFOQueue<@Sendable () -> Void>())
    /// Signalled once for each item and once for the end.
    private let wake = DispatchSemaphore(value: 0)

    /// Nil when the system gives no thread.
    public init?() {
        let started = startDetachedThread { [self] in run() }
        guard started else { return nil }
    }

    public func submit(_ item: @escaping @Sendable () -> Void) {
        items.withLock { $0.append(item) }
        wake.signal()
    }

    /// The thread ends once what was handed to it before is done: the one signal no item goes with.
    public func end() {
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            // Woken with nothing to do: the end.
            guard let item = items.withLock({ $0.popFirst() }) else { return }
            item()
        }
    }
}

/// A thread of its own that runs submitted items in order, at nice 10 and the idle I/O class, while there are any:
/// it ends when it runs out of work (giving back its stack and the blocks its malloc cache held) and the next
/// submission starts another.
final class LowPriorityThread: SerialExecutor {
    private struct Work {
        var items = FIFOQueue<@Sendable () -> Void>()
        var threadRunning = false
    }
    private let work = Mutex(Work())

    func submit(_ item: @escaping @Sendable () -> Void) {
        let startThread = work.withLock { work in
            work.items.append(item)
            defer { work.threadRunning = true }
            return !work.threadRunning
        }
        guard startThread else { return }
        if !startDetachedThread({ [self] in run() }) {
            // No thread to be had now: the work waits for the next submission to try again.
            work.withLock { $0.threadRunning = false }
        }
    }

    private func run() {
        lowerCurrentThreadPriority()
        while let item = work.withLock({ work -> (@Sendable () -> Void)? in
            guard let item = work.items.popFirst() else {
                work.threadRunning = false
                return nil
            }
            return item
        }) {
            item()
        }
    }
}

/// Where a ``BackgroundWork`` runs its items, one after another.
protocol SerialExecutor: Sendable {
    func submit(_ item: @escaping @Sendable () -> Void)
}

extension DispatchQueue: SerialExecutor {
    func submit(_ item: @escaping @Sendable () -> Void) { async(execute: item) }
}

/// Runs `body` on a new detached thread; false when the system gives none.
private func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let started = pthread_create(&thread, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context)
    guard started == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        return false
    }
    pthread_detach(thread)
    return true
}

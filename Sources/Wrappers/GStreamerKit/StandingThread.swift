import Dispatch
import Glibc
import Synchronization

/// A thread of its own that runs the work handed to it in order and sleeps while there is none, until ``end()``.
/// A request finds it running: a dispatch queue lets its worker go after a few idle seconds and starts another for
/// the next request, so a pause after a quiet spell waited for a thread to start before the pipeline heard it.
final class StandingThread: Sendable {
    private struct Work {
        var items: [@Sendable () -> Void] = []
        var next = 0
        var ending = false
    }
    private let work = Mutex(Work())
    /// Signalled once for each item and once for the end.
    private let wake = DispatchSemaphore(value: 0)

    /// Nil when the system gives no thread.
    init?() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<StandingThread>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<StandingThread>.fromOpaque(context).release()
            return nil
        }
        pthread_detach(thread)
    }

    func submit(_ item: @escaping @Sendable () -> Void) {
        work.withLock { $0.items.append(item) }
        wake.signal()
    }

    /// The thread ends once what was handed to it before is done.
    func end() {
        work.withLock { $0.ending = true }
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            let item = work.withLock { work -> (@Sendable () -> Void)? in
                guard work.next < work.items.count else { return nil }
                defer {
                    work.next += 1
                    if work.next == work.items.count { (work.items, work.next) = ([], 0) }
                }
                return work.items[work.next]
            }
            guard let item else { return } // woken with nothing to do: the end
            item()
        }
    }
}

import Glibc

/// A bounded queue between two threads of a library pass: the sender waits while it is full, the receiver while it
/// is empty. Closing it (either side) wakes both: the receiver then drains what is left and gets nil, a sender gets
/// false and stops.
final class ScanPipe<Element: Sendable>: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Queues `element`, waiting for room; false once the pipe is closed.
    @discardableResult
    func send(_ element: Element) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !closed && items.count - head >= capacity { pthread_cond_wait(&changed, &mutex) }
        guard !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(&changed)
        return true
    }

    /// The next element, waiting for one; nil when the pipe is closed and empty.
    func receive() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !closed && head == items.count { pthread_cond_wait(&changed, &mutex) }
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        pthread_cond_broadcast(&changed)
        return element
    }

    func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}

/// A thread of a library pass, joined before the pass returns. It inherits the creating thread's CPU and I/O
/// priority (Linux copies both at creation): started from the library's low-priority worker, it runs low too.
final class ScanThread {
    private var thread = pthread_t()

    /// Nil when the system gives no thread (the pass fails and is tried again later).
    init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        guard pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
    }

    /// Waits for the thread to end.
    func join() { pthread_join(thread, nil) }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

import CLoopShims
import Dispatch
import Glibc
import Synchronization

/// Work that must not hold up the loop (reading a long playlist, checking each of its entries) done on one serial
/// worker queue; its result comes back to the loop through an eventfd the loop watches. The work touches nothing
/// the loop owns; the continuation runs on the loop, in the order the work was handed over.
public final class BackgroundWork {
    private let inbox: Inbox
    private let worker: any SerialExecutor
    private var continuations: [Int: (any Sendable) -> Void] = [:]
    private var lastToken = 0

    /// Nil when no eventfd can be had.
    /// - Parameter background: the work runs on a thread of its own at low CPU and disk priority (nice 10, idle
    ///   I/O), never on a shared dispatch thread that other work would then inherit slowed down.
    public init?(loop: EventLoop, label: String, background: Bool = false) {
        let fd = rp_wakeup_fd_new()
        guard fd >= 0 else { return nil }
        inbox = Inbox(fd: fd)
        worker = background ? LowPriorityThread() : DispatchQueue(label: label, qos: .userInitiated)
        loop.onReadable(fd) { [weak self] in
            self?.deliver()
            return true
        }
    }

    /// Runs `work` on the worker queue, then `then` with its result on the loop.
    public func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result, then: @escaping (Result) -> Void) {
        lastToken += 1
        let token = lastToken
        continuations[token] = { result in
            if let result = result as? Result { then(result) }
        }
        let inbox = inbox
        worker.submit { inbox.post(token, work()) }
    }

    private func deliver() {
        for (token, result) in inbox.takeAll() {
            continuations.removeValue(forKey: token)?(result)
        }
    }
}

/// Results handed from the worker to the loop.
private final class Inbox: Sendable {
    let fd: Int32
    private let results = Mutex<[(token: Int, result: any Sendable)]>([])

    init(fd: Int32) { self.fd = fd }

    func post(_ token: Int, _ result: any Sendable) {
        results.withLock { $0.append((token, result)) }
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    func takeAll() -> [(token: Int, result: any Sendable)] {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        return results.withLock { results in
            defer { results.removeAll() }
            return results
        }
    }
}

/// A flag the loop raises and a long piece of work reads between its steps, to stop early (a load cut short by
/// the service stopping).
public final class WorkCancellation: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    public func cancel() { raised.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { raised.load(ordering: .relaxed) }
}

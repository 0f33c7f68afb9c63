/// Operations that finish later, run one at a time in the order they were asked for: each starts when the one
/// before it has finished. Stored playlists' edits go through one, so that two clients' read-change-write cycles of
/// one file never interleave (MPD orders them too) and an "already exists" check sees every earlier write.
/// Owned by the event loop.
public final class MPDSerialWork {
    private var queued: [(@escaping () -> Void) -> Void] = []
    private var head = 0
    private var isRunning = false

    public init() {}

    /// Runs `operation` once those asked for before it have finished; it calls its argument when it has.
    public func run(_ operation: @escaping (_ done: @escaping () -> Void) -> Void) {
        queued.append(operation)
        guard !isRunning else { return }
        runNext()
    }

    private func runNext() {
        // A loop, not a recursion: operations that finish at once follow each other here.
        while head < queued.count, !isRunning {
            let operation = queued[head]
            queued[head] = { _ in }
            head += 1
            if head == queued.count {
                queued.removeAll()
                head = 0
            }
            isRunning = true
            var finished = false, finishedAtOnce = false, starting = true
            operation { [self] in
                guard !finished else { return }
                finished = true
                isRunning = false
                if starting { finishedAtOnce = true } else { runNext() }
            }
            starting = false
            if !finishedAtOnce { return }
        }
    }
}

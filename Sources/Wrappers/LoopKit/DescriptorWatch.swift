import CGStreamer

/// A watch on a file descriptor (``EventLoop/watch(_:for:_:)``): its handler runs on the loop while the descriptor
/// is ready, until the handler returns false or ``cancel()`` is called. Cancelling twice, or after the handler
/// ended it, does nothing; a socket's watches are cancelled before it is closed.
public final class DescriptorWatch {
    /// What to wait for.
    public enum Readiness: Sendable {
        /// Data to read, or the peer hung up.
        case readable
        /// Room to write.
        case writable
    }

    fileprivate final class Handler {
        let body: () -> Bool
        var finished = false
        init(_ body: @escaping () -> Bool) { self.body = body }
    }

    private let sourceID: guint
    private let handler: Handler

    fileprivate init(sourceID: guint, handler: Handler) {
        self.sourceID = sourceID
        self.handler = handler
    }

    /// Whether the handler may still run.
    public var isActive: Bool { !handler.finished }

    public func cancel() {
        guard !handler.finished else { return }
        handler.finished = true
        g_source_remove(sourceID)
    }
}

extension EventLoop {
    /// Runs `handler` on the loop whenever `fd` is ready for `readiness` (hang-ups and errors count as ready), until
    /// it returns false or the returned watch is cancelled.
    public func watch(_ fd: Int32, for readiness: DescriptorWatch.Readiness, _ handler: @escaping () -> Bool) -> DescriptorWatch {
        let wanted = readiness == .readable ? G_IO_IN.rawValue : G_IO_OUT.rawValue
        let condition = GIOCondition(rawValue: wanted | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        let box = DescriptorWatch.Handler(handler)
        let id = addDescriptorSource(fd, condition, { _, _, userdata in
            let box = Unmanaged<DescriptorWatch.Handler>.fromOpaque(userdata!).takeUnretainedValue()
            guard !box.finished else { return 0 }
            if box.body() { return 1 }
            box.finished = true
            return 0
        }, Unmanaged.passRetained(box).toOpaque(), { Unmanaged<DescriptorWatch.Handler>.fromOpaque($0!).release() })
        return DescriptorWatch(sourceID: id, handler: box)
    }
}

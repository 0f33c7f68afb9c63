import CGStreamer
import CSystemd
import Glibc

/// A watch on a file descriptor (``EventLoop/watch(_:for:_:)``): its handler runs on the loop while the descriptor
/// is ready, until the handler returns false or ``cancel()`` is called. Cancelling twice, or after the handler
/// ended it, does nothing; a socket's watches are cancelled before it is closed.
///
/// The descriptor is an sd-event I/O source, so adding or removing it is one `epoll_ctl` on sd-event's epoll
/// descriptor. GLib's poll set (which holds that descriptor) does not change, so GLib is not woken for an extra
/// turn of the loop each time a client connects or leaves, and it does not poll every client's socket on each turn.
/// epoll takes a descriptor once: a second watch on the same one (a socket's write watch beside its read watch), or
/// one epoll refuses, is a GLib source instead.
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

    fileprivate enum Source {
        case sdEvent(OpaquePointer)
        case glib(guint)
    }

    private let source: Source
    private let handler: Handler

    fileprivate init(source: Source, handler: Handler) {
        self.source = source
        self.handler = handler
    }

    /// Whether the handler may still run.
    public var isActive: Bool { !handler.finished }

    public func cancel() {
        guard !handler.finished else { return }
        handler.finished = true
        switch source {
        case .sdEvent(let source): sd_event_source_disable_unref(source)
        case .glib(let id): g_source_remove(id)
        }
    }

    /// Runs the handler for a ready descriptor; a handler that returns false ends the watch (sd-event frees the
    /// source after this dispatch; its destroy callback releases the handler).
    fileprivate static let dispatch: sd_event_io_handler_t = { source, _, _, userdata in
        let box = Unmanaged<Handler>.fromOpaque(userdata!).takeUnretainedValue()
        guard !box.finished else { return 0 }
        if !box.body(), !box.finished {
            box.finished = true
            sd_event_source_disable_unref(source)
        }
        return 0
    }
}

extension EventLoop {
    /// Runs `handler` on the loop whenever `fd` is ready for `readiness` (hang-ups and errors count as ready), until
    /// it returns false or the returned watch is cancelled.
    public func watch(_ fd: Int32, for readiness: DescriptorWatch.Readiness, _ handler: @escaping () -> Bool) -> DescriptorWatch {
        let box = DescriptorWatch.Handler(handler)
        let userdata = Unmanaged.passRetained(box).toOpaque()
        let events = readiness == .readable ? EPOLLIN.rawValue : EPOLLOUT.rawValue
        var source: OpaquePointer?
        if sd_event_add_io(sdEvent, &source, fd, events, DescriptorWatch.dispatch, userdata) >= 0, let source {
            sd_event_source_set_destroy_callback(source, { Unmanaged<DescriptorWatch.Handler>.fromOpaque($0!).release() })
            return DescriptorWatch(source: .sdEvent(source), handler: box)
        }
        let wanted = readiness == .readable ? G_IO_IN.rawValue : G_IO_OUT.rawValue
        let condition = GIOCondition(rawValue: wanted | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        let id = addDescriptorSource(fd, condition, { _, _, userdata in
            let box = Unmanaged<DescriptorWatch.Handler>.fromOpaque(userdata!).takeUnretainedValue()
            guard !box.finished else { return 0 }
            if box.body() { return 1 }
            box.finished = true
            return 0
        }, userdata, { Unmanaged<DescriptorWatch.Handler>.fromOpaque($0!).release() })
        return DescriptorWatch(source: .glib(id), handler: box)
    }
}

import CGStreamer
import CLoopShims
import CSystemd

/// The one event loop of the process: a GLib main loop on the main thread, with sd-event (and so
/// sd-bus) attached as a GLib source. GStreamer's bus watch and Unix signals are GLib sources too,
/// so every callback that touches state runs here, one at a time.
public final class EventLoop {
    private let mainLoop: OpaquePointer
    /// sd-event loop driven from GLib; attach sd-bus connections to it.
    public let sdEvent: OpaquePointer
    private var callbacks: [LoopCallback] = []

    public init?() {
        var event: OpaquePointer? = nil
        guard sd_event_new(&event) >= 0, let event else { return nil }
        sdEvent = event
        let source = rp_sd_event_source_new(event)
        g_source_attach(source, nil)
        g_source_unref(source)
        mainLoop = g_main_loop_new(nil, 0)
    }

    deinit {
        g_main_loop_unref(mainLoop)
        sd_event_unref(sdEvent)
    }

    /// Runs `handler` on the loop when signal `number` arrives (instead of the default action).
    public func onSignal(_ number: Int32, _ handler: @escaping () -> Void) {
        g_unix_signal_add_full(G_PRIORITY_HIGH, number, LoopCallback.trampoline, keep(handler), nil)
    }

    /// Runs `handler` on the loop every `milliseconds` until the returned timer is cancelled.
    @discardableResult
    public func every(milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer {
        let callback = LoopCallback(handler)
        let id = g_timeout_add_full(G_PRIORITY_HIGH, milliseconds, { userdata in
            let callback = Unmanaged<LoopCallback>.fromOpaque(userdata!).takeUnretainedValue()
            guard !callback.finished else { return 0 }
            callback.handler()
            return 1
        }, Unmanaged.passRetained(callback).toOpaque(), { Unmanaged<LoopCallback>.fromOpaque($0!).release() })
        return LoopTimer(sourceID: id, callback: callback)
    }

    /// Runs `handler` once on the loop, `milliseconds` from now (0: as soon as the current callback has returned),
    /// unless the returned timer is cancelled first.
    @discardableResult
    public func once(afterMilliseconds milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer {
        let callback = LoopCallback(handler)
        let id = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { userdata in
            let callback = Unmanaged<LoopCallback>.fromOpaque(userdata!).takeUnretainedValue()
            guard !callback.finished else { return 0 }
            callback.finished = true
            callback.handler()
            return 0
        }, Unmanaged.passRetained(callback).toOpaque(), { Unmanaged<LoopCallback>.fromOpaque($0!).release() })
        return LoopTimer(sourceID: id, callback: callback)
    }

    /// Runs `handler` on the loop whenever file descriptor `fd` is readable (or hung up), until it returns false
    /// (an sd-event source, as ``watch(_:for:_:)``'s).
    public func onReadable(_ fd: Int32, _ handler: @escaping () -> Bool) {
        _ = watch(fd, for: .readable, handler)
    }

    /// Attaches a GLib source for `fd` (as `g_unix_fd_add_full` would) that GLib does not block while its callback
    /// runs: ``watch(_:for:_:)``'s fallback when epoll does not take the descriptor.
    /// Blocking takes the descriptor out of the poll set and puts it back after, and each of those wakes the loop
    /// (GLib 2.74 signals its wake-up descriptor whenever the poll set changes): one more turn of the loop, with a
    /// poll of every descriptor, after each event handled. Nothing here runs the loop from inside a callback, so
    /// there is no recursion to guard against.
    @discardableResult
    func addDescriptorSource(_ fd: Int32, _ condition: GIOCondition, _ callback: GUnixFDSourceFunc,
                             _ userdata: UnsafeMutableRawPointer?, _ destroy: GDestroyNotify?) -> guint {
        let source = g_unix_fd_source_new(fd, condition)!
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        g_source_set_can_recurse(source, 1)
        g_source_set_callback(source, unsafeBitCast(callback, to: GSourceFunc.self), userdata, destroy)
        let id = g_source_attach(source, nil)
        g_source_unref(source)
        return id
    }

    /// Keeps `handler` alive as long as the loop and returns the userdata for ``LoopCallback/trampoline``.
    private func keep(_ handler: @escaping () -> Void) -> UnsafeMutableRawPointer {
        let callback = LoopCallback(handler)
        callbacks.append(callback)
        return Unmanaged.passUnretained(callback).toOpaque()
    }

    /// Dispatches events until ``quit()``.
    public func run() { g_main_loop_run(mainLoop) }

    public func quit() { g_main_loop_quit(mainLoop) }
}

/// A Swift closure run by a GLib source (signal or timer) that stays installed.
final class LoopCallback {
    let handler: () -> Void
    /// Ran (a one-shot) or cancelled: its source is gone or going.
    var finished = false
    init(_ handler: @escaping () -> Void) { self.handler = handler }

    static let trampoline: GSourceFunc = { userdata in
        Unmanaged<LoopCallback>.fromOpaque(userdata!).takeUnretainedValue().handler()
        return 1
    }
}

/// A timer on the loop (``EventLoop/every(milliseconds:_:)``, ``EventLoop/once(afterMilliseconds:_:)``):
/// ``cancel()`` stops it; cancelling one that already ran, or twice, does nothing. A component cancels its timers
/// when it stops, so none fires after.
public final class LoopTimer {
    private let sourceID: guint
    private let callback: LoopCallback?
    private var onCancel: (() -> Void)?
    private let fakeIsActive: () -> Bool

    init(sourceID: guint, callback: LoopCallback) {
        self.sourceID = sourceID
        self.callback = callback
        fakeIsActive = { false }
    }

    /// A timer of a test's own loop: `isActive` says whether it may still fire; `cancel()` runs `onCancel` once.
    public init(isActive: @escaping () -> Bool = { true }, onCancel: @escaping () -> Void) {
        sourceID = 0
        callback = nil
        fakeIsActive = isActive
        self.onCancel = onCancel
    }

    /// Whether it may still fire.
    public var isActive: Bool { callback.map { !$0.finished } ?? (onCancel != nil && fakeIsActive()) }

    public func cancel() {
        if let callback {
            guard !callback.finished else { return }
            callback.finished = true
            g_source_remove(sourceID)
        } else {
            let action = onCancel
            onCancel = nil
            action?()
        }
    }
}

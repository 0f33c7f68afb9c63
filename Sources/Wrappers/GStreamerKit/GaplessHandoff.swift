import CGStreamer
import CGStreamerShims
import Synchronization

/// The URI playbin should continue with when the current stream is about to finish, shared between
/// the main loop (which sets it) and playbin's streaming thread (which takes it in `about-to-finish`).
/// Nothing else crosses threads: the switch itself is reported on the main loop as a stream-start message.
final class GaplessHandoff: Sendable {
    private struct State {
        var nextURI: String?
        /// The URI handed to playbin whose stream has not started yet.
        var handedOver: String?
    }
    private let state = Mutex(State())

    func setNext(_ uri: String?) { state.withLock { $0.nextURI = uri } }

    /// Forgets the next URI and any pending switch (the pipeline was stopped or reloaded).
    func reset() { state.withLock { $0 = State() } }

    /// Streaming thread: the URI to hand over, marking the switch pending; nil lets the stream end.
    func takeNext() -> String? {
        state.withLock { current in
            guard let uri = current.nextURI else { return nil }
            current.nextURI = nil
            current.handedOver = uri
            return uri
        }
    }

    var isSwitchPending: Bool { state.withLock { $0.handedOver != nil } }

    /// Main loop: the handed-over URI (once) when the stream that just started is that one.
    func takeSwitch() -> String? {
        state.withLock { current in
            defer { current.handedOver = nil }
            return current.handedOver
        }
    }

    /// Connects to `playbin`'s `about-to-finish` signal; `self` must outlive the element.
    func connect(to playbin: UnsafeMutablePointer<GstElement>) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { element, userdata in
            guard let element, let userdata else { return }
            let handoff = Unmanaged<GaplessHandoff>.fromOpaque(userdata).takeUnretainedValue()
            if let uri = handoff.takeNext() { rp_object_set_string(element, "uri", uri) }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(playbin), "about-to-finish",
                              unsafeBitCast(handler, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque(),
                              nil, GConnectFlags(rawValue: 0))
    }
}

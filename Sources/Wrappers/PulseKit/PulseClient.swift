import CPulse
import RepriseCore

/// A libpulse context on the process's GLib main loop (`pa_glib_mainloop`): subscribes to sinks, sink inputs
/// and the server, reports every change as a ``PulseEvent`` on the loop's thread, and reconnects whenever the
/// server goes away and comes back. It never starts a server.
public final class PulseClient {
    private let mainloop: OpaquePointer
    var context: OpaquePointer?
    private let applicationName: String
    private var knownSinkInputs: Set<UInt32> = []
    private var reconnectTimer: guint = 0
    /// Names of the server's loaded modules (as of the last connection).
    public private(set) var loadedModules: Set<String> = []
    /// Whether the server is PipeWire's pulse server (its name says "on PipeWire"), as of the last connection.
    public private(set) var isPipeWire = false
    /// Called on the main loop for everything the server reports.
    public var onEvent: ((PulseEvent) -> Void)?

    public init(applicationName: String) {
        self.applicationName = applicationName
        mainloop = pa_glib_mainloop_new(nil)
    }

    deinit {
        if reconnectTimer != 0 { g_source_remove(reconnectTimer) }
        dropContext()
        pa_glib_mainloop_free(mainloop)
    }

    public var isConnected: Bool { context.map { pa_context_get_state($0) == PA_CONTEXT_READY } ?? false }

    /// Connects now, and again after every disconnection.
    public func connect() {
        dropContext()
        let proplist = pa_proplist_new()
        pa_proplist_sets(proplist, PA_PROP_APPLICATION_NAME, applicationName)
        pa_proplist_sets(proplist, PA_PROP_APPLICATION_ID, "reprise")
        guard let created = pa_context_new_with_proplist(pa_glib_mainloop_get_api(mainloop), applicationName, proplist) else {
            pa_proplist_free(proplist)
            scheduleReconnect()
            return
        }
        pa_proplist_free(proplist)
        context = created
        pa_context_set_state_callback(created, { context, userdata in
            guard let context, let userdata else { return }
            Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().stateChanged(pa_context_get_state(context))
        }, selfPointer)
        pa_context_set_subscribe_callback(created, { _, type, index, userdata in
            guard let userdata else { return }
            Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().subscriptionEvent(type, index)
        }, selfPointer)
        // NOFAIL: with no server yet, wait for one to appear instead of failing.
        if pa_context_connect(created, nil, PA_CONTEXT_NOFAIL, nil) < 0 { scheduleReconnect() }
    }

    // MARK: Requests

    public func moveSinkInput(_ index: UInt32, toSink name: String) {
        guard let context, isConnected else { return }
        release(pa_context_move_sink_input_by_name(context, index, name, nil, nil))
    }

    /// Sets per-channel volumes (as read from ``SinkInputInfo/volumes``).
    public func setSinkInputVolume(_ index: UInt32, _ volumes: [UInt32]) {
        guard let context, isConnected, !volumes.isEmpty, volumes.count <= Int(PA_CHANNELS_MAX) else { return }
        var cvolume = pa_cvolume()
        cvolume.channels = UInt8(volumes.count)
        withUnsafeMutableBytes(of: &cvolume.values) { raw in
            let values = raw.bindMemory(to: UInt32.self)
            for (channel, volume) in volumes.enumerated() { values[channel] = min(volume, PA_VOLUME_MAX) }
        }
        release(pa_context_set_sink_input_volume(context, index, &cvolume, nil, nil))
    }

    public func setSinkInputMute(_ index: UInt32, _ muted: Bool) {
        guard let context, isConnected else { return }
        release(pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, nil, nil))
    }

    /// Loads module `name` with `arguments`; `done` hears its index, or nil when the server refused it (or there is
    /// no connection).
    public func loadModule(_ name: String, arguments: String, done: @escaping (UInt32?) -> Void) {
        guard let context, isConnected else { return done(nil) }
        let box = Unmanaged.passRetained(IndexCompletion(done)).toOpaque()
        let operation = pa_context_load_module(context, name, arguments, { _, index, userdata in
            guard let userdata else { return }
            Unmanaged<IndexCompletion>.fromOpaque(userdata).takeRetainedValue().done(index == UInt32.max ? nil : index) // PA_INVALID_INDEX
        }, box)
        guard let operation else {
            Unmanaged<IndexCompletion>.fromOpaque(box).release()
            return done(nil)
        }
        release(operation)
    }

    public func unloadModule(_ index: UInt32) {
        guard let context, isConnected else { return }
        release(pa_context_unload_module(context, index, nil, nil))
    }

    /// The loaded modules as (index, name, arguments); `done` hears them (none without a connection).
    public func listModules(_ done: @escaping ([(index: UInt32, name: String, arguments: String)]) -> Void) {
        guard let context, isConnected else { return done([]) }
        let box = Unmanaged.passRetained(ModuleListing(done)).toOpaque()
        let operation = pa_context_get_module_info_list(context, { _, info, eol, userdata in
            guard let userdata else { return }
            let listing = Unmanaged<ModuleListing>.fromOpaque(userdata)
            if eol != 0 {
                let finished = listing.takeRetainedValue()
                finished.done(finished.modules)
            } else if let info {
                listing.takeUnretainedValue().modules.append((info.pointee.index, info.pointee.name.map { String(cString: $0) } ?? "",
                                                              info.pointee.argument.map { String(cString: $0) } ?? ""))
            }
        }, box)
        guard let operation else {
            Unmanaged<ModuleListing>.fromOpaque(box).release()
            return done([])
        }
        release(operation)
    }

    private final class IndexCompletion {
        let done: (UInt32?) -> Void
        init(_ done: @escaping (UInt32?) -> Void) { self.done = done }
    }

    private final class ModuleListing {
        let done: ([(index: UInt32, name: String, arguments: String)]) -> Void
        var modules: [(index: UInt32, name: String, arguments: String)] = []
        init(_ done: @escaping ([(index: UInt32, name: String, arguments: String)]) -> Void) { self.done = done }
    }

    /// Calls `done` on the loop once the server has handled every request sent so far (a round trip queued behind
    /// them: the server answers in order), or at once when there is no connection. Never called when the
    /// connection dies first: callers bound the wait.
    public func afterPendingRequests(_ done: @escaping () -> Void) {
        guard let context, isConnected else { return done() }
        let box = Unmanaged.passRetained(Completion(done)).toOpaque()
        let operation = pa_context_get_server_info(context, { _, _, userdata in
            guard let userdata else { return }
            Unmanaged<Completion>.fromOpaque(userdata).takeRetainedValue().done()
        }, box)
        guard let operation else {
            Unmanaged<Completion>.fromOpaque(box).release()
            return done()
        }
        release(operation)
    }

    private final class Completion {
        let done: () -> Void
        init(_ done: @escaping () -> Void) { self.done = done }
    }

    // MARK: Internals

    private var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }

    private func dropContext() {
        guard let context else { return }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        self.context = nil
    }

    private func scheduleReconnect() {
        guard reconnectTimer == 0 else { return }
        reconnectTimer = g_timeout_add(500, { userdata in
            guard let userdata else { return 0 }
            let client = Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue()
            client.reconnectTimer = 0
            client.connect()
            return 0
        }, selfPointer)
    }

    private func stateChanged(_ state: pa_context_state_t) {
        switch state {
        case PA_CONTEXT_READY:
            guard let context else { return }
            let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
                | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            release(pa_context_subscribe(context, pa_subscription_mask_t(mask), nil, nil))
            knownSinkInputs.removeAll()
            queryServer()
            release(pa_context_get_sink_info_list(context, Self.sinkCallback, selfPointer))
            release(pa_context_get_sink_input_info_list(context, Self.sinkInputCallback, selfPointer))
            loadedModules.removeAll()
            release(pa_context_get_module_info_list(context, { _, info, eol, userdata in
                guard eol == 0, let info, let userdata, let name = info.pointee.name else { return }
                Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().loadedModules.insert(String(cString: name))
            }, selfPointer))
            // Reported after the lists above (operations complete in order).
            release(pa_context_get_server_info(context, { _, info, userdata in
                guard let userdata else { return }
                let client = Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue()
                client.isPipeWire = info?.pointee.server_name.map { String(cString: $0).contains(text: "PipeWire") } ?? false
                client.onEvent?(.connected)
            }, selfPointer))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            knownSinkInputs.removeAll()
            onEvent?(.disconnected)
            dropContext()
            scheduleReconnect()
        default:
            break
        }
    }

    private func subscriptionEvent(_ type: pa_subscription_event_type_t, _ index: UInt32) {
        guard let context else { return }
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let removed = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            if removed { onEvent?(.sinkRemoved(index)) } else {
                release(pa_context_get_sink_info_by_index(context, index, Self.sinkCallback, selfPointer))
            }
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if removed {
                knownSinkInputs.remove(index)
                onEvent?(.sinkInputRemoved(index))
            } else {
                release(pa_context_get_sink_input_info(context, index, Self.sinkInputCallback, selfPointer))
            }
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            queryServer()
        default:
            break
        }
    }

    private func queryServer() {
        guard let context else { return }
        release(pa_context_get_server_info(context, { _, info, userdata in
            guard let info, let userdata, let name = info.pointee.default_sink_name else { return }
            Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().onEvent?(.defaultSinkChanged(String(cString: name)))
        }, selfPointer))
    }

    private static let sinkCallback: pa_sink_info_cb_t = { _, info, eol, userdata in
        guard eol == 0, let info, let userdata else { return }
        Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().onEvent?(.sinkChanged(Output(info.pointee)))
    }

    private static let sinkInputCallback: pa_sink_input_info_cb_t = { _, info, eol, userdata in
        guard eol == 0, let info, let userdata else { return }
        let client = Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue()
        let input = SinkInputInfo(info.pointee)
        let isNew = client.knownSinkInputs.insert(input.index).inserted
        client.onEvent?(.sinkInputChanged(input, isNew: isNew))
    }
}

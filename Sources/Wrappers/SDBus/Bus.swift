import CSDBusShims
import CSystemd
import Glibc

/// A connection to a D-Bus bus through sd-bus. Used from one thread only (the event loop's).
public final class Bus {
    let raw: OpaquePointer
    private var registrations: [Registration] = []
    private var matches: [MatchHandler] = []
    private var filters: [CallFilter] = []

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit {
        registrations.removeAll()
        matches.removeAll()
        _ = withHandledSignalsHeld { sd_bus_flush_close_unref(raw) }
    }

    /// Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` (or the user's default).
    public static func session() throws(DBusError) -> Bus {
        var raw: OpaquePointer? = nil
        try check(sd_bus_open_user(&raw), "connect to the session bus")
        return Bus(raw: raw!)
    }

    /// Connects to the bus at `address` (e.g. `unix:path=/run/user/1000/bus`).
    public static func connect(address: String) throws(DBusError) -> Bus {
        var raw: OpaquePointer? = nil
        try check(sd_bus_new(&raw), "create bus")
        let bus = Bus(raw: raw!)
        try check(sd_bus_set_address(bus.raw, address), "set bus address")
        try check(sd_bus_set_bus_client(bus.raw, 1), "set bus client")
        try check(sd_bus_start(bus.raw), "connect to \(address)")
        return bus
    }

    /// Lets an sd-event loop (already driven by the process's main loop) dispatch this bus.
    public func attach(toEvent event: OpaquePointer) throws(DBusError) {
        try check(sd_bus_attach_event(raw, event, 0), "attach bus to event loop")
    }

    /// Stops the event loop from dispatching this bus: nothing more is read or answered (what is queued to send
    /// goes only with an explicit ``flush()``).
    public func detachFromEvent() { _ = sd_bus_detach_event(raw) }

    public var uniqueName: String {
        var name: UnsafePointer<CChar>? = nil
        guard sd_bus_get_unique_name(raw, &name) >= 0, let name else { return "" }
        return String(cString: name)
    }

    /// Asks for `name` without queueing. Returns false when another connection owns it.
    public func requestName(_ name: String) throws(DBusError) -> Bool {
        let r = withHandledSignalsHeld { sd_bus_request_name(raw, name, 0) }
        if r == -EEXIST { return false }
        try check(r, "request name \(name)")
        return true
    }

    public func askOwner(of name: String, answer: @escaping (String?) -> Void) {
        callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                  member: "GetNameOwner", [.string(name)]) { result in
            answer((try? result.get())?.first?.stringValue)
        }
    }

    public func releaseName(_ name: String) {
        _ = withHandledSignalsHeld { sd_bus_release_name(raw, name) }
    }

    /// Exports `implementation` as `interface` at `path`.
    public func export(_ interface: InterfaceDescription, at path: String,
                       implementation: InterfaceImplementation) throws(DBusError) {
        let registration = Registration(description: interface, implementation: implementation)
        var slot: OpaquePointer? = nil
        let userdata = Unmanaged.passUnretained(registration).toOpaque()
        try check(sd_bus_add_object_vtable(raw, &slot, path, interface.name, rp_vtable_finish(registration.table), userdata),
                  "export \(interface.name) at \(path)")
        registration.slot = slot
        registrations.append(registration)
    }

    /// Exports `implementation` as `interface` on every object at or under `prefix` it says exists.
    public func exportTree(_ interface: InterfaceDescription, under prefix: String,
                           implementation: TreeImplementation) throws(DBusError) {
        let registration = Registration(description: interface, tree: implementation)
        var slot: OpaquePointer? = nil
        let userdata = Unmanaged.passUnretained(registration).toOpaque()
        let find: sd_bus_object_find_t = { _, path, _, userdata, found, _ in
            guard let path, let userdata, Registration.from(userdata).tree?.exists(String(cString: path)) == true else { return 0 }
            found?.pointee = userdata
            return 1
        }
        try check(sd_bus_add_fallback_vtable(raw, &slot, prefix, interface.name, rp_vtable_finish(registration.table), find, userdata),
                  "export \(interface.name) under \(prefix)")
        registration.slot = slot
        registrations.append(registration)
    }

    /// Shows `filter` every method call to `prefix` and the objects under it before the exported interfaces see it
    /// (sd-bus runs an object's callbacks before its vtables). A filter that returns a handler takes the call: the
    /// handler gets it, to answer now or later (a property of an object that must first be looked up, say); nil
    /// leaves the call to the exported interfaces.
    public func addFilter(under prefix: String,
                          _ filter: @escaping (_ path: String, _ interface: String, _ member: String) -> ((MethodCall) -> Void)?)
        throws(DBusError) {
        let box = CallFilter(filter)
        var slot: OpaquePointer? = nil
        let r = sd_bus_add_fallback(raw, &slot, prefix, { raw, userdata, out in
            guard let raw, let userdata else { return 0 }
            var type: UInt8 = 0
            guard sd_bus_message_get_type(raw, &type) >= 0, type == UInt8(SD_BUS_MESSAGE_METHOD_CALL) else { return 0 }
            let message = Message(retaining: raw)
            let box = Unmanaged<CallFilter>.fromOpaque(userdata).takeUnretainedValue()
            guard let handler = box.filter(message.path ?? "", message.interface ?? "", message.member ?? "") else { return 0 }
            do throws(DBusError) {
                handler(MethodCall(message: message, arguments: try message.readAll()))
                return 1
            } catch {
                return error.fill(out)
            }
        }, Unmanaged.passUnretained(box).toOpaque())
        try check(r, "add a filter under \(prefix)")
        box.slot = slot
        filters.append(box)
    }

    /// Emits one PropertiesChanged signal carrying the current values of `names` (sd-bus calls the getters).
    public func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(DBusError) {
        guard !names.isEmpty else { return }
        var cStrings = names.map { strdup($0) }
        cStrings.append(nil)
        defer { cStrings.forEach { free($0) } }
        let r = cStrings.withUnsafeMutableBufferPointer {
            sd_bus_emit_properties_changed_strv(raw, path, interface, $0.baseAddress)
        }
        try check(r, "emit PropertiesChanged on \(interface)")
    }

    /// Emits a signal with the given arguments.
    public func emitSignal(path: String, interface: String, member: String, _ values: [DBusValue]) throws(DBusError) {
        var message: OpaquePointer? = nil
        try check(sd_bus_message_new_signal(raw, &message, path, interface, member), "new signal \(member)")
        let owned = Message(adopting: message!)
        try owned.append(values)
        try check(sd_bus_send(raw, owned.raw, nil), "send \(member)")
    }

    /// Calls `handler` once when the connection to the bus is lost (the daemon went away).
    public func onDisconnect(_ handler: @escaping () -> Void) throws(DBusError) {
        try addMatch("type='signal',sender='org.freedesktop.DBus.Local',path='/org/freedesktop/DBus/Local',"
                     + "interface='org.freedesktop.DBus.Local',member='Disconnected'") { _ in handler() }
    }

    /// Writes out every queued message.
    public func flush() { _ = withHandledSignalsHeld { sd_bus_flush(raw) } }

    // MARK: Client side

    /// Calls a method and waits for its reply.
    public func call(destination: String, path: String, interface: String, member: String,
                     _ arguments: [DBusValue] = [], timeoutMicroseconds: UInt64 = 25_000_000) throws(DBusError) -> [DBusValue] {
        var message: OpaquePointer? = nil
        try check(sd_bus_message_new_method_call(raw, &message, destination, path, interface, member), "new call \(member)")
        let request = Message(adopting: message!)
        try request.append(arguments)
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var replyRaw: OpaquePointer? = nil
        let r = withHandledSignalsHeld { sd_bus_call(raw, request.raw, timeoutMicroseconds, &error, &replyRaw) }
        if r < 0 {
            if sd_bus_error_is_set(&error) != 0 { throw DBusError(&error) }
            throw DBusError.errno(r, "call \(interface).\(member)")
        }
        return try Message(adopting: replyRaw!).readAll()
    }

    /// Calls a method without blocking; `completion` runs on the loop with the reply's values or the error.
    public func callAsync(destination: String, path: String, interface: String, member: String,
                          _ arguments: [DBusValue] = [], timeoutMicroseconds: UInt64 = 5_000_000,
                          completion: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        do throws(DBusError) {
            var message: OpaquePointer? = nil
            try check(sd_bus_message_new_method_call(raw, &message, destination, path, interface, member), "new call \(member)")
            let request = Message(adopting: message!)
            try request.append(arguments)
            let box = ReplyHandler(completion)
            let userdata = Unmanaged.passRetained(box).toOpaque()
            let r = sd_bus_call_async(raw, nil, request.raw, { reply, userdata, _ in
                guard let userdata else { return 0 }
                let box = Unmanaged<ReplyHandler>.fromOpaque(userdata).takeRetainedValue()
                // Errors and timeouts arrive as error replies.
                if let reply, sd_bus_message_is_method_error(reply, nil) != 0, let error = sd_bus_message_get_error(reply) {
                    box.completion(.failure(DBusError(error)))
                } else if let reply {
                    do throws(DBusError) {
                        box.completion(.success(try Message(retaining: reply).readAll()))
                    } catch {
                        box.completion(.failure(error))
                    }
                } else {
                    box.completion(.failure(.failed("no reply")))
                }
                return 0
            }, userdata, timeoutMicroseconds)
            if r < 0 {
                Unmanaged<ReplyHandler>.fromOpaque(userdata).release()
                throw DBusError.errno(r, "call \(interface).\(member)")
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// Sends a method call without waiting for (or wanting) its reply.
    public func send(destination: String, path: String, interface: String, member: String,
                     _ arguments: [DBusValue] = []) throws(DBusError) {
        var message: OpaquePointer? = nil
        try check(sd_bus_message_new_method_call(raw, &message, destination, path, interface, member), "new call \(member)")
        let request = Message(adopting: message!)
        try request.append(arguments)
        try check(sd_bus_message_set_expect_reply(request.raw, 0), "set no reply")
        try check(sd_bus_send(raw, request.raw, nil), "send \(member)")
    }

    /// Reads a property through org.freedesktop.DBus.Properties.Get.
    public func getProperty(destination: String, path: String, interface: String, name: String) throws(DBusError) -> DBusValue {
        let reply = try call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                             member: "Get", [.string(interface), .string(name)])
        guard let first = reply.first else { throw DBusError.failed("empty Get reply") }
        return first.unwrapped
    }

    /// Writes a property through org.freedesktop.DBus.Properties.Set; `value` is wrapped in a variant.
    public func setProperty(destination: String, path: String, interface: String, name: String, _ value: DBusValue) throws(DBusError) {
        _ = try call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                     member: "Set", [.string(interface), .string(name), .variant(value)])
    }

    /// Calls `handler` for every message matching `rule` (a D-Bus match rule) while the bus is processed, until the
    /// returned match is removed (or the bus goes).
    @discardableResult
    public func addMatch(_ rule: String, _ handler: @escaping (ReceivedMessage) -> Void) throws(DBusError) -> BusMatch {
        let box = MatchHandler(handler)
        var slot: OpaquePointer? = nil
        let deliver: sd_bus_message_handler_t = { raw, userdata, _ in
            guard let raw, let userdata else { return 0 }
            let box = Unmanaged<MatchHandler>.fromOpaque(userdata).takeUnretainedValue()
            let message = Message(retaining: raw)
            box.handler(ReceivedMessage(member: message.member ?? "", interface: message.interface ?? "",
                                        path: message.path ?? "", sender: message.sender ?? "",
                                        arguments: (try? message.readAll()) ?? []))
            return 0
        }
        // AddMatch is a call to the daemon, waited for.
        let r = withHandledSignalsHeld { sd_bus_add_match(raw, &slot, rule, deliver, Unmanaged.passUnretained(box).toOpaque()) }
        try check(r, "add match \(rule)")
        box.slot = slot
        matches.append(box)
        return BusMatch { [weak self, weak box] in
            guard let self, let box else { return }
            matches.removeAll { $0 === box }
        }
    }

    /// Processes pending input, waiting at most `timeoutMicroseconds` for some to arrive. For clients without an event loop.
    public func processPending(waitingUpTo timeoutMicroseconds: UInt64) {
        while sd_bus_process(raw, nil) > 0 {}
        _ = sd_bus_wait(raw, timeoutMicroseconds)
        while sd_bus_process(raw, nil) > 0 {}
    }
}

/// A match added with ``Bus/addMatch(_:_:)``: ``remove()`` stops its handler (the daemon forgets the rule).
public final class BusMatch {
    private var onRemove: (() -> Void)?
    init(onRemove: @escaping () -> Void) { self.onRemove = onRemove }
    public func remove() {
        onRemove?()
        onRemove = nil
    }
}

/// A signal (or other message) delivered to a match handler, decoded into Swift values.
public struct ReceivedMessage: Sendable, Equatable {
    public let member: String
    public let interface: String
    public let path: String
    public let sender: String
    public let arguments: [DBusValue]
}

final class ReplyHandler {
    let completion: (Result<[DBusValue], DBusError>) -> Void
    init(_ completion: @escaping (Result<[DBusValue], DBusError>) -> Void) { self.completion = completion }
}

final class CallFilter {
    let filter: (String, String, String) -> ((MethodCall) -> Void)?
    var slot: OpaquePointer?
    init(_ filter: @escaping (String, String, String) -> ((MethodCall) -> Void)?) { self.filter = filter }
    deinit { if let slot { sd_bus_slot_unref(slot) } }
}

final class MatchHandler {
    let handler: (ReceivedMessage) -> Void
    var slot: OpaquePointer?
    init(_ handler: @escaping (ReceivedMessage) -> Void) { self.handler = handler }
    deinit { if let slot { sd_bus_slot_unref(slot) } }
}

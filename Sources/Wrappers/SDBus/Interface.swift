import CSDBusShims
import CSystemd
import Glibc

/// Describes one D-Bus interface that an object exports.
public struct InterfaceDescription: Sendable {
    public struct Method: Sendable {
        public let name: String
        public let inSignature: String
        public let inNames: [String]
        public let outSignature: String
        public let outNames: [String]
        public init(_ name: String, in inSignature: String = "", _ inNames: [String] = [],
                    out outSignature: String = "", _ outNames: [String] = []) {
            self.name = name
            self.inSignature = inSignature
            self.inNames = inNames
            self.outSignature = outSignature
            self.outNames = outNames
        }
    }

    /// How a property announces its changes (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
    public enum ChangeSignal: Sendable { case none, change, invalidation, constant }

    public struct Property: Sendable {
        public let name: String
        public let signature: String
        public let writable: Bool
        public let emits: ChangeSignal
        /// The parts of the owner's state whose change can change the value (the XML's `app.reprise.Codegen.Parts`
        /// annotation); empty when not declared.
        public let parts: [String]
        public init(_ name: String, _ signature: String, writable: Bool = false, emits: ChangeSignal = .change, parts: [String] = []) {
            (self.name, self.signature, self.writable, self.emits, self.parts) = (name, signature, writable, emits, parts)
        }
    }

    public struct Signal: Sendable {
        public let name: String
        public let signature: String
        public let names: [String]
        public init(_ name: String, _ signature: String, _ names: [String] = []) {
            self.name = name
            self.signature = signature
            self.names = names
        }
    }

    public let name: String
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [Signal]

    public init(name: String, methods: [Method], properties: [Property], signals: [Signal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// An incoming method call. Reply now by returning from ``InterfaceImplementation/call(_:)``,
/// or keep the call and answer later with ``reply(_:)`` or ``fail(_:)``. It comes off the bus, or from an in-process
/// caller (``LocalBus``) that receives the answer as a value.
public final class MethodCall {
    public let member: String
    public let arguments: [DBusValue]
    /// The caller's unique name (nil for an in-process call made without one).
    public let sender: String?
    private let answer: (Result<[DBusValue], DBusError>) -> Void
    private var answered = false

    init(message: Message, arguments: [DBusValue]) {
        member = message.member ?? ""
        self.arguments = arguments
        sender = message.sender
        answer = { result in MethodCall.send(result, answering: message) }
    }

    /// A call made in-process: `answer` receives the reply's values or the error, once.
    public init(member: String, arguments: [DBusValue], sender: String? = nil,
                answer: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        self.member = member
        self.arguments = arguments
        self.sender = sender
        self.answer = answer
    }

    public func reply(_ values: [DBusValue] = []) {
        guard !answered else { return }
        answered = true
        answer(.success(values))
    }

    public func fail(_ error: DBusError) {
        guard !answered else { return }
        answered = true
        answer(.failure(error))
    }

    private static func send(_ result: Result<[DBusValue], DBusError>, answering message: Message) {
        switch result {
        case .success(let values):
            var reply: OpaquePointer? = nil
            guard sd_bus_message_new_method_return(message.raw, &reply) >= 0, let reply else { return }
            defer { sd_bus_message_unref(reply) }
            do throws(DBusError) {
                try Message.append(values, to: reply)
            } catch {
                return send(.failure(.failed("could not encode reply: \(error.message)")), answering: message)
            }
            sd_bus_send(nil, reply, nil)
        case .failure(let error):
            var e = sd_bus_error()
            sd_bus_error_set(&e, error.name, error.message)
            sd_bus_reply_method_error(message.raw, &e)
            sd_bus_error_free(&e)
        }
    }
}

extension Message {
    static func append(_ values: [DBusValue], to m: OpaquePointer) throws(DBusError) {
        for value in values { try append(value, to: m) }
    }
}

/// What a method handler decided: answer now, or answer later through the kept ``MethodCall``.
public enum MethodOutcome {
    case reply([DBusValue])
    case deferred
}

/// The behaviour behind an exported interface. Called on the event loop's thread only.
public protocol InterfaceImplementation: AnyObject {
    /// Handles a method call whose argument types sd-bus has already checked against the signature.
    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome
    /// Returns the current value of `property`, with exactly the declared signature.
    func get(_ property: String) throws(DBusError) -> DBusValue
    /// Applies a new value, already checked against the declared signature.
    func set(_ property: String, to value: DBusValue) throws(DBusError)
}

/// An interface on every object of a tree that exists only as its implementation says (objects made on demand,
/// under one path prefix). Called on the event loop's thread only.
public protocol TreeImplementation: AnyObject {
    /// Whether an object with this interface is at `path`.
    func exists(_ path: String) -> Bool
    func call(_ call: MethodCall, at path: String) throws(DBusError) -> MethodOutcome
    func get(_ property: String, at path: String) throws(DBusError) -> DBusValue
}

/// Keeps an exported interface's vtable and implementation alive for as long as it is registered.
final class Registration {
    let description: InterfaceDescription
    let implementation: InterfaceImplementation?
    let tree: TreeImplementation?
    let table: OpaquePointer
    var slot: OpaquePointer?

    convenience init(description: InterfaceDescription, implementation: InterfaceImplementation) {
        self.init(description: description, implementation: implementation, tree: nil)
    }

    convenience init(description: InterfaceDescription, tree: TreeImplementation) {
        self.init(description: description, implementation: nil, tree: tree)
    }

    private init(description: InterfaceDescription, implementation: InterfaceImplementation?, tree: TreeImplementation?) {
        self.description = description
        self.implementation = implementation
        self.tree = tree
        let table = rp_vtable_new()!
        for m in description.methods {
            rp_vtable_add_method(table, m.name, m.inSignature, m.inNames.joined(separator: ","),
                                 m.outSignature, m.outNames.joined(separator: ","), { raw, userdata, error in
                Registration.from(userdata).dispatchCall(raw, error)
            })
        }
        for p in description.properties {
            let emits: rp_property_emits = switch p.emits {
            case .none: RP_PROPERTY_EMITS_NOTHING
            case .change: RP_PROPERTY_EMITS_CHANGE
            case .invalidation: RP_PROPERTY_EMITS_INVALIDATION
            case .constant: RP_PROPERTY_CONST
            }
            let getter: sd_bus_property_get_t = { _, path, _, property, reply, userdata, error in
                Registration.from(userdata).dispatchGet(property, reply, error, path: path)
            }
            let setter: sd_bus_property_set_t = { _, _, _, property, value, userdata, error in
                Registration.from(userdata).dispatchSet(property, value, error)
            }
            rp_vtable_add_property(table, p.name, p.signature, getter, p.writable ? setter : nil, emits)
        }
        for s in description.signals {
            rp_vtable_add_signal(table, s.name, s.signature, s.names.joined(separator: ","))
        }
        self.table = table
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
        rp_vtable_free(table)
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> Registration {
        Unmanaged<Registration>.fromOpaque(userdata!).takeUnretainedValue()
    }

    func dispatchCall(_ raw: OpaquePointer?, _ out: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard let raw else { return -EINVAL }
        let message = Message(retaining: raw)
        do throws(DBusError) {
            let call = MethodCall(message: message, arguments: try message.readAll())
            let outcome: MethodOutcome
            if let tree { outcome = try tree.call(call, at: message.path ?? "") } else if let implementation {
                outcome = try implementation.call(call)
            } else {
                throw DBusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "nothing here")
            }
            switch outcome {
            case .reply(let values): call.reply(values)
            case .deferred: break
            }
            return 1
        } catch {
            return error.fill(out)
        }
    }

    func dispatchGet(_ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?,
                     _ out: UnsafeMutablePointer<sd_bus_error>?, path: UnsafePointer<CChar>?) -> Int32 {
        guard let property, let reply else { return -EINVAL }
        let name = String(cString: property)
        do throws(DBusError) {
            let value: DBusValue
            if let tree { value = try tree.get(name, at: path.map { String(cString: $0) } ?? "") } else if let implementation {
                value = try implementation.get(name)
            } else {
                throw DBusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "nothing here")
            }
            try Message.append(value, to: reply)
            return 1
        } catch {
            return error.fill(out)
        }
    }

    func dispatchSet(_ property: UnsafePointer<CChar>?, _ value: OpaquePointer?,
                     _ out: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard let property, let value else { return -EINVAL }
        let name = String(cString: property)
        do throws(DBusError) {
            guard let decoded = try Message.readNext(from: value) else {
                throw DBusError.invalidArgs("missing value for \(name)")
            }
            guard let implementation else { throw DBusError.readOnly(name) }
            try implementation.set(name, to: decoded)
            return 1
        } catch {
            return error.fill(out)
        }
    }
}

import SDBus

/// An in-process bus: what is exported to it answers calls made through it, checked against the declared
/// signatures as sd-bus checks them, and everything announced is recorded. For unit tests of adaptors without a
/// dbus-daemon (the mapping from calls to behaviour); the wire itself is tested against a real bus.
public final class LocalBus: ObjectBus {
    /// A signal as it was emitted (a PropertiesChanged carries the values read when it was sent, as sd-bus does).
    public struct Emitted: Equatable, Sendable {
        public let path: String
        public let interface: String
        public let member: String
        public let arguments: [DBusValue]
    }

    public private(set) var emitted: [Emitted] = []
    public private(set) var ownedNames: Set<String> = []
    /// Names another process holds: requesting one returns false.
    public var namesTakenElsewhere: Set<String> = []

    private struct Export {
        let description: InterfaceDescription
        let implementation: InterfaceImplementation?
        let tree: TreeImplementation?
    }
    private var objects: [String: [String: Export]] = [:]
    private var trees: [(prefix: String, export: Export)] = []
    private var filters: [(prefix: String, filter: (String, String, String) -> ((MethodCall) -> Void)?)] = []

    public init() {}

    public func export(_ interface: InterfaceDescription, at path: String, implementation: InterfaceImplementation) throws(DBusError) {
        guard objects[path]?[interface.name] == nil else { throw .failed("\(interface.name) is already at \(path)") }
        objects[path, default: [:]][interface.name] = Export(description: interface, implementation: implementation, tree: nil)
    }

    public func exportTree(_ interface: InterfaceDescription, under prefix: String, implementation: TreeImplementation) throws(DBusError) {
        trees.append((prefix, Export(description: interface, implementation: nil, tree: implementation)))
    }

    public func addFilter(under prefix: String,
                          _ filter: @escaping (_ path: String, _ interface: String, _ member: String) -> ((MethodCall) -> Void)?)
        throws(DBusError) {
        filters.append((prefix, filter))
    }

    public func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(DBusError) {
        guard !names.isEmpty else { return }
        let export = try find(path, interface)
        var changed: [(String, DBusValue)] = [], invalidated: [String] = []
        for name in names {
            guard let property = export.description.properties.first(where: { $0.name == name }) else {
                throw .unknownProperty(name)
            }
            if property.emits == .invalidation { invalidated.append(name) } else { changed.append((name, try read(export, name, at: path))) }
        }
        emitted.append(Emitted(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                               arguments: [.string(interface), .vardict(changed), .strings(invalidated)]))
    }

    public func emitSignal(path: String, interface: String, member: String, _ values: [DBusValue]) throws(DBusError) {
        emitted.append(Emitted(path: path, interface: interface, member: member, arguments: values))
    }

    public func requestName(_ name: String) throws(DBusError) -> Bool {
        guard !namesTakenElsewhere.contains(name) else { return false }
        ownedNames.insert(name)
        return true
    }

    public func releaseName(_ name: String) { ownedNames.remove(name) }

    /// Who owns names taken by other peers (unique names by well-known name), for ``askOwner(of:answer:)``.
    public var otherOwners: [String: String] = [:]

    public func askOwner(of name: String, answer: @escaping (String?) -> Void) {
        answer(ownedNames.contains(name) ? ":local" : otherOwners[name])
    }

    /// Forgets what was emitted so far.
    public func clearEmitted() { emitted.removeAll() }

    /// The PropertiesChanged values announced for `interface`, in order (one dictionary per signal).
    public func propertiesChanged(_ interface: String) -> [[String: DBusValue]] {
        emitted.compactMap { signal in
            guard signal.member == "PropertiesChanged", signal.arguments.first == .string(interface) else { return nil }
            return signal.arguments.count > 1 ? signal.arguments[1].dictionary : nil
        }
    }

    // MARK: Calling in

    /// Calls a method; `answer` receives the reply when the handler gives it (at once, or later on the same thread).
    public func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
                     sender: String? = nil, answer: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        let call = MethodCall(member: member, arguments: arguments, sender: sender, answer: answer)
        do throws(DBusError) {
            if let handler = filtered(path, interface, member) { return handler(call) }
            let export = try find(path, interface)
            guard let method = export.description.methods.first(where: { $0.name == member }) else {
                throw DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member) on \(interface)")
            }
            let given = arguments.map(\.signature).joined()
            guard given == method.inSignature else {
                throw .invalidArgs("\(member) takes (\(method.inSignature)), not (\(given))")
            }
            let outcome = if let tree = export.tree { try tree.call(call, at: path) } else { try export.implementation!.call(call) }
            if case .reply(let values) = outcome { call.reply(values) }
        } catch {
            call.fail(error)
        }
    }

    /// Calls a method whose handler answers at once and returns the reply.
    @discardableResult
    public func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        var result: Result<[DBusValue], DBusError>?
        call(path, interface, member, arguments) { result = $0 }
        guard let result else { throw .failed("\(interface).\(member) has not answered yet") }
        return try result.get()
    }

    /// Reads a property (org.freedesktop.DBus.Properties.Get).
    public func get(_ path: String, _ interface: String, _ name: String) throws(DBusError) -> DBusValue {
        if let handler = filtered(path, "org.freedesktop.DBus.Properties", "Get") {
            var result: Result<[DBusValue], DBusError>?
            handler(MethodCall(member: "Get", arguments: [.string(interface), .string(name)]) { result = $0 })
            guard let result else { throw .failed("Get has not answered yet") }
            return try result.get().argument(0).unwrapped
        }
        return try read(try find(path, interface), name, at: path)
    }

    /// Every property of `interface` at `path` (org.freedesktop.DBus.Properties.GetAll).
    public func getAll(_ path: String, _ interface: String) throws(DBusError) -> [String: DBusValue] {
        let export = try find(path, interface)
        var values: [String: DBusValue] = [:]
        for property in export.description.properties { values[property.name] = try read(export, property.name, at: path) }
        return values
    }

    /// Writes a property (org.freedesktop.DBus.Properties.Set), refused as sd-bus refuses it.
    public func set(_ path: String, _ interface: String, _ name: String, _ value: DBusValue) throws(DBusError) {
        let export = try find(path, interface)
        guard let property = export.description.properties.first(where: { $0.name == name }) else { throw .unknownProperty(name) }
        guard property.writable, let implementation = export.implementation else { throw .readOnly(name) }
        guard value.signature == property.signature else {
            throw .invalidArgs("\(name) is of type \(property.signature), not \(value.signature)")
        }
        try implementation.set(name, to: value)
    }

    private func filtered(_ path: String, _ interface: String, _ member: String) -> ((MethodCall) -> Void)? {
        for (prefix, filter) in filters where Self.path(path, isUnder: prefix) {
            if let handler = filter(path, interface, member) { return handler }
        }
        return nil
    }

    private func find(_ path: String, _ interface: String) throws(DBusError) -> Export {
        if let export = objects[path]?[interface] { return export }
        if let (_, export) = trees.first(where: {
            $0.export.description.name == interface && Self.path(path, isUnder: $0.prefix) && $0.export.tree!.exists(path)
        }) {
            return export
        }
        throw DBusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no \(interface) at \(path)")
    }

    private func read(_ export: Export, _ name: String, at path: String) throws(DBusError) -> DBusValue {
        guard let property = export.description.properties.first(where: { $0.name == name }) else { throw .unknownProperty(name) }
        let value = if let tree = export.tree { try tree.get(name, at: path) } else { try export.implementation!.get(name) }
        guard value.signature == property.signature else {
            throw .failed("\(name) is declared \(property.signature) but read as \(value.signature)")
        }
        return value
    }

    private static func path(_ path: String, isUnder prefix: String) -> Bool {
        path == prefix || path.hasPrefix(prefix == "/" ? "/" : prefix + "/")
    }
}

extension LocalBus {
    /// A client's view of what is exported here, for the generated proxies: each interface is called at the object
    /// `path(for:)` names; a method must answer at once.
    public struct Peer: DBusCalling {
        let bus: LocalBus
        let path: (String) -> String

        public func call(interface: String, member: String, _ arguments: [DBusValue]) throws(DBusError) -> [DBusValue] {
            try bus.call(path(interface), interface, member, arguments)
        }

        public func property(interface: String, _ name: String) throws(DBusError) -> DBusValue {
            try bus.get(path(interface), interface, name)
        }

        public func setProperty(interface: String, _ name: String, _ value: DBusValue) throws(DBusError) {
            try bus.set(path(interface), interface, name, value)
        }

        public func allProperties(interface: String) throws(DBusError) -> [String: DBusValue] {
            try bus.getAll(path(interface), interface)
        }
    }

    /// Calls through this bus as a client would, each interface at its object.
    public func peer(objectPath path: @escaping (_ interface: String) -> String) -> Peer { Peer(bus: self, path: path) }
}

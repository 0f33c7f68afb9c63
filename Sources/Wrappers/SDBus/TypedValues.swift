/// Reading a ``DBusValue`` as the Swift type its signature stands for: what generated exports and proxies use to
/// decode arguments, replies and properties. A value of another type is `InvalidArgs` (a variant is looked into).
extension DBusValue {
    private func mismatch(_ expected: String) -> DBusError {
        .invalidArgs("expected a value of type \(expected), got \(unwrapped.signature)")
    }

    public func asByte() throws(DBusError) -> UInt8 {
        if case .byte(let v) = unwrapped { return v }
        throw mismatch("y")
    }

    public func asBool() throws(DBusError) -> Bool {
        if case .bool(let v) = unwrapped { return v }
        throw mismatch("b")
    }

    public func asInt16() throws(DBusError) -> Int16 {
        if case .int16(let v) = unwrapped { return v }
        throw mismatch("n")
    }

    public func asUInt16() throws(DBusError) -> UInt16 {
        if case .uint16(let v) = unwrapped { return v }
        throw mismatch("q")
    }

    public func asInt32() throws(DBusError) -> Int32 {
        if case .int32(let v) = unwrapped { return v }
        throw mismatch("i")
    }

    public func asUInt32() throws(DBusError) -> UInt32 {
        if case .uint32(let v) = unwrapped { return v }
        throw mismatch("u")
    }

    public func asInt64() throws(DBusError) -> Int64 {
        if case .int64(let v) = unwrapped { return v }
        throw mismatch("x")
    }

    public func asUInt64() throws(DBusError) -> UInt64 {
        if case .uint64(let v) = unwrapped { return v }
        throw mismatch("t")
    }

    public func asDouble() throws(DBusError) -> Double {
        if case .double(let v) = unwrapped { return v }
        throw mismatch("d")
    }

    public func asString() throws(DBusError) -> String {
        if case .string(let v) = unwrapped { return v }
        throw mismatch("s")
    }

    public func asObjectPath() throws(DBusError) -> String {
        if case .objectPath(let v) = unwrapped { return v }
        throw mismatch("o")
    }

    public func asSignature() throws(DBusError) -> String {
        if case .signature(let v) = unwrapped { return v }
        throw mismatch("g")
    }

    /// The elements of an array, each read by `element`.
    public func asArray<Element>(_ element: (DBusValue) throws(DBusError) -> Element) throws(DBusError) -> [Element] {
        guard case .array(_, let items) = unwrapped else { throw mismatch("an array") }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try element(item)) }
        return result
    }

    /// The fields of a structure of exactly `count` fields.
    public func asStructure(_ count: Int) throws(DBusError) -> [DBusValue] {
        guard case .structure(let fields) = unwrapped, fields.count == count else { throw mismatch("a structure of \(count) fields") }
        return fields
    }

    /// The entries of a dictionary (`a{…}`), keys and values each read by their reader; a repeated key keeps the last.
    public func asDictionary<Key: Hashable, Value>(key: (DBusValue) throws(DBusError) -> Key,
                                                    value: (DBusValue) throws(DBusError) -> Value) throws(DBusError) -> [Key: Value] {
        guard case .array(_, let items) = unwrapped else { throw mismatch("a dictionary") }
        var result: [Key: Value] = [:]
        result.reserveCapacity(items.count)
        for item in items {
            guard case .dictEntry(let k, let v) = item else { throw mismatch("a dictionary entry") }
            result[try key(k)] = try value(v)
        }
        return result
    }

    /// A variant's content (nested variants looked through): what a `v` inside a dictionary or structure carries.
    public func asVariantContent() throws(DBusError) -> DBusValue { unwrapped }

    /// `value` as a variant (a variant already is one).
    @inlinable public static func wrappingInVariant(_ value: DBusValue) -> DBusValue {
        if case .variant = value { return value }
        return .variant(value)
    }

    /// A dictionary with string keys (`a{s…}`), in the order of their keys' bytes: as the generic one, without
    /// Unicode-aware comparisons (Metadata is encoded on every change of the player). Inlinable: unspecialized, its
    /// sort copied each entry through the generic tuple's witnesses (12 µs a Metadata dictionary).
    @inlinable public static func dictionary<Value>(keySignature: String, valueSignature: String, _ entries: [String: Value],
                                         key: (String) -> DBusValue, value: (Value) -> DBusValue) -> DBusValue {
        .array(elementSignature: "{" + keySignature + valueSignature + "}",
               entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { .dictEntry(key($0.key), value($0.value)) })
    }

    /// A dictionary (`a{…}`) of `entries`, in the order of their keys (so the same dictionary is always sent alike).
    @inlinable public static func dictionary<Key: Comparable, Value>(keySignature: String, valueSignature: String, _ entries: [Key: Value],
                                                          key: (Key) -> DBusValue, value: (Value) -> DBusValue) -> DBusValue {
        .array(elementSignature: "{" + keySignature + valueSignature + "}",
               entries.sorted { $0.key < $1.key }.map { .dictEntry(key($0.key), value($0.value)) })
    }

    /// The value itself (a variant looked into) when its signature is `signature`: for types kept as values.
    public func checked(_ signature: String) throws(DBusError) -> DBusValue {
        let value = signature == "v" ? self : unwrapped
        guard value.signature == signature else { throw mismatch(signature) }
        return value
    }
}

extension Array where Element == DBusValue {
    /// The argument at `index` of a call or reply; a missing one is `InvalidArgs`.
    public func argument(_ index: Int) throws(DBusError) -> DBusValue {
        guard indices.contains(index) else { throw .invalidArgs("argument \(index + 1) is missing") }
        return self[index]
    }
}

/// The answer a handler owes to a call it finishes later (a method annotated
/// `org.freedesktop.DBus.Method.Async`): send the value, or fail. Only the first answer counts.
public final class Reply<Value> {
    private let call: MethodCall
    private let encode: (Value) throws(DBusError) -> [DBusValue]

    public init(call: MethodCall, encode: @escaping (Value) throws(DBusError) -> [DBusValue]) {
        self.call = call
        self.encode = encode
    }

    public func send(_ value: Value) {
        do throws(DBusError) {
            call.reply(try encode(value))
        } catch {
            call.fail(error)
        }
    }

    public func fail(_ error: DBusError) { call.fail(error) }

    /// The caller's unique name (nil for an in-process call made without one).
    public var sender: String? { call.sender }
}

extension Reply where Value == Void {
    public func send() { send(()) }
}

/// An export generated from an interface's XML: it decodes calls for a typed handler and encodes what it returns.
public protocol GeneratedExport: InterfaceImplementation {
    static var description: InterfaceDescription { get }
}

/// A tree export generated from an interface's XML: objects under a prefix, each resolved to a typed handler.
public protocol GeneratedTreeExport: TreeImplementation {
    static var description: InterfaceDescription { get }
}

/// What a service needs of a bus to offer objects: exports, signals, names. ``Bus`` is one; ``LocalBus`` (SDBusTesting) is the
/// same in-process, for tests of the adaptors without a dbus-daemon.
public protocol ObjectBus: AnyObject {
    func export(_ interface: InterfaceDescription, at path: String, implementation: InterfaceImplementation) throws(DBusError)
    func exportTree(_ interface: InterfaceDescription, under prefix: String, implementation: TreeImplementation) throws(DBusError)
    func addFilter(under prefix: String,
                   _ filter: @escaping (_ path: String, _ interface: String, _ member: String) -> ((MethodCall) -> Void)?)
        throws(DBusError)
    func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(DBusError)
    func emitSignal(path: String, interface: String, member: String, _ values: [DBusValue]) throws(DBusError)
    func requestName(_ name: String) throws(DBusError) -> Bool
    func releaseName(_ name: String)
    /// The unique name that owns `name` now (nil: nobody), asked without blocking: `answer` hears it later.
    func askOwner(of name: String, answer: @escaping (String?) -> Void)
}

extension ObjectBus {
    /// Exports a generated export under its own interface description.
    public func export<Export: GeneratedExport>(_ export: Export, at path: String) throws(DBusError) {
        try self.export(Export.description, at: path, implementation: export)
    }

    /// Exports a generated tree export on every object under `prefix` it resolves.
    public func exportTree<Export: GeneratedTreeExport>(_ export: Export, under prefix: String) throws(DBusError) {
        try exportTree(Export.description, under: prefix, implementation: export)
    }
}

extension Bus: ObjectBus {}

/// One peer's objects as a client sees them: what generated proxies call. The conformer knows the destination and
/// which object carries which interface.
public protocol DBusCalling {
    func call(interface: String, member: String, _ arguments: [DBusValue]) throws(DBusError) -> [DBusValue]
    func property(interface: String, _ name: String) throws(DBusError) -> DBusValue
    func setProperty(interface: String, _ name: String, _ value: DBusValue) throws(DBusError)
    /// Every property of `interface` (org.freedesktop.DBus.Properties.GetAll), variants looked into.
    func allProperties(interface: String) throws(DBusError) -> [String: DBusValue]
}

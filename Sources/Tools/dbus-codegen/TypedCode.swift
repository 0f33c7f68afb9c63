// The typed side of the generated code: Swift types for D-Bus signatures, handler protocols, exports, tree
// exports, signal emitters and client proxies.

/// How a D-Bus type is carried in Swift: basic types and arrays of them as Swift values, anything else as a
/// `DBusValue` checked against its signature.
struct SwiftType {
    let name: String
    let decode: (String) -> String
    let encode: (String) -> String

    static let basics: [String: (type: String, value: String, reader: String)] = [
        "y": ("UInt8", "byte", "asByte"), "b": ("Bool", "bool", "asBool"), "n": ("Int16", "int16", "asInt16"),
        "q": ("UInt16", "uint16", "asUInt16"), "i": ("Int32", "int32", "asInt32"), "u": ("UInt32", "uint32", "asUInt32"),
        "x": ("Int64", "int64", "asInt64"), "t": ("UInt64", "uint64", "asUInt64"), "d": ("Double", "double", "asDouble"),
        "s": ("String", "string", "asString"), "o": ("String", "objectPath", "asObjectPath"),
        "g": ("String", "signature", "asSignature"),
    ]

    /// The Swift type of the D-Bus type `signature` (one complete type); `structName` names its outermost structure.
    init(signature: String, structName: String? = nil) {
        if let nodes = try? SignatureNode.parse(signature), nodes.count == 1 {
            self.init(node: nodes[0], outerName: structName)
        } else {
            self.init(kept: signature)
        }
    }

    init(name: String, decode: @escaping (String) -> String, encode: @escaping (String) -> String) {
        self.name = name
        self.decode = decode
        self.encode = encode
    }

    /// A type kept as a `DBusValue` checked against `signature`.
    init(kept signature: String) {
        self.init(name: "DBusValue", decode: { "try \($0).checked(\(literal(signature)))" },
                  encode: { "try \($0).checked(\(literal(signature)))" })
    }
}

let swiftKeywords: Set<String> = [
    "as", "any", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do",
    "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in",
    "init", "inout", "internal", "is", "let", "nil", "operator", "private", "protocol", "public", "repeat",
    "rethrows", "return", "self", "Self", "some", "static", "struct", "subscript", "super", "switch", "throw", "throws",
    "true", "try", "typealias", "var", "where", "while",
]

/// `CanGoNext` → `canGoNext`, `MIMEType` → `mimeType`, `URLs` → `urls`, `previous_results` → `previousResults`.
func lowerCamel(_ name: String, fallback: String) -> String {
    let words = name.split(separator: "_").map(String.init)
    guard let first = words.first, !first.isEmpty else { return fallback }
    let capitals = first.prefix { $0.isUppercase }
    var head: String
    if capitals.count <= 1 || capitals.count == first.count || first.dropFirst(capitals.count) == "s" {
        head = String(capitals).lowercased() + first.dropFirst(capitals.count)
    } else {
        head = capitals.dropLast().lowercased() + first.dropFirst(capitals.count - 1)
    }
    head += words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return head
}

/// An identifier, quoted when it is a keyword.
func identifier(_ name: String) -> String { swiftKeywords.contains(name) ? "`\(name)`" : name }

/// `app.reprise.Sleep1` → `Sleep1`, `org.mpris.MediaPlayer2.Player` → `MediaPlayer2Player`,
/// `org.gnome.UPnP.MediaObject2` → `UPnPMediaObject2`, `org.kde.krunner1` → `Krunner1`.
func typeName(_ interface: String) -> String {
    interface.split(separator: ".").dropFirst(2).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

extension Member {
    var inputs: [Argument] { arguments.filter { $0.direction == "in" } }
    var outputs: [Argument] { arguments.filter { $0.direction == "out" } }
    var swiftName: String { identifier(lowerCamel(name, fallback: "call")) }

    func label(_ argument: Argument, at index: Int) -> String { identifier(lowerCamel(argument.name, fallback: "argument\(index)")) }

    /// The Swift type of what the method returns: Void, one value, or a tuple labelled by the arguments' names.
    var resultType: String {
        let outs = outputs
        switch outs.count {
        case 0: return "Void"
        case 1: return outs[0].swiftType.name
        default: return "(" + outs.enumerated().map { "\(label($1, at: $0)): \($1.swiftType.name)" }.joined(separator: ", ") + ")"
        }
    }

    /// Encodes `value` (of ``resultType``) as the reply's arguments.
    func encodeResult(_ value: String) -> String {
        let outs = outputs
        switch outs.count {
        case 0: return "[]"
        case 1: return "[\(outs[0].swiftType.encode(value))]"
        default: return "[" + outs.indices.map { outs[$0].swiftType.encode("\(value).\($0)") }.joined(separator: ", ") + "]"
        }
    }

    /// `arguments` as a Swift parameter list ("name: Type, …").
    func declared(_ arguments: [Argument]) -> String {
        arguments.enumerated().map { "\(label($1, at: $0)): \($1.swiftType.name)" }.joined(separator: ", ")
    }

    /// The parameters named as in ``declared(_:)``, encoded as D-Bus values ("DBusValue.string(name), …").
    func encoded(_ arguments: [Argument]) -> String {
        arguments.enumerated().map { $1.swiftType.encode(label($1, at: $0)) }.joined(separator: ", ")
    }

    /// The handler's parameter list: the inputs, then the reply for an asynchronous method.
    var parameters: String {
        let list = declared(self.inputs)
        guard isAsync else { return list }
        return (list.isEmpty ? "" : list + ", ") + "reply: Reply<\(resultType)>"
    }
}

extension Argument {
    var swiftType: SwiftType { SwiftType(signature: type, structName: declaredStructName(structName)) }
}

/// The struct name of an annotation's value, `Name(field, …)`.
func declaredStructName(_ annotation: String?) -> String? {
    annotation.map { String($0.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) }
}

extension Property {
    var swiftName: String { identifier(lowerCamel(name, fallback: "property")) }
    var swiftType: SwiftType { SwiftType(signature: type, structName: declaredStructName(structName)) }
    var isReadable: Bool { access.contains("read") }
    var isWritable: Bool { access.contains("write") }
}

func typedCode(_ interface: Interface) -> String {
    let type = typeName(interface.name)
    let description = "DBusInterfaces.\(swiftName(interface.name))"
    var lines: [String] = []
    func add(_ line: String = "") { lines.append(line) }

    // The handler protocol.
    add("/// The behaviour behind `\(interface.name)`, generated from its XML: the service implements it, and the")
    add("/// compiler holds it to every member the XML declares.")
    add("public protocol \(type)Handler {")
    for method in interface.methods {
        let result = method.isAsync || method.resultType == "Void" ? "" : " -> \(method.resultType)"
        add("    func \(method.swiftName)(\(method.parameters)) throws(DBusError)\(result)")
    }
    for property in interface.properties where property.isReadable {
        add("    var \(property.swiftName): \(property.swiftType.name) { get throws(DBusError) }")
    }
    for property in interface.properties where property.isWritable {
        add("    func set(\(lowerCamel(property.name, fallback: "value")) value: \(property.swiftType.name)) throws(DBusError)")
    }
    add("}")
    add()

    // Dispatch, shared by the export and the tree export.
    add("extension \(type)Handler {")
    add("    /// Decodes `call` for this handler and encodes its answer.")
    add("    public func dispatch(_ call: MethodCall) throws(DBusError) -> MethodOutcome {")
    if interface.methods.isEmpty {
        add("        throw DBusError(name: \"org.freedesktop.DBus.Error.UnknownMethod\", message: \"no method \\(call.member)\")")
    } else {
        if interface.methods.contains(where: { !$0.inputs.isEmpty }) { add("        let arguments = call.arguments") }
        add("        switch call.member {")
        for method in interface.methods {
            let values = method.inputs.enumerated().map { index, argument in
                "\(method.label(argument, at: index)): \(argument.swiftType.decode("arguments.argument(\(index))"))"
            }
            add("        case \(literal(method.name)):")
            if method.isAsync {
                let reply = "Reply<\(method.resultType)>(call: call) { (value: \(method.resultType)) throws(DBusError) in \(method.encodeResult("value")) }"
                add("            try \(method.swiftName)(\((values + ["reply: \(reply)"]).joined(separator: ", ")))")
                add("            return .deferred")
            } else if method.resultType == "Void" {
                add("            try \(method.swiftName)(\(values.joined(separator: ", ")))")
                add("            return .reply([])")
            } else {
                add("            let value = try \(method.swiftName)(\(values.joined(separator: ", ")))")
                add("            return .reply(\(method.encodeResult("value")))")
            }
        }
        add("        default:")
        add("            throw DBusError(name: \"org.freedesktop.DBus.Error.UnknownMethod\", message: \"no method \\(call.member)\")")
        add("        }")
    }
    add("    }")
    add()
    add("    /// Reads `property`, encoded with its declared signature.")
    add("    public func value(of property: String) throws(DBusError) -> DBusValue {")
    add("        switch property {")
    for property in interface.properties where property.isReadable {
        add("        case \(literal(property.name)): return \(property.swiftType.encode("(try \(property.swiftName))"))")
    }
    add("        default: throw DBusError.unknownProperty(property)")
    add("        }")
    add("    }")
    add()
    add("    /// Sets `property` from a value sd-bus has checked against its signature.")
    add("    public func assign(_ property: String, _ value: DBusValue) throws(DBusError) {")
    add("        switch property {")
    for property in interface.properties where property.isWritable {
        add("        case \(literal(property.name)): try set(\(lowerCamel(property.name, fallback: "value")): \(property.swiftType.decode("value")))")
    }
    let readOnly = interface.properties.filter { !$0.isWritable }
    if !readOnly.isEmpty {
        add("        case \(readOnly.map { literal($0.name) }.joined(separator: ", ")): throw DBusError.readOnly(property)")
    }
    add("        default: throw DBusError.unknownProperty(property)")
    add("        }")
    add("    }")
    add("}")
    add()

    // The export.
    add("/// Exports a `\(type)Handler` as `\(interface.name)` on one object.")
    add("public final class \(type)Export: GeneratedExport {")
    add("    public static let interface = \(literal(interface.name))")
    add("    public static let description = \(description)")
    add("    /// The properties announced with their values in PropertiesChanged.")
    add("    public static let announcedProperties = description.properties.filter { $0.emits == .change }.map(\\.name)")
    add("    public let handler: any \(type)Handler")
    add("    /// Serves reads before the handler is asked (values already computed for an announcement); nil: ask it.")
    add("    public var cachedValue: (String) -> DBusValue? = { _ in nil }")
    add("    public init(_ handler: any \(type)Handler) { self.handler = handler }")
    add("    public func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome { try handler.dispatch(call) }")
    add("    public func get(_ property: String) throws(DBusError) -> DBusValue {")
    add("        if let value = cachedValue(property) { return value }")
    add("        return try handler.value(of: property)")
    add("    }")
    add("    public func set(_ property: String, to value: DBusValue) throws(DBusError) { try handler.assign(property, value) }")
    add("}")
    add()
    add("/// Exports `\(interface.name)` on every object under a prefix that `resolve` gives a handler for.")
    add("public final class \(type)Tree: GeneratedTreeExport {")
    add("    public static let description = \(description)")
    add("    private let resolve: (String) -> (any \(type)Handler)?")
    add("    public init(resolve: @escaping (_ path: String) -> (any \(type)Handler)?) { self.resolve = resolve }")
    add("    public func exists(_ path: String) -> Bool { resolve(path) != nil }")
    add("    public func call(_ call: MethodCall, at path: String) throws(DBusError) -> MethodOutcome { try handler(at: path).dispatch(call) }")
    add("    public func get(_ property: String, at path: String) throws(DBusError) -> DBusValue { try handler(at: path).value(of: property) }")
    add("    private func handler(at path: String) throws(DBusError) -> any \(type)Handler {")
    add("        guard let handler = resolve(path) else {")
    add("            throw DBusError(name: \"org.freedesktop.DBus.Error.UnknownObject\", message: \"nothing at \\(path)\")")
    add("        }")
    add("        return handler")
    add("    }")
    add("}")
    add()

    // Signals.
    if !interface.signals.isEmpty {
        add("/// Emits `\(interface.name)`'s signals from one object.")
        add("public struct \(type)Signals {")
        add("    public let bus: any ObjectBus")
        add("    public let path: String")
        add("    public init(bus: any ObjectBus, path: String) { self.bus = bus; self.path = path }")
        for signal in interface.signals {
            add("    public func \(signal.swiftName)(\(signal.declared(signal.arguments))) throws(DBusError) {")
            add("        try bus.emitSignal(path: path, interface: \(literal(interface.name)), member: \(literal(signal.name)), [\(signal.encoded(signal.arguments))])")
            add("    }")
            add("    /// The match rule for `\(signal.name)` from `sender` on `path` (any when nil).")
            add("    public static func \(signal.swiftName)Match(sender: String? = nil, path: String? = nil) -> MatchRule {")
            add("        .signals(of: \(literal(interface.name)), member: \(literal(signal.name)), sender: sender, path: path)")
            add("    }")
        }
        add("    /// The match rule for every signal of `\(interface.name)` from `sender` on `path` (any when nil).")
        add("    public static func allMatch(sender: String? = nil, path: String? = nil) -> MatchRule {")
        add("        .signals(of: \(literal(interface.name)), sender: sender, path: path)")
        add("    }")
        add("}")
        add()
    }

    // The client proxy.
    add("/// Calls `\(interface.name)` on a peer's object, with Swift types in and out.")
    add("public struct \(type)Proxy {")
    add("    public static let interface = \(literal(interface.name))")
    add("    public let connection: any DBusCalling")
    add("    public init(_ connection: any DBusCalling) { self.connection = connection }")
    for method in interface.methods {
        let result = method.resultType == "Void" ? "" : " -> \(method.resultType)"
        if result != "" { add("    @discardableResult") }
        add("    public func \(method.swiftName)(\(method.declared(method.inputs))) throws(DBusError)\(result) {")
        add("        let reply = try connection.call(interface: Self.interface, member: \(literal(method.name)), [\(method.encoded(method.inputs))])")
        let outs = method.outputs
        switch outs.count {
        case 0: add("        _ = reply")
        case 1: add("        return \(outs[0].swiftType.decode("reply.argument(0)"))")
        default:
            add("        return (" + outs.enumerated().map { "\($1.swiftType.decode("reply.argument(\($0))"))" }.joined(separator: ", ") + ")")
        }
        add("    }")
    }
    for property in interface.properties where property.isReadable {
        add("    public var \(property.swiftName): \(property.swiftType.name) {")
        add("        get throws(DBusError) { \(property.swiftType.decode("connection.property(interface: Self.interface, \(literal(property.name)))")) }")
        add("    }")
    }
    for property in interface.properties where property.isWritable {
        let name = lowerCamel(property.name, fallback: "value")
        add("    public func set(\(name) value: \(property.swiftType.name)) throws(DBusError) {")
        add("        try connection.setProperty(interface: Self.interface, \(literal(property.name)), \(property.swiftType.encode("value")))")
        add("    }")
    }
    if !interface.properties.isEmpty {
        add("    /// Every property at once (GetAll).")
        add("    public func allProperties() throws(DBusError) -> [String: DBusValue] { try connection.allProperties(interface: Self.interface) }")
        add("    /// Every property at once (GetAll), typed.")
        add("    public func allValues() throws(DBusError) -> \(type)Values { \(type)Values(try allProperties()) }")
    }
    add("}")
    if !interface.properties.isEmpty {
        add()
        add("/// Properties of `\(interface.name)` as GetAll or PropertiesChanged give them: each one there with its")
        add("/// declared type, nil when absent (or of another type).")
        add("public struct \(type)Values: Sendable {")
        for property in interface.properties where property.isReadable {
            add("    public var \(property.swiftName): \(property.swiftType.name)?")
        }
        add("    public init(_ values: [String: DBusValue]) {")
        for property in interface.properties where property.isReadable {
            let decode = property.swiftType.decode("value")
            add("        \(property.swiftName) = values[\(literal(property.name))].flatMap { value in try? \(decode.hasPrefix("try ") ? String(decode.dropFirst(4)) : decode) }")
        }
        add("    }")
        add("}")
    }
    return lines.joined(separator: "\n")
}

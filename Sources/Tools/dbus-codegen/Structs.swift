// Structures and dictionaries: D-Bus signatures as trees, the Swift structs that `(…)` signatures become (named by
// an `app.reprise.Codegen.Struct` annotation on the argument or property that first carries them), and the Swift
// type, decoder and encoder of any signature.

/// The annotation naming the outermost structure of an argument's or property's type and its fields, in order:
/// `<annotation name="app.reprise.Codegen.Struct" value="ChapterEntry(title, start)"/>`. A structure whose
/// signature was named once elsewhere needs none; every other structure must be named (the generator refuses).
let structAnnotation = "app.reprise.Codegen.Struct"
/// The annotation naming, space-separated, the parts of the service's state whose change can change a property's
/// value (`<annotation name="app.reprise.Codegen.Parts" value="transport current"/>`): after a change, only the
/// properties following one of its parts are read again for PropertiesChanged.
let partsAnnotation = "app.reprise.Codegen.Parts"

/// A complete D-Bus type.
indirect enum SignatureNode: Equatable {
    case basic(Character)
    case variant
    case array(SignatureNode)
    case dictionary(key: SignatureNode, value: SignatureNode)
    case structure([SignatureNode])

    var signature: String {
        switch self {
        case .basic(let code): String(code)
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The complete types of `signature`, in order.
    static func parse(_ signature: String) throws -> [SignatureNode] {
        var rest = Substring(signature)
        var nodes: [SignatureNode] = []
        while !rest.isEmpty { nodes.append(try parseOne(&rest, in: signature)) }
        return nodes
    }

    private static func parseOne(_ rest: inout Substring, in whole: String) throws -> SignatureNode {
        guard let code = rest.popFirst() else { throw CodegenError.malformed("signature \(whole) ends early") }
        switch code {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h": return .basic(code)
        case "v": return .variant
        case "a":
            if rest.first == "{" {
                rest.removeFirst()
                let key = try parseOne(&rest, in: whole), value = try parseOne(&rest, in: whole)
                guard rest.popFirst() == "}" else { throw CodegenError.malformed("signature \(whole): a dictionary entry has two types") }
                return .dictionary(key: key, value: value)
            }
            return .array(try parseOne(&rest, in: whole))
        case "(":
            var fields: [SignatureNode] = []
            while rest.first != ")" {
                guard !rest.isEmpty else { throw CodegenError.malformed("signature \(whole): unclosed structure") }
                fields.append(try parseOne(&rest, in: whole))
            }
            rest.removeFirst()
            return .structure(fields)
        default: throw CodegenError.malformed("signature \(whole): unknown type code \(code)")
        }
    }

    /// The structures in this type, outermost first.
    var structures: [SignatureNode] {
        switch self {
        case .basic, .variant: []
        case .array(let element): element.structures
        case .dictionary(let key, let value): key.structures + value.structures
        case .structure(let fields): [self] + fields.flatMap(\.structures)
        }
    }
}

/// A Swift struct generated for a D-Bus structure signature.
struct StructDeclaration {
    var name: String
    var fields: [(name: String, type: SignatureNode)]
    var signature: String
    var origin: String

    /// From an annotation's value, `Name(field, field, …)`, for `node` (a structure).
    init(annotation value: String, node: SignatureNode, origin: String) throws {
        guard case .structure(let types) = node, let open = value.firstIndex(of: "("), value.hasSuffix(")") else {
            throw CodegenError.malformed("\(origin): \(structAnnotation) \"\(value)\" is not Name(field, …) on a structure type")
        }
        name = value[..<open].trimmingCharacters(in: .whitespaces)
        let names = value[value.index(after: open)..<value.index(before: value.endIndex)].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !name.isEmpty, names.count == types.count, names.allSatisfy({ !$0.isEmpty }) else {
            throw CodegenError.malformed("\(origin): \(structAnnotation) \"\(value)\" names \(names.count) fields for \(node.signature)")
        }
        fields = zip(names, types).map { ($0, $1) }
        signature = node.signature
        self.origin = origin
    }
}

/// Every structure declared in the XML, by name and by signature.
struct StructRegistry {
    private(set) var byName: [String: StructDeclaration] = [:]
    private var namesBySignature: [String: Set<String>] = [:]

    /// Collects the annotations of every argument and property, then checks that every structure has a name.
    init(_ interfaces: [Interface]) throws {
        var uses: [(node: SignatureNode, origin: String)] = []
        for interface in interfaces {
            let members = interface.methods.map { ($0, "method") } + interface.signals.map { ($0, "signal") }
            for (member, _) in members {
                for argument in member.arguments {
                    try declare(argument.structName, type: argument.type, origin: "\(interface.name).\(member.name) \(argument.name)", uses: &uses)
                }
            }
            for property in interface.properties {
                try declare(property.structName, type: property.type, origin: "\(interface.name).\(property.name)", uses: &uses)
            }
        }
        for (node, origin) in uses where name(of: node) == nil {
            throw CodegenError.malformed("\(origin): the structure \(node.signature) has no name (add a \(structAnnotation) annotation)")
        }
    }

    private mutating func declare(_ annotation: String?, type: String, origin: String,
                                  uses: inout [(node: SignatureNode, origin: String)]) throws {
        let structures = try SignatureNode.parse(type).flatMap(\.structures)
        uses += structures.map { ($0, origin) }
        guard let annotation else { return }
        guard let outermost = structures.first else {
            throw CodegenError.malformed("\(origin): \(structAnnotation) on \(type), which has no structure")
        }
        let declaration = try StructDeclaration(annotation: annotation, node: outermost, origin: origin)
        if let existing = byName[declaration.name] {
            guard existing.signature == declaration.signature, existing.fields.map(\.name) == declaration.fields.map(\.name) else {
                throw CodegenError.malformed("\(origin): \(declaration.name) is declared differently at \(existing.origin)")
            }
            return
        }
        byName[declaration.name] = declaration
        namesBySignature[declaration.signature, default: []].insert(declaration.name)
    }

    /// The struct for `node`: the one named for its signature (nil when none is, or several are).
    func name(of node: SignatureNode) -> String? {
        guard let names = namesBySignature[node.signature], names.count == 1 else { return nil }
        return names.first
    }
}

/// The registry the generated code is made with (set once, before generating).
enum Generation {
    nonisolated(unsafe) static var structs: StructRegistry?
}

extension SwiftType {
    /// The Swift type of a complete D-Bus type `node`. `outerName` names its outermost structure (an annotation;
    /// inner ones are looked up by signature). A variant inside a container is its content (wrapped again when
    /// sent); a variant argument or property is kept as the variant.
    init(node: SignatureNode, outerName: String? = nil, nested: Bool = false) {
        let name: String, decode: (String) -> String, encode: (String) -> String
        switch node {
        case .basic(let code) where Self.basics[String(code)] != nil:
            let basic = Self.basics[String(code)]!
            name = basic.type
            decode = { "try \($0).\(basic.reader)()" }
            encode = { "DBusValue.\(basic.value)(\($0))" }
        case .array(let elementNode):
            let element = SwiftType(node: elementNode, outerName: outerName, nested: true)
            name = "[\(element.name)]"
            decode = { "try \($0).asArray { (element: DBusValue) throws(DBusError) in \(element.decode("element")) }" }
            encode = { "DBusValue.array(elementSignature: \(literal(elementNode.signature)), \($0).map { element in \(element.encode("element")) })" }
        case .dictionary(let keyNode, let valueNode):
            let key = SwiftType(node: keyNode, nested: true), value = SwiftType(node: valueNode, outerName: outerName, nested: true)
            name = "[\(key.name): \(value.name)]"
            decode = {
                "try \($0).asDictionary(key: { (key: DBusValue) throws(DBusError) in \(key.decode("key")) }, "
                    + "value: { (value: DBusValue) throws(DBusError) in \(value.decode("value")) })"
            }
            encode = {
                "DBusValue.dictionary(keySignature: \(literal(keyNode.signature)), valueSignature: \(literal(valueNode.signature)), \($0), "
                    + "key: { key in \(key.encode("key")) }, value: { value in \(value.encode("value")) })"
            }
        case .variant where nested:
            name = "DBusValue"
            decode = { "try \($0).asVariantContent()" }
            encode = { "DBusValue.wrappingInVariant(\($0))" }
        case .structure:
            let structName = outerName ?? Generation.structs?.name(of: node) ?? "DBusValue"
            name = structName
            decode = { "try \(structName)(dbus: \($0))" }
            encode = { "\($0).dbusValue" }
        default:
            self = SwiftType(kept: node.signature)
            return
        }
        self.init(name: name, decode: decode, encode: encode)
    }
}

/// The Swift declaration of `declaration`.
func structCode(_ declaration: StructDeclaration) -> String {
    let fields = declaration.fields.map { field in
        (name: identifier(lowerCamel(field.name, fallback: "field")), type: SwiftType(node: field.type, nested: true))
    }
    var lines: [String] = []
    lines.append("/// `\(declaration.signature)`, first declared at \(declaration.origin).")
    lines.append("public struct \(declaration.name): Sendable, Equatable {")
    for field in fields { lines.append("    public var \(field.name): \(field.type.name)") }
    lines.append("")
    lines.append("    public init(\(fields.map { "\($0.name): \($0.type.name)" }.joined(separator: ", "))) {")
    for field in fields { lines.append("        self.\(field.name) = \(field.name)") }
    lines.append("    }")
    lines.append("")
    lines.append("    /// Reads a `\(declaration.signature)` (a variant looked into); another type is InvalidArgs.")
    lines.append("    public init(dbus value: DBusValue) throws(DBusError) {")
    lines.append("        let fields = try value.asStructure(\(fields.count))")
    for (index, field) in fields.enumerated() { lines.append("        \(field.name) = \(field.type.decode("fields[\(index)]"))") }
    lines.append("    }")
    lines.append("")
    lines.append("    public var dbusValue: DBusValue {")
    lines.append("        .structure([\(fields.map { $0.type.encode($0.name) }.joined(separator: ", "))])")
    lines.append("    }")
    lines.append("}")
    return lines.joined(separator: "\n")
}

// dbus-codegen: turns D-Bus introspection XML (dbus/*.xml, the single source of each interface's shape) into Swift,
// per interface: its `InterfaceDescription` (members, signatures, argument names, property access and change
// signalling); the handler protocol the service implements (a member in the XML and not implemented does not
// compile); the export that decodes calls for that handler and encodes its answers, with the standard errors for
// unknown and read-only properties; a tree export (objects resolved by path); the signals' emitter; and the typed
// client proxy. Run by the DBusInterfaces build-tool plugin; arguments: OUTPUT XML...
// Reads only the elements and attributes introspection uses: interface, method, signal, arg, property, annotation.
import Foundation

struct Element {
    var name: String
    var attributes: [String: String]
    var closesItself: Bool
    var isClosing: Bool
}

/// The tags of `xml`, in order, with comments, declarations and text left out.
func elements(_ xml: String) -> [Element] {
    var result: [Element] = []
    var rest = Substring(xml)
    while let open = rest.firstIndex(of: "<") {
        rest = rest[open...]
        if rest.hasPrefix("<!--") {
            guard let end = rest.range(of: "-->") else { break }
            rest = rest[end.upperBound...]
            continue
        }
        guard let close = rest.firstIndex(of: ">") else { break }
        var tag = rest[rest.index(after: rest.startIndex)..<close]
        rest = rest[rest.index(after: close)...]
        if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
        let isClosing = tag.hasPrefix("/")
        if isClosing { tag = tag.dropFirst() }
        let closesItself = tag.hasSuffix("/")
        if closesItself { tag = tag.dropLast() }
        let name = String(tag.prefix { !$0.isWhitespace })
        var attributes: [String: String] = [:]
        var body = tag.dropFirst(name.count)
        while let equals = body.firstIndex(of: "=") {
            let key = body[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            body = body[body.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = body.first, quote == "\"" || quote == "'" else { break }
            body = body.dropFirst()
            guard let end = body.firstIndex(of: quote) else { break }
            attributes[key] = String(body[..<end]).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
            body = body[body.index(after: end)...]
        }
        result.append(Element(name: name, attributes: attributes, closesItself: closesItself, isClosing: isClosing))
    }
    return result
}

struct Argument { var name: String; var type: String; var direction: String; var structName: String? = nil }
struct Member { var name: String; var arguments: [Argument] = []; var isAsync = false }
struct Property {
    var name: String; var type: String; var access: String; var emits = "true"; var structName: String? = nil
    /// The `app.reprise.Codegen.Parts` annotation: the parts of the state a change of which can change the value.
    var parts: [String] = []
}
struct Interface {
    var name: String
    var methods: [Member] = []
    var signals: [Member] = []
    var properties: [Property] = []
}

enum CodegenError: Error, CustomStringConvertible {
    case malformed(String)
    var description: String { if case .malformed(let text) = self { return text }; return "" }
}

func interfaces(in xml: String, file: String) throws -> [Interface] {
    var found: [Interface] = []
    var current: Interface?
    var member: (kind: String, value: Member)?
    var property: Property?
    var inArgument = false
    func required(_ element: Element, _ key: String) throws -> String {
        guard let value = element.attributes[key], !value.isEmpty else {
            throw CodegenError.malformed("\(file): <\(element.name)> without \(key)")
        }
        return value
    }
    for element in elements(xml) {
        switch (element.name, element.isClosing) {
        case ("interface", false): current = Interface(name: try required(element, "name"))
        case ("interface", true):
            if let interface = current { found.append(interface) }
            current = nil
        case ("method", false), ("signal", false):
            let value = Member(name: try required(element, "name"))
            if element.closesItself {
                if element.name == "method" { current?.methods.append(value) } else { current?.signals.append(value) }
            } else {
                member = (element.name, value)
            }
        case ("method", true), ("signal", true):
            if let (kind, value) = member {
                if kind == "method" { current?.methods.append(value) } else { current?.signals.append(value) }
            }
            member = nil
        case ("arg", true):
            inArgument = false
        case ("arg", false):
            inArgument = !element.closesItself
            let direction = element.attributes["direction"] ?? (member?.kind == "signal" ? "out" : "in")
            member?.value.arguments.append(Argument(name: element.attributes["name"] ?? "", type: try required(element, "type"),
                                                    direction: direction))
        case ("property", false):
            let value = Property(name: try required(element, "name"), type: try required(element, "type"),
                                 access: try required(element, "access"))
            if element.closesItself { current?.properties.append(value) } else { property = value }
        case ("property", true):
            if let value = property { current?.properties.append(value) }
            property = nil
        case ("annotation", false):
            // sdbus-c++'s convention: the service answers this method later, through a `Reply`.
            if element.attributes["name"] == "org.freedesktop.DBus.Method.Async", let value = element.attributes["value"],
               value.contains("server"), member?.kind == "method" {
                member?.value.isAsync = true
            }
            if element.attributes["name"] == "org.freedesktop.DBus.Property.EmitsChangedSignal", let value = element.attributes["value"] {
                property?.emits = value
            }
            if element.attributes["name"] == partsAnnotation, let value = element.attributes["value"] {
                guard property != nil else { throw CodegenError.malformed("\(file): \(partsAnnotation) outside a property") }
                property?.parts = value.split(separator: " ").map(String.init)
            }
            if element.attributes["name"] == structAnnotation, let value = element.attributes["value"] {
                if inArgument, let last = member?.value.arguments.indices.last {
                    member?.value.arguments[last].structName = value
                } else if property != nil {
                    property?.structName = value
                } else {
                    throw CodegenError.malformed("\(file): \(structAnnotation) outside an argument or property")
                }
            }
        default: continue
        }
    }
    return found
}

/// `org.mpris.MediaPlayer2.Player` → `orgMprisMediaPlayer2Player`.
func swiftName(_ interface: String) -> String {
    let parts = interface.split(separator: ".").map(String.init)
    return parts.enumerated().map { index, part in
        index == 0 ? part.prefix(1).lowercased() + part.dropFirst() : part.prefix(1).uppercased() + part.dropFirst()
    }.joined()
}

func literal(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

func swift(_ interface: Interface) -> String {
    func method(_ member: Member) -> String {
        let inputs = member.arguments.filter { $0.direction == "in" }, outputs = member.arguments.filter { $0.direction == "out" }
        var text = ".init(\(literal(member.name))"
        if !inputs.isEmpty {
            text += ", in: \(literal(inputs.map(\.type).joined())), [\(inputs.map { literal($0.name) }.joined(separator: ", "))]"
        }
        if !outputs.isEmpty {
            text += ", out: \(literal(outputs.map(\.type).joined())), [\(outputs.map { literal($0.name) }.joined(separator: ", "))]"
        }
        return text + ")"
    }
    func signal(_ member: Member) -> String {
        ".init(\(literal(member.name)), \(literal(member.arguments.map(\.type).joined())), [\(member.arguments.map { literal($0.name) }.joined(separator: ", "))])"
    }
    func property(_ property: Property) -> String {
        var text = ".init(\(literal(property.name)), \(literal(property.type))"
        if property.access != "read" { text += ", writable: true" }
        switch property.emits {
        case "false": text += ", emits: .none"
        case "invalidates": text += ", emits: .invalidation"
        case "const": text += ", emits: .constant"
        default: break
        }
        if !property.parts.isEmpty { text += ", parts: [\(property.parts.map(literal).joined(separator: ", "))]" }
        return text + ")"
    }
    return """
        /// `\(interface.name)`, from its introspection XML.
        public static let \(swiftName(interface.name)) = InterfaceDescription(
            name: \(literal(interface.name)),
            methods: [\(interface.methods.map { "\n            " + method($0) + "," }.joined())
            ],
            properties: [\(interface.properties.map { "\n            " + property($0) + "," }.joined())
            ],
            signals: [\(interface.signals.map { "\n            " + signal($0) + "," }.joined())
            ])
    """
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: dbus-codegen OUTPUT XML...\n".utf8))
    exit(2)
}
do {
    var found: [Interface] = []
    for file in arguments.dropFirst().sorted() {
        found += try interfaces(in: try String(contentsOfFile: file, encoding: .utf8), file: file)
    }
    let sorted = found.sorted { $0.name < $1.name }
    let body = sorted.map(swift).joined(separator: "\n\n")
        + "\n\n    /// All of them, by name.\n    public static let all: [InterfaceDescription] = [\n"
        + sorted.map { "        \(swiftName($0.name)),\n" }.joined() + "    ]"
    let registry = try StructRegistry(sorted)
    Generation.structs = registry
    let structs = registry.byName.keys.sorted().map { structCode(registry.byName[$0]!) }.joined(separator: "\n\n")
    let typed = sorted.map(typedCode).joined(separator: "\n\n")
    let source = """
        // Generated by dbus-codegen from dbus/*.xml: edit the XML, not this file.
        import SDBus

        /// Every interface declared in `dbus/`, as sd-bus exports it.
        public enum DBusInterfaces {
        \(body)
        }

        \(structs)

        \(typed)

        """
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("dbus-codegen: \(error)\n".utf8))
    exit(1)
}

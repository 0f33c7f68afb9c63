/// JSON written from values built in code, fields in the order given (`--json` output, ListenBrainz requests,
/// the queue of listens). Controls and bidirectional controls are escaped, so what reaches a terminal is safe there.
public indirect enum JSON: Sendable {
    case string(String), number(Double), integer(Int64), bool(Bool), null
    case array([JSON]), object([(String, JSON)])

    public var text: String {
        switch self {
        case .string(let value): return Self.quoted(value)
        case .number(let value): return value.isFinite ? String(value) : "null"
        case .integer(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let fields): return "{" + fields.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                // Controls and bidirectional controls escaped: JSON that reaches a terminal is safe there too.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || TerminalText.isBidiControl(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

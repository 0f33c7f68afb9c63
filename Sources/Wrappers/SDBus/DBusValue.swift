/// A D-Bus value with its exact wire type, used for method arguments, replies and properties.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// An array; `elementSignature` is needed because an empty array still has a type.
    case array(elementSignature: String, [DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])

    /// The value's complete D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// An `a{sv}` dictionary, keeping the given key order.
    public static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(elementSignature: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map(DBusValue.string))
    }

    /// An `ao` array.
    public static func objectPaths(_ values: [String]) -> DBusValue {
        .array(elementSignature: "o", values.map(DBusValue.objectPath))
    }

    /// The variant's content, or the value itself when it is not a variant.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The entries of an `a{sv}` (or any string-keyed dictionary), variants unwrapped.
    public var dictionary: [String: DBusValue]? {
        guard case .array(_, let items) = self.unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for item in items {
            guard case .dictEntry(.string(let key), let value) = item else { return nil }
            result[key] = value.unwrapped
        }
        return result
    }

    public var stringValue: String? {
        switch self.unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    public var stringArray: [String]? {
        guard case .array(_, let items) = self.unwrapped else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }

    public var doubleValue: Double? {
        if case .double(let d) = self.unwrapped { return d }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self.unwrapped { return b }
        return nil
    }

    public var int64Value: Int64? {
        switch self.unwrapped {
        case .int64(let v): v
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .byte(let v): Int64(v)
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }
}

import CSystemd

/// A borrowed or owned sd_bus_message with typed reading and writing of ``DBusValue``s.
public final class Message {
    let raw: OpaquePointer

    /// Takes a reference on `raw` for the lifetime of this object.
    init(retaining raw: OpaquePointer) {
        self.raw = raw
        sd_bus_message_ref(raw)
    }

    /// Adopts a reference the caller already owns.
    init(adopting raw: OpaquePointer) {
        self.raw = raw
    }

    deinit { sd_bus_message_unref(raw) }

    public var member: String? { sd_bus_message_get_member(raw).map { String(cString: $0) } }
    public var interface: String? { sd_bus_message_get_interface(raw).map { String(cString: $0) } }
    public var path: String? { sd_bus_message_get_path(raw).map { String(cString: $0) } }
    public var sender: String? { sd_bus_message_get_sender(raw).map { String(cString: $0) } }
    public var signature: String { sd_bus_message_get_signature(raw, 1).map { String(cString: $0) } ?? "" }

    /// Appends `values` in order.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try Message.append(value, to: raw) }
    }

    /// Reads every remaining value at the current level.
    public func readAll() throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try Message.readNext(from: raw) { values.append(value) }
        return values
    }

    /// Reads the next value, or nil at the end of the current container.
    public func read() throws(DBusError) -> DBusValue? { try Message.readNext(from: raw) }

    static func append(_ value: DBusValue, to m: OpaquePointer) throws(DBusError) {
        func basic<T>(_ type: Character, _ v: T) throws(DBusError) {
            var copy = v
            let r = withUnsafePointer(to: &copy) { sd_bus_message_append_basic(m, CChar(type.asciiValue!), $0) }
            try check(r, "append \(type)")
        }
        func text(_ type: Character, _ s: String) throws(DBusError) {
            let r = s.withCString { sd_bus_message_append_basic(m, CChar(type.asciiValue!), $0) }
            try check(r, "append \(type) '\(s)'")
        }
        func container(_ type: Character, _ contents: String, _ items: [DBusValue]) throws(DBusError) {
            try check(sd_bus_message_open_container(m, CChar(type.asciiValue!), contents), "open \(type)\(contents)")
            for item in items { try append(item, to: m) }
            try check(sd_bus_message_close_container(m), "close \(type)\(contents)")
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .bool(let v): try basic("b", Int32(v ? 1 : 0))
        case .int16(let v): try basic("n", v)
        case .uint16(let v): try basic("q", v)
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .string(let s): try text("s", s)
        case .objectPath(let s): try text("o", s)
        case .signature(let s): try text("g", s)
        case .variant(let inner): try container("v", inner.signature, [inner])
        case .array(let element, let items): try container("a", element, items)
        case .dictEntry(let key, let v):
            try container("e", key.signature + v.signature, [key, v])
        case .structure(let fields): try container("r", fields.map(\.signature).joined(), fields)
        }
    }

    static func readNext(from m: OpaquePointer) throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        let peeked = sd_bus_message_peek_type(m, &type, &contents)
        try check(peeked, "peek")
        if peeked == 0 { return nil }
        let code = Character(Unicode.Scalar(UInt8(bitPattern: type)))
        func basic<T>(_ initial: T) throws(DBusError) -> T {
            var v = initial
            let r = withUnsafeMutablePointer(to: &v) { sd_bus_message_read_basic(m, type, $0) }
            try check(r, "read \(code)")
            return v
        }
        func text() throws(DBusError) -> String {
            var p: UnsafePointer<CChar>? = nil
            let r = sd_bus_message_read_basic(m, type, &p)
            try check(r, "read \(code)")
            return p.map { String(cString: $0) } ?? ""
        }
        func inside(_ body: () throws(DBusError) -> DBusValue) throws(DBusError) -> DBusValue {
            try check(sd_bus_message_enter_container(m, type, contents), "enter \(code)")
            let v = try body()
            try check(sd_bus_message_exit_container(m), "exit \(code)")
            return v
        }
        func items() throws(DBusError) -> [DBusValue] {
            var list: [DBusValue] = []
            while let item = try readNext(from: m) { list.append(item) }
            return list
        }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch code {
        case "y": return .byte(try basic(UInt8(0)))
        case "b": return .bool(try basic(Int32(0)) != 0)
        case "n": return .int16(try basic(Int16(0)))
        case "q": return .uint16(try basic(UInt16(0)))
        case "i": return .int32(try basic(Int32(0)))
        case "u": return .uint32(try basic(UInt32(0)))
        case "x": return .int64(try basic(Int64(0)))
        case "t": return .uint64(try basic(UInt64(0)))
        case "d": return .double(try basic(Double(0)))
        case "h": return .int32(try basic(Int32(0)))
        case "s": return .string(try text())
        case "o": return .objectPath(try text())
        case "g": return .signature(try text())
        case "v":
            return try inside { () throws(DBusError) -> DBusValue in
                guard let v = try readNext(from: m) else { throw DBusError.invalidArgs("empty variant") }
                return .variant(v)
            }
        case "a": return try inside { () throws(DBusError) -> DBusValue in .array(elementSignature: inner, try items()) }
        case "e":
            return try inside { () throws(DBusError) -> DBusValue in
                let pair = try items()
                guard pair.count == 2 else { throw DBusError.invalidArgs("malformed dict entry") }
                return .dictEntry(pair[0], pair[1])
            }
        case "r": return try inside { () throws(DBusError) -> DBusValue in .structure(try items()) }
        default: throw DBusError.invalidArgs("unsupported D-Bus type '\(code)'")
        }
    }
}

import RepriseCore

/// The bytes of one connection's replies, built a line at a time. Values never break a line: a line feed or other
/// control character in a tag or a file name becomes a space (a client would read the rest as a new pair). Every
/// line is valid UTF-8: a file name's bytes that are not UTF-8 are sent as their ``RawPath`` escapes (the
/// private-use characters U+10FF80…U+10FFFF), which name the file when a client sends them back.
public struct MPDResponse: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var isEmpty: Bool { bytes.isEmpty }

    /// Appends `key: value`.
    public mutating func add(_ key: String, _ value: String) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        bytes.append(contentsOf: Self.oneLine(value).utf8)
        bytes.append(0x0A)
    }

    public mutating func add(_ key: String, _ value: some BinaryInteger) { add(key, String(value)) }

    /// Appends `key: value` from `value`'s UTF-8, on one line as ``oneLine(_:)`` makes it (a control character is
    /// one byte in UTF-8, never part of another character's).
    public mutating func add(_ key: String, utf8 value: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        if value.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            bytes.append(contentsOf: value.lazy.map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 })
        } else {
            bytes.append(contentsOf: value)
        }
        bytes.append(0x0A)
    }

    /// Appends `key: TIME`, the time `seconds` after 1970 as MPD writes it (`2026-11-27T03:04:05Z`).
    mutating func add(_ key: String, timeSince1970 seconds: Int64) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        MPDTime.append(secondsSince1970: seconds, to: &bytes)
        bytes.append(0x0A)
    }

    /// Appends `key: value` with three decimals, as MPD gives times.
    public mutating func add(_ key: String, seconds value: Double) {
        add(key, Self.threeDecimals(value))
    }

    /// Appends the lines of `other`.
    public mutating func append(_ other: MPDResponse) {
        if bytes.isEmpty { bytes = other.bytes } else { bytes.append(contentsOf: other.bytes) }
    }

    /// Appends a whole line as it is (`OK`, `list_OK`, an ACK).
    public mutating func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if !text.hasSuffix("\n") { bytes.append(0x0A) }
    }

    /// Appends raw bytes (a picture's chunk) and the line feed after them.
    public mutating func binary(_ data: some Collection<UInt8>) {
        add("binary", data.count)
        bytes.append(contentsOf: data)
        bytes.append(0x0A)
    }

    /// Takes the bytes built so far, leaving the response empty (without the capacity: a long reply's would stay
    /// with the connection).
    public mutating func take() -> [UInt8] {
        let taken = bytes
        bytes = []
        return taken
    }

    /// `text` on one line: control characters (line feeds, carriage returns…) become spaces.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// `1.500`, `0.000`: a non-negative number of seconds with three decimals (negative and non-finite give 0).
    public static func threeDecimals(_ value: Double) -> String {
        let thousandths = value.isFinite && value > 0 ? Int64(min(value * 1000, 9.2e18).rounded()) : 0
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

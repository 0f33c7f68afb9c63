import RepriseCore

/// The bytes of one connection's replies, built a line at a time. Values never break a line: a line feed or other
/// control character in a tag or a file name becomes a space (a client would read the rest as a new pair). Every
/// line is valid UTF-8: a file name's bytes that are not UTF-8 are sent as their ``RawPath`` escapes (the
/// private-use characters U+10FF80…U+10FFFF), which name the file when a client sends them back.
public struct MPDResponse: Sendable {
    /// The bytes written after ``earlier``'s.
    public private(set) var bytes: [UInt8] = []
    /// Long replies appended whole (``append(_:)``), in order before ``bytes``: sent as they were built, never
    /// copied into another buffer.
    private var earlier: [[UInt8]] = []
    /// A reply at least this long is appended as a block of its own.
    public static let blockBytes = 64 << 10

    public init() {}

    public var isEmpty: Bool { bytes.isEmpty && earlier.isEmpty }
    /// How many bytes it holds.
    public var count: Int { earlier.reduce(bytes.count) { $0 + $1.count } }

    /// Appends `key: value`.
    public mutating func add(_ key: String, _ value: String) {
        appendKey(key)
        bytes.append(contentsOf: Self.oneLine(value).utf8)
        bytes.append(0x0A)
    }

    /// Appends `key: value`, the number's digits written straight into the reply (no string made for it: a
    /// listing writes several a song, `status` a dozen).
    public mutating func add(_ key: String, _ value: some BinaryInteger) {
        appendKey(key)
        if let small = Int64(exactly: value) {
            Self.appendDecimal(small, to: &bytes)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        bytes.append(0x0A)
    }

    /// Makes room for `count` more bytes at once: a long reply built in one go (a whole library's listing) is then
    /// neither copied as it grows nor written into pages of blocks it outgrew.
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    private mutating func appendKey(_ key: String) {
        // The key's bytes copied at once (they are contiguous, also those of a short key kept inside its string).
        if key.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: key.utf8) }
        bytes.append(0x3A)
        bytes.append(0x20)
    }

    /// Appends `value` in decimal, a minus sign first when negative (Int64.min too).
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = bytes.count
        repeat { // least significant first, then turned around in place
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }

    /// Appends `key: value` from `value`'s UTF-8, on one line as ``oneLine(_:)`` makes it (a control character is
    /// one byte in UTF-8, never part of another character's).
    public mutating func add(_ key: String, utf8 value: UnsafeBufferPointer<UInt8>) {
        appendKey(key)
        if value.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            bytes.append(contentsOf: value.lazy.map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 })
        } else {
            bytes.append(contentsOf: value)
        }
        bytes.append(0x0A)
    }

    /// Appends `key: TIME`, the time `seconds` after 1970 as MPD writes it (`2026-11-27T03:04:05Z`).
    mutating func add(_ key: String, timeSince1970 seconds: Int64) {
        appendKey(key)
        MPDTime.append(secondsSince1970: seconds, to: &bytes)
        bytes.append(0x0A)
    }

    /// Appends `key: value` with three decimals, as MPD gives times.
    public mutating func add(_ key: String, seconds value: Double) {
        appendKey(key)
        let thousandths = Self.thousandths(value)
        Self.appendDecimal(thousandths / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        let fraction = thousandths % 1000
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        bytes.append(0x0A)
    }

    /// Appends the lines of `other`: a long reply (a listing built on a worker) as the blocks it is, so that what
    /// is written after it (`OK`) neither copies it nor shares its buffer.
    public mutating func append(_ other: MPDResponse) {
        guard other.count >= Self.blockBytes else {
            for block in other.earlier { bytes.append(contentsOf: block) }
            bytes.append(contentsOf: other.bytes)
            return
        }
        if !bytes.isEmpty { earlier.append(bytes) }
        earlier += other.earlier
        bytes = []
        if !other.bytes.isEmpty { earlier.append(other.bytes) }
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
        let taken = earlier.isEmpty ? bytes : earlier.reduce([], +) + bytes
        (earlier, bytes) = ([], [])
        return taken
    }

    /// Takes the bytes built so far as blocks to be sent in order (none empty), leaving the response empty.
    public mutating func takeBlocks() -> [[UInt8]] {
        var taken = earlier
        if !bytes.isEmpty { taken.append(bytes) }
        (earlier, bytes) = ([], [])
        return taken
    }

    /// `text` on one line: control characters (line feeds, carriage returns…) become spaces.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// `value` seconds in whole thousandths (negative and non-finite give 0; beyond Int64, its largest).
    static func thousandths(_ value: Double) -> Int64 {
        value.isFinite && value > 0 ? Int64(min(value * 1000, 9.2e18).rounded()) : 0
    }
}

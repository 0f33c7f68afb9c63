import RepriseCore

/// One request line, split as MPD splits it: a command name (a letter, then letters, digits and `_`), then
/// arguments, each either unquoted (no space, no quote) or in double quotes with backslash escapes.
public struct MPDRequest: Equatable, Sendable {
    public var name: String
    public var arguments: [String]

    /// The most arguments one command takes (MPD's `COMMAND_ARGV_MAX`).
    public static let maximumArguments = 4096

    /// An argument's quote left open: MPD's code 5, and the connection kept (unlike a bad command name).
    public static let unclosedQuote = MPDError(.unknown, "Missing closing '\"'")

    /// Splits `line` (without its newline). Throws ``MPDError/Code/unknown`` for a bad command name or an unclosed
    /// quote and ``MPDError/Code/argument`` for other bad quoting. Arguments keep their bytes: those that are not UTF-8 (a Latin-1
    /// file name) are kept as ``RawPath`` escapes, so the name reaches the file system as it was sent.
    public init(parsing line: some Collection<UInt8>) throws(MPDError) {
        var bytes = Array(line)[...]
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        func skipSpaces() { while let first = bytes.first, isSpace(first) { bytes.removeFirst() } }

        guard let first = bytes.first else { throw MPDError(.unknown, "No command given") }
        guard Self.isLetter(first) else { throw MPDError(.unknown, "Letter expected") }
        var name: [UInt8] = []
        while let byte = bytes.first, !isSpace(byte) {
            guard Self.isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_") else {
                throw MPDError(.unknown, "Invalid word character")
            }
            name.append(byte)
            bytes.removeFirst()
        }
        skipSpaces()
        var arguments: [String] = []
        while let byte = bytes.first {
            guard arguments.count < Self.maximumArguments else { throw .argument("Too many arguments") }
            var value: [UInt8] = []
            if byte == UInt8(ascii: "\"") {
                bytes.removeFirst()
                var closed = false
                while let next = bytes.popFirst() {
                    if next == UInt8(ascii: "\"") { closed = true; break }
                    if next == UInt8(ascii: "\\") {
                        guard let escaped = bytes.popFirst() else { break }
                        value.append(escaped)
                    } else {
                        value.append(next)
                    }
                }
                guard closed else { throw Self.unclosedQuote }
                if let after = bytes.first, !isSpace(after) { throw .argument("Space expected after closing '\"'") }
            } else {
                while let next = bytes.first, !isSpace(next) {
                    guard next > 0x20, next != UInt8(ascii: "\""), next != UInt8(ascii: "'") else {
                        throw .argument("Invalid unquoted character")
                    }
                    value.append(next)
                    bytes.removeFirst()
                }
            }
            arguments.append(RawPath.string(fromBytes: value))
            skipSpaces()
        }
        self.name = String(decoding: name, as: UTF8.self)
        self.arguments = arguments
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}

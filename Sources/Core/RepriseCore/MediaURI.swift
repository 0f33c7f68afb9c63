/// The little of RFC 3986 the player needs, in pure Swift: a URI's scheme, host and (percent-decoded)
/// path, and `file://` URIs made from paths.
public struct MediaURI: Sendable, Equatable {
    /// Lower-cased.
    public let scheme: String
    /// The host of `scheme://host/…`, without user info or port; nil when there is no authority part.
    public let host: String?
    /// The path, percent-decoded (bytes that are not UTF-8 kept as ``RawPath`` escapes).
    public let path: String

    public init?(_ text: String) {
        // Searched byte by byte: every delimiter is ASCII, so each index found is a valid index of `text`.
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = utf8[..<colon]
        func isLetter(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) }
        guard let first = scheme.first, isLetter(first),
              scheme.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        self.scheme = String(text[..<colon]).lowercased()
        var rest = text[utf8.index(after: colon)...]
        if let end = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { rest = rest[..<end] }
        if rest.utf8.starts(with: "//".utf8) {
            let authorityAndPath = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
            let slash = authorityAndPath.utf8.firstIndex(of: UInt8(ascii: "/")) ?? authorityAndPath.endIndex
            var authority = authorityAndPath[..<slash]
            if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.utf8.index(after: at)...] }
            if authority.utf8.first != UInt8(ascii: "["), let port = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
                authority = authority[..<port]
            }
            host = String(authority)
            rest = authorityAndPath[slash...]
        } else {
            host = nil
        }
        guard let decoded = MediaURI.percentDecoded(rest) else { return nil }
        path = decoded
    }

    /// The `file://` URI of an absolute path.
    public static func file(path: String) -> String {
        "file://" + percentEncoded(path)
    }

    /// The path's last component (nil when the path ends without one).
    public var lastPathComponent: String? {
        // Looked for from the end (every queued entry's title falls back to it): no array of every component.
        let bytes = path.utf8, slash = UInt8(ascii: "/")
        guard let last = bytes.lastIndex(where: { $0 != slash }) else { return nil }
        let start = bytes[..<last].lastIndex(of: slash).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(path[start...last])
    }

    /// Characters kept as they are in a path: RFC 3986 unreserved, sub-delimiters, ':', '@' and '/'.
    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    static func percentEncoded(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for byte in RawPath.bytes(of: path) {
            if isKept(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.popFirst().flatMap(hexValue), let low = iterator.popFirst().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return RawPath.string(fromBytes: bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `path` made absolute against `directory`, with "." and ".." resolved (lexically, like a shell).
    public static func absolutePath(_ path: String, relativeTo directory: String) -> String {
        if isNormalAbsolutePath(path) { return path }
        // A plain relative path in a plain directory (most playlist entries): joined, there is nothing to resolve.
        if !path.hasPrefix("/"), isNormal(path, absolute: false), directory == "/" || isNormalAbsolutePath(directory) {
            return directory == "/" ? "/" + path : directory + "/" + path
        }
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// Whether `path` is absolute with nothing to normalise: no empty, "." or ".." component, no trailing slash.
    static func isNormalAbsolutePath(_ path: String) -> Bool { isNormal(path, absolute: true) }

    /// Whether `path` begins with "/" (`absolute`) or not, and has no empty, "." or ".." component and no trailing slash.
    private static func isNormal(_ path: String, absolute: Bool) -> Bool {
        var bytes = path.utf8.makeIterator()
        if absolute { guard bytes.next() == UInt8(ascii: "/") else { return false } }
        var component = 0, dots = 0 // length of the component so far, and how many of its bytes are dots
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "/") {
                if component == 0 || component == dots && dots <= 2 { return false }
                component = 0
                dots = 0
            } else {
                component += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return component > 0 && !(component == dots && dots <= 2)
    }
}

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
        // Read as bytes (every queued entry's name and title comes through here): every delimiter is ASCII, so
        // each part between two of them is whole UTF-8.
        var text = text
        guard let parts = text.withUTF8(MediaURI.parts) else { return nil }
        (scheme, host, path) = parts
    }

    /// The scheme (lower-cased), host and decoded path of a URI's bytes; nil when it has no scheme, or a `%` without
    /// two hexadecimal digits after it.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (scheme: String, host: String?, path: String)? {
        func isLetter(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
              bytes[1..<colon].allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        let scheme = String(unsafeUninitializedCapacity: colon) { lowered in
            for index in 0..<colon { lowered[index] = (0x41...0x5A).contains(bytes[index]) ? bytes[index] | 0x20 : bytes[index] }
            return colon
        }
        var start = colon + 1
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        var host: String?
        if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
            let slash = bytes[(start + 2)..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            var authority = (start + 2)..<slash
            if let at = bytes[authority].lastIndex(of: UInt8(ascii: "@")) { authority = (at + 1)..<slash }
            if authority.isEmpty || bytes[authority.lowerBound] != UInt8(ascii: "["),
               let port = bytes[authority].lastIndex(of: UInt8(ascii: ":")) {
                authority = authority.lowerBound..<port
            }
            host = text(authority)
            start = slash
        }
        guard let path = percentDecoded(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
        return (scheme, host, path)
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

    /// `bytes` with each `%XX` made the byte it stands for; nil when a `%` lacks its two hexadecimal digits.
    private static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard var index = bytes.firstIndex(of: UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        var decoded = Array(bytes[..<index])
        decoded.reserveCapacity(bytes.count)
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard index + 1 < bytes.count, let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
            decoded.append(high << 4 | low)
            index += 2
        }
        return RawPath.string(fromBytes: decoded)
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

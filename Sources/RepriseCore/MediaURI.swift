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
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
        guard let first = scheme.unicodeScalars.first, isLetter(first),
              scheme.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        self.scheme = scheme.lowercased()
        var rest = text[text.index(after: colon)...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if rest.hasPrefix("//") {
            let authorityAndPath = rest.dropFirst(2)
            let slash = authorityAndPath.firstIndex(of: "/") ?? authorityAndPath.endIndex
            var authority = authorityAndPath[..<slash]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if !authority.hasPrefix("["), let port = authority.lastIndex(of: ":") { authority = authority[..<port] }
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
        let component = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init)
        return component?.isEmpty == false ? component : nil
    }

    /// Characters kept as they are in a path: RFC 3986 unreserved, sub-delimiters, ':', '@' and '/'.
    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~!$&'()*+,;=:@/".utf8.contains(byte)
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
}

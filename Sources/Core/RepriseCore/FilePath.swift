/// A file's path as the kernel knows it: bytes, which need not be UTF-8 (old collections hold Latin-1 names). Kept
/// as its lossless string (``RawPath``: each byte that is not UTF-8 an escape), so it converts back to exactly the
/// bytes it came from, for `open` and for `file://` URIs; shown to people with those bytes as "�". The library
/// carries its tracks' paths as this type, never as a string that could be a display form.
public struct FilePath: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The lossless string (``RawPath``): what the index stores and the file system takes.
    public let escaped: String

    public init(escaped: String) { self.escaped = escaped }

    /// A path written in code (tests): the text as it is.
    public init(stringLiteral text: String) { escaped = text }

    public init<C: Collection<UInt8>>(bytes: C) where C.Index == Int { escaped = RawPath.string(fromBytes: bytes) }

    public var bytes: [UInt8] { RawPath.bytes(of: escaped) }

    /// For people: bytes that are not UTF-8 shown as "�".
    public var displayed: String { RawPath.displayed(escaped) }

    public var description: String { displayed }

    /// Its `file://` URI (every byte that needs it percent-encoded).
    public var uri: String { MediaURI.file(path: escaped) }

    /// The folder it is in ("/" for a path at the top, itself when it has no slash).
    public var folder: FilePath {
        guard let slash = escaped.utf8.lastIndex(of: UInt8(ascii: "/")) else { return self } // by bytes: once a file in a pass
        return FilePath(escaped: slash == escaped.startIndex ? "/" : String(escaped[..<slash]))
    }

    /// Whether it is `folder` or inside it, at any depth.
    public func isInside(_ folder: FilePath) -> Bool {
        escaped == folder.escaped || escaped.hasPrefix(folder.escaped == "/" ? "/" : folder.escaped + "/")
    }

    public static func < (a: FilePath, b: FilePath) -> Bool { a.escaped < b.escaped }
}

/// File names are bytes: Linux allows any byte but "/" and NUL, and old collections hold Latin-1 names that are
/// not UTF-8. A path is kept in a `String` with each byte that is not part of valid UTF-8 stored as the private-use
/// scalar U+10FF00 + byte, so it converts back to exactly the bytes it came from (for `stat`, `open`, `opendir`,
/// and `file://` URIs, where it becomes `%XX`). Shown to people, those scalars become "�" (``displayed(_:)``).
/// (A name that really contains U+10FF80…U+10FFFF, from the end of the last private-use plane, is not supported.)
public enum RawPath {
    static let escapeBase: UInt32 = 0x10FF00

    /// The string holding `bytes` (valid UTF-8 as is, every other byte escaped).
    public static func string<C: Collection<UInt8>>(fromBytes bytes: C) -> String where C.Index == Int {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0
            if length > 0, index + length <= bytes.endIndex,
               let decoded = String(validating: bytes[index..<index + length], as: UTF8.self) {
                scalars.append(contentsOf: decoded.unicodeScalars)
                index += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(lead))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` stands for.
    public static func bytes(of path: String) -> [UInt8] {
        guard path.utf8.contains(0xF4), path.unicodeScalars.contains(where: isEscape) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the NUL-terminated bytes the system expects.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        // No escaped byte without its scalar's lead byte 0xF4: most paths are their own bytes, passed without a copy.
        guard path.utf8.contains(0xF4) else { return path.withCString(body) }
        var bytes = bytes(of: path)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0) }
        }
    }

    /// `text` for people: escaped bytes shown as "�".
    public static func displayed(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscape) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isEscape($0) ? "\u{FFFD}" : $0 }))
    }

    static func isEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF }
}

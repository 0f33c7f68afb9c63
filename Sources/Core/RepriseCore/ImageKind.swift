/// The picture formats a desktop widget can show, recognised by their first bytes, not by what a tag claims.
public enum ImageKind: String, Sendable, CaseIterable {
    case jpeg = "jpg", png, gif, webp, bmp

    /// The kind of picture `bytes` hold; nil when they are not one of these formats.
    public init?(sniffing bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if starts(Array("BM".utf8)) && bytes.count > 26 { self = .bmp }
        else { return nil }
    }

    /// The file extension the cache names pictures of this kind with.
    public var fileExtension: String { rawValue }
}

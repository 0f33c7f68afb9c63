/// Playlist files (M3U/M3U8, PLS, XSPF) read into the URIs they list, in order. Entries are not checked here:
/// ``MediaLocation`` validates each one like any other URI (so a playlist cannot smuggle in what a client could not).
public enum PlaylistFormat: String, Sendable, CaseIterable {
    case m3u, m3u8, pls, xspf

    /// The format a file name's extension names, if any.
    public init?(fileName: String) {
        self.init(rawValue: MediaLocation.fileExtension(fileName))
    }
}

/// One parsed playlist: its own title (when the file names one) and the URIs of its entries.
public struct PlaylistFile: Sendable, Equatable {
    public var title: String?
    public var uris: [String] = []

    /// Playlist files larger than this are refused.
    public static let sizeLimit = 16 << 20

    /// Parses `bytes` as `format`; relative entries are resolved against `directory` (absolute, no trailing slash).
    public init(_ bytes: [UInt8], format: PlaylistFormat, directory: String) {
        // M3U files are often Latin-1; everything else is UTF-8.
        var text = String(validating: bytes, as: UTF8.self)
            ?? (format == .m3u ? String(bytes.map { Character(Unicode.Scalar($0)) }) : String(decoding: bytes, as: UTF8.self))
        // A byte-order mark is not part of the first entry.
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        switch format {
        case .m3u, .m3u8: parseM3U(text, directory: directory)
        case .pls: parsePLS(text, directory: directory)
        case .xspf: parseXSPF(text, directory: directory)
        }
    }

    /// An entry as written: a URI with a scheme stays; a path becomes a `file://` URI (relative to `directory`).
    static func resolve(_ entry: String, directory: String) -> String? {
        let trimmed = entry.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if hasSchemeSeparator(trimmed), let parsed = MediaURI(trimmed), parsed.scheme.count > 1 { return trimmed }
        return MediaURI.file(path: MediaURI.absolutePath(trimmed, relativeTo: directory))
    }

    /// Whether `text` contains "://" (a byte search: far cheaper than a generic substring search per entry).
    static func hasSchemeSeparator(_ text: String) -> Bool {
        var colonAt = -3, index = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") {
                colonAt = index
            } else if byte == UInt8(ascii: "/") && index - colonAt <= 2 {
                if index - colonAt == 2 { return true }
            } else {
                colonAt = -3
            }
            index += 1
        }
        return false
    }

    private mutating func parseM3U(_ text: String, directory: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            let line = String(line).trimmingWhitespace()
            if line.hasPrefix("#PLAYLIST:") { title = String(line.dropFirst("#PLAYLIST:".count)).trimmingWhitespace() }
            if line.hasPrefix("#") { continue }
            if let uri = Self.resolve(line, directory: directory) { uris.append(uri) }
        }
    }

    private mutating func parsePLS(_ text: String, directory: String) {
        var files: [(number: Int, uri: String)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: equals)...])
            guard key.hasPrefix("file"), let number = Int(key.dropFirst(4)),
                  let uri = Self.resolve(value, directory: directory) else { continue }
            files.append((number, uri))
        }
        uris = files.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element.uri)
    }

    private mutating func parseXSPF(_ text: String, directory: String) {
        let trackList = text.firstRange(ofText: "<trackList")
        if let titleText = XMLText.firstElement("title", in: trackList.map { text[..<$0.lowerBound] } ?? text[...]) {
            title = titleText
        }
        for location in XMLText.elements("location", in: text[...]) {
            // XSPF locations are URIs; relative ones are percent-encoded paths relative to the playlist.
            let resolved = location.contains(text: "://") ? location
                : MediaURI("file:" + location).map { $0.path }.flatMap { Self.resolve($0, directory: directory) }
            if let resolved, let uri = Self.resolve(resolved, directory: directory) { uris.append(uri) }
        }
    }
}

/// Just enough XML for XSPF: the text of simple elements, entities decoded.
enum XMLText {
    static func firstElement(_ name: String, in text: Substring) -> String? {
        elements(name, in: text, limit: 1).first
    }

    static func elements(_ name: String, in text: Substring, limit: Int = .max) -> [String] {
        var found: [String] = []
        var rest = text
        while found.count < limit, let open = rest.firstRange(ofText: "<" + name) {
            let afterName = rest[open.upperBound...]
            guard let next = afterName.first, next == ">" || next == " " || next == "\t" || next == "\n" else {
                rest = afterName
                continue
            }
            // No ">" (or no closing tag) anywhere after this one: no later element can be complete either. Stopping
            // here keeps the work linear on malformed input (each scan would otherwise run to the end again).
            guard let tagEnd = afterName.firstIndex(of: ">") else { break }
            let content = afterName[afterName.index(after: tagEnd)...]
            guard let close = content.firstRange(ofText: "</" + name + ">") else { break }
            found.append(decodeEntities(content[..<close.lowerBound]).trimmingWhitespace())
            rest = content[close.upperBound...]
        }
        return found
    }

    /// XML's five named entities (any other name is kept as written).
    private static let namedEntities: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]

    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let afterAmp = rest[rest.index(after: amp)...]
            guard let semicolon = afterAmp.prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = afterAmp
                continue
            }
            let entity = afterAmp[..<semicolon]
            if let named = namedEntities[entity] {
                result += named
            } else {
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                if let number, let scalar = Unicode.Scalar(number) { result.unicodeScalars.append(scalar) } else { result += "&" + entity + ";" }
            }
            rest = afterAmp[afterAmp.index(after: semicolon)...]
        }
        return result + rest
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace.
    public func trimmingWhitespace() -> String {
        let text = String(self)
        // Most lines have nothing to trim: printable ASCII at both ends.
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}

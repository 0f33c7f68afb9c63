import RepriseCore

/// A song filter as MPD 0.21+ takes it — `(artist == 'X')`, `(album contains "y")`, `(title starts_with 'Z')`,
/// `(!EXPR)`, `(EXPR AND EXPR)`, `(base 'folder')`, `(file == 'a/b.ogg')`, `(any contains 'w')` — or as the old
/// `TAG VALUE` pairs (`find`: equal; `search`: contains, without case).
public indirect enum MPDFilter: Sendable, Equatable {
    public enum Comparison: Sendable, Equatable { case equal, notEqual, contains, startsWith }

    /// `tag` is lower case: a tag name of ``MPDSongWriter/tagTypes``, `file`, or `any`.
    case tag(String, Comparison, String, ignoringCase: Bool)
    case not(MPDFilter)
    case and([MPDFilter])
    /// Songs in this folder (relative to the music folder) or below.
    case base(String)

    /// Every tag MPD knows may be named (M.A.L.P. groups by `albumartistsort`); those Reprise does not keep have no
    /// values, apart from the sort tags, which fall back as MPD's do.
    /// A filter's tag name in lower case; `filename` is MPD's older name for `file` (Audio::MPD, mpdtoys send it).
    static func canonicalName(_ name: String) -> String {
        let lowered = name.lowercased()
        return lowered == "filename" ? "file" : lowered
    }

    static let tagNames: Set<String> = Set((MPDSongWriter.tagTypes + MPDCommandSet.allMPDTags).map { $0.lowercased() } + ["file", "any"])

    /// Parses `arguments`: one filter expression, or `TAG VALUE` pairs. `ignoringCase`: `search`'s comparisons.
    public static func parse(_ arguments: [String], ignoringCase: Bool) throws(MPDError) -> MPDFilter {
        if arguments.count == 1, arguments[0].hasPrefix("(") {
            var parser = Parser(text: Array(arguments[0].unicodeScalars), ignoringCase: ignoringCase)
            let filter = try parser.expression()
            parser.skipSpaces()
            guard parser.atEnd else { throw .argument("Unparsed garbage after expression") }
            return filter
        }
        guard arguments.count.isMultiple(of: 2), !arguments.isEmpty else { throw .argument("Incorrect number of filter arguments") }
        var parts: [MPDFilter] = []
        for pair in stride(from: 0, to: arguments.count, by: 2) {
            let name = Self.canonicalName(arguments[pair])
            if name == "base" { parts.append(.base(arguments[pair + 1])); continue }
            guard tagNames.contains(name) else { throw .argument("Unknown filter type: \(arguments[pair])") }
            parts.append(.tag(name, ignoringCase ? .contains : .equal, ignoringCase ? folded(arguments[pair + 1]) : arguments[pair + 1],
                              ignoringCase: ignoringCase))
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Whether `song` matches; `name` is the song's file name as clients see it.
    public func matches(_ song: LibraryTrack, name: String) -> Bool {
        matches(MPDNamedTrack(name: name, track: song))
    }

    /// Whether `song` matches, its values read as it lends them.
    public func matches(_ song: some MPDFilterableSong) -> Bool {
        switch self {
        case .not(let inner): return !inner.matches(song)
        case .and(let parts): return parts.allSatisfy { $0.matches(song) }
        case .base(let folder): return folder.isEmpty || song.name.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        case .tag(let tag, let comparison, let wanted, let ignoringCase):
            // `wanted` is lower case already when case is ignored (``folded(_:)`` at parsing).
            let test: (UnsafeBufferPointer<UInt8>) -> Bool = { value in
                switch comparison {
                case .equal: return Self.compare(value, wanted, folding: ignoringCase) { $0.elementsEqual($1) }
                case .notEqual: return !Self.compare(value, wanted, folding: ignoringCase) { $0.elementsEqual($1) }
                case .contains: return Self.compare(value, wanted, folding: ignoringCase, Self.contains)
                case .startsWith: return Self.compare(value, wanted, folding: ignoringCase) { $0.starts(with: $1) }
                }
            }
            let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            if tag == "any" { return Self.anyValue(of: song, comparison: comparison, test) }
            // A tag the song lacks equals "" (MPD: `(album == '')` finds songs without an album).
            guard let field = MPDSongField(tag: tag) else { return test(empty) }
            var sawValue = false
            let found = song.anyValue(field) { value in
                sawValue = true
                return comparison == .notEqual ? !test(value) : test(value)
            }
            if !sawValue { return test(empty) }
            return comparison == .notEqual ? !found : found
        }
    }

    /// `any`: each tag Reprise keeps (``MPDSongWriter/tagTypes``) and the name in turn, stopping at the first that
    /// decides.
    private static func anyValue(of song: some MPDFilterableSong, comparison: Comparison,
                                 _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var sawValue = false, decided: Bool?
        for field in MPDSongField.anyOrder {
            let stopped = song.anyValue(field) { value in
                sawValue = true
                let passed = test(value)
                if comparison == .notEqual ? !passed : passed { decided = passed }
                return decided != nil
            }
            if stopped { break }
        }
        if let decided { return decided }
        return sawValue ? comparison == .notEqual : test(UnsafeBufferPointer(start: nil, count: 0))
    }

    /// `body` over the UTF-8 bytes of `raw` (lower case when `folding`: ASCII folded on the stack, other text
    /// through `lowercased()`) and of `wanted` (lower case already).
    private static func compare(_ raw: UnsafeBufferPointer<UInt8>, _ wanted: String, folding: Bool,
                                _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var wanted = wanted
        return wanted.withUTF8 { needle in
            guard folding, raw.contains(where: { $0 >= 0x41 && ($0 <= 0x5A || $0 >= 0x80) }) else { return body(raw, needle) }
            guard !raw.contains(where: { $0 >= 0x80 }) else {
                var lowered = String(decoding: raw, as: UTF8.self).lowercased()
                return lowered.withUTF8 { body($0, needle) }
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { buffer in
                for index in 0..<raw.count {
                    let byte = raw[index]
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                }
                return body(UnsafeBufferPointer(buffer), needle)
            }
        }
    }

    /// Whether `hay` contains `needle`, byte for byte (as MPD compares UTF-8).
    private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard hay.count >= needle.count else { return false }
        var index = 0
        let last = hay.count - needle.count
        while index <= last {
            if hay[index] == first, UnsafeBufferPointer(rebasing: hay[index..<index + needle.count]).elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// `text` in lower case (for what a client searches for: folded once, when parsed).
    static func folded(_ text: String) -> String {
        text.utf8.contains(where: { $0 >= 0x41 && ($0 <= 0x5A || $0 >= 0x80) }) ? text.lowercased() : text
    }

    /// The values of tag `tag` (lower case) of `song`, as filters read them (``MPDSongField/init(tag:)``): the album
    /// artist falls back to the artist, a sort tag the file lacks to what it sorts, as MPD's do.
    public static func values(_ tag: String, of song: LibraryTrack, name: String) -> [String] {
        guard let field = MPDSongField(tag: tag) else { return [] }
        var values: [String] = []
        _ = MPDNamedTrack(name: name, track: song).anyValue(field) { value in
            values.append(String(decoding: value, as: UTF8.self))
            return false // every value
        }
        return values
    }

    /// The recursive-descent parser of filter expressions.
    private struct Parser {
        let text: [Unicode.Scalar]
        let ignoringCase: Bool
        var index = 0

        var atEnd: Bool { index >= text.count }

        mutating func skipSpaces() { while index < text.count, text[index] == " " { index += 1 } }

        mutating func expect(_ character: Unicode.Scalar) throws(MPDError) {
            skipSpaces()
            guard index < text.count, text[index] == character else { throw .argument("'\(character)' expected") }
            index += 1
        }

        mutating func word() -> String {
            skipSpaces()
            var result = ""
            while index < text.count, text[index] != " ", text[index] != ")", text[index] != "(" {
                result.unicodeScalars.append(text[index])
                index += 1
            }
            return result
        }

        mutating func quoted() throws(MPDError) -> String {
            skipSpaces()
            guard index < text.count, text[index] == "'" || text[index] == "\"" else { throw .argument("Quoted string expected") }
            let quote = text[index]
            index += 1
            var result = ""
            while index < text.count, text[index] != quote {
                if text[index] == "\\" { index += 1 }
                guard index < text.count else { break }
                result.unicodeScalars.append(text[index])
                index += 1
            }
            guard index < text.count else { throw .argument("Closing quote not found") }
            index += 1
            return result
        }

        mutating func expression() throws(MPDError) -> MPDFilter {
            try expect("(")
            skipSpaces()
            if index < text.count, text[index] == "!" {
                index += 1
                let inner = try expression()
                try expect(")")
                return .not(inner)
            }
            if index < text.count, text[index] == "(" {
                var parts = [try expression()]
                while true {
                    skipSpaces()
                    if index < text.count, text[index] == ")" { index += 1; break }
                    guard word() == "AND" else { throw .argument("'AND' expected") }
                    parts.append(try expression())
                }
                return parts.count == 1 ? parts[0] : .and(parts)
            }
            let name = MPDFilter.canonicalName(word())
            if name == "base" {
                let folder = try quoted()
                try expect(")")
                return .base(folder)
            }
            guard MPDFilter.tagNames.contains(name) else { throw .argument("Unknown filter type: \(name)") }
            let comparison: Comparison
            switch word() {
            case "==": comparison = .equal
            case "!=": comparison = .notEqual
            case "contains": comparison = .contains
            case "starts_with": comparison = .startsWith
            default: throw .argument("'==' or '!=' expected")
            }
            let value = try quoted()
            try expect(")")
            return .tag(name, comparison, ignoringCase ? MPDFilter.folded(value) : value, ignoringCase: ignoringCase)
        }
    }
}

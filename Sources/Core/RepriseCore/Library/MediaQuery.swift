/// A search in the UPnP ContentDirectory criteria syntax that MediaServer2's `SearchObjects` takes, with
/// MediaServer2's property names (`DisplayName`, `Artist`, `Type`, …):
/// `Type derivedfrom "audio" and (Artist contains "davis" or Genre = "Jazz")`, or `*` for everything.
/// Strings compare without regard to case; numbers compare as numbers.
public indirect enum MediaQuery: Sendable, Equatable {
    case everything
    case compare(property: String, operation: Operation, value: String)
    case exists(property: String, Bool)
    case and(MediaQuery, MediaQuery)
    case or(MediaQuery, MediaQuery)

    public enum Operation: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contains, doesNotContain, derivedFrom = "derivedfrom", startsWith
    }

    /// A property's value on an object: text, a number, or several texts (URLs).
    public enum Value: Sendable, Equatable {
        case text(String), number(Int64), texts([String])
    }

    /// Longer queries are refused.
    public static let maximumLength = 4096

    public struct ParseError: Error, Equatable, Sendable {
        public let message: String
    }

    /// Parses `text`; malformed criteria throw (a D-Bus client gets InvalidArgs).
    public init(parsing text: String) throws(ParseError) {
        guard text.utf8.count <= Self.maximumLength else { throw ParseError(message: "the query is longer than \(Self.maximumLength) bytes") }
        var parser = Parser(tokens: try Self.tokens(text))
        if parser.tokens == [.word("*")] { self = .everything; return }
        self = try parser.orExpression(depth: 0)
        guard parser.index == parser.tokens.count else { throw ParseError(message: "unexpected \(parser.tokens[parser.index]) in the query") }
    }

    /// Whether some object of `type` ("music", "container") could match, whatever its other properties.
    public func canMatch(type: String) -> Bool {
        switch self {
        case .and(let left, let right): return left.canMatch(type: type) && right.canMatch(type: type)
        case .or(let left, let right): return left.canMatch(type: type) || right.canMatch(type: type)
        case .compare(property: "Type", _, _), .exists(property: "Type", _): return matches(["Type": .text(type)])
        case .compare(property: "upnp:class", _, _), .exists(property: "upnp:class", _):
            return matches(["upnp:class": .text(type == "container" ? Self.folderClass : Self.musicTrackClass)])
                || (type == "container" && ["object.container.album.musicAlbum", "object.container.person.musicArtist",
                                            "object.container.genre.musicGenre", "object.container.playlistContainer",
                                            "object.container"].contains { matches(["upnp:class": .text($0)]) })
        default: return true
        }
    }

    /// Whether an object with `properties` matches.
    public func matches(_ properties: [String: Value]) -> Bool {
        switch self {
        case .everything: return true
        case .and(let left, let right): return left.matches(properties) && right.matches(properties)
        case .or(let left, let right): return left.matches(properties) || right.matches(properties)
        case .exists(let property, let wanted): return (properties[property] != nil) == wanted
        case .compare(let property, let operation, let value):
            switch properties[property] {
            case nil: return operation == .doesNotContain || operation == .notEqual
            case .texts(let texts)?: return operation == .doesNotContain || operation == .notEqual
                ? texts.allSatisfy { Self.compare($0, operation, value) } : texts.contains { Self.compare($0, operation, value) }
            case .text(let text)?: return Self.compare(text, operation, value)
            case .number(let number)?:
                return Int64(value).flatMap { Self.ordered(number, operation, $0) } ?? Self.compare(String(number), operation, value)
            }
        }
    }

    /// `a` against `b` for the operations that order (`=`, `!=`, `<`, `<=`, `>`, `>=`); nil for the others.
    private static func ordered<T: Comparable>(_ a: T, _ operation: Operation, _ b: T) -> Bool? {
        switch operation {
        case .equal: a == b
        case .notEqual: a != b
        case .less: a < b
        case .lessOrEqual: a <= b
        case .greater: a > b
        case .greaterOrEqual: a >= b
        default: nil
        }
    }

    private static func compare(_ text: String, _ operation: Operation, _ value: String) -> Bool {
        let text = text.lowercased(), value = value.lowercased()
        switch operation {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return ordered(text, operation, value) ?? false
        case .contains: return text.contains(text: value)
        case .doesNotContain: return !text.contains(text: value)
        case .startsWith: return text.hasPrefix(value)
        // A type is derived from itself and from the types before its dots ("audio.music" from "audio"; UPnP's
        // "object.item.audioItem.musicTrack" from "object.item"); "music" is audio.
        case .derivedFrom:
            let type = text == "music" ? "audio.music" : text
            return type == value || type.hasPrefix(value + ".")
        }
    }

    /// UPnP ContentDirectory's own property names (as Rygel passes a control point's search on) for MediaServer2's.
    /// `upnp:class` stays itself: objects carry their UPnP class too (``upnpClass(ofType:)``).
    static let propertyAliases: [String: String] = [
        "dc:title": "DisplayName", "upnp:artist": "Artist", "dc:creator": "Artist", "upnp:album": "Album",
        "upnp:genre": "Genre", "upnp:originalTrackNumber": "TrackNumber", "@parentID": "Parent", "@id": "Path",
    ]

    /// The UPnP class of a library track, and of the containers of each kind.
    public static let musicTrackClass = "object.item.audioItem.musicTrack"
    public static let folderClass = "object.container.storageFolder"

    // MARK: Parsing

    enum Token: Equatable, CustomStringConvertible {
        case word(String), quoted(String), open, close
        var description: String {
            switch self {
            case .word(let word): return "'\(word)'"
            case .quoted(let text): return "\"\(text)\""
            case .open: return "'('"
            case .close: return "')'"
            }
        }
    }

    static func tokens(_ text: String) throws(ParseError) -> [Token] {
        var tokens: [Token] = []
        var characters = Array(text.unicodeScalars)[...]
        while let first = characters.first {
            switch first {
            case " ", "\t", "\n", "\r": characters.removeFirst()
            case "(": tokens.append(.open); characters.removeFirst()
            case ")": tokens.append(.close); characters.removeFirst()
            case "\"":
                characters.removeFirst()
                var value = String.UnicodeScalarView()
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\\", let escaped = characters.popFirst() { value.append(escaped); continue }
                    if next == "\"" { closed = true; break }
                    value.append(next)
                }
                guard closed else { throw ParseError(message: "a quoted value is not closed") }
                tokens.append(.quoted(String(value)))
            default:
                var word = String.UnicodeScalarView()
                while let next = characters.first, !" \t\n\r()\"".unicodeScalars.contains(next) {
                    word.append(next)
                    characters.removeFirst()
                }
                tokens.append(.word(String(word)))
            }
        }
        return tokens
    }

    struct Parser {
        let tokens: [Token]
        var index = 0

        mutating func next() -> Token? {
            guard index < tokens.count else { return nil }
            defer { index += 1 }
            return tokens[index]
        }

        func peekWord(_ word: String) -> Bool {
            guard index < tokens.count, case .word(let found) = tokens[index] else { return false }
            return found.lowercased() == word
        }

        /// `and` binds tighter than `or`, as in the UPnP grammar.
        mutating func orExpression(depth: Int) throws(ParseError) -> MediaQuery {
            try chain("or", combine: MediaQuery.or, depth: depth) { parser, depth throws(ParseError) in
                try parser.chain("and", combine: MediaQuery.and, depth: depth) { parser, depth throws(ParseError) in
                    try parser.primary(depth: depth)
                }
            }
        }

        /// Operands joined by `word`, left to right.
        mutating func chain(_ word: String, combine: (MediaQuery, MediaQuery) -> MediaQuery, depth: Int,
                            operand: (inout Parser, Int) throws(ParseError) -> MediaQuery) throws(ParseError) -> MediaQuery {
            var left = try operand(&self, depth)
            while peekWord(word) {
                index += 1
                left = combine(left, try operand(&self, depth))
            }
            return left
        }

        mutating func primary(depth: Int) throws(ParseError) -> MediaQuery {
            guard depth < 32 else { throw ParseError(message: "the query nests too deeply") }
            switch next() {
            case .open?:
                let inner = try orExpression(depth: depth + 1)
                guard next() == .close else { throw ParseError(message: "a '(' is not closed") }
                return inner
            case .word(let name)?:
                let property = MediaQuery.propertyAliases[name] ?? name
                guard case .word(let operatorWord)? = next() else { throw ParseError(message: "\(property) needs an operator") }
                if operatorWord == "exists" {
                    guard case .word(let flag)? = next(), ["true", "false"].contains(flag.lowercased()) else {
                        throw ParseError(message: "exists takes true or false")
                    }
                    return .exists(property: property, flag.lowercased() == "true")
                }
                guard let operation = Operation.allCases.first(where: { $0.rawValue.lowercased() == operatorWord.lowercased() }) else {
                    throw ParseError(message: "'\(operatorWord)' is not an operator")
                }
                guard case .quoted(let value)? = next() else { throw ParseError(message: "\(property) \(operatorWord) needs a quoted value") }
                return .compare(property: property, operation: operation, value: value)
            case let token?: throw ParseError(message: "unexpected \(token) in the query")
            case nil: throw ParseError(message: "the query ends too soon")
            }
        }
    }
}

extension LibraryTrack {
    /// The MediaServer2 item properties of this track that a ``MediaQuery`` can test.
    public var mediaProperties: [String: MediaQuery.Value] {
        var properties: [String: MediaQuery.Value] = [
            "DisplayName": .text(displayTitle), "Type": .text("music"), "MIMEType": .text(Self.mimeType(path.escaped)),
            "URLs": .texts([path.uri]), "upnp:class": .text(MediaQuery.musicTrackClass),
        ]
        if let artist { properties["Artist"] = .text(artist) }
        if let album { properties["Album"] = .text(album) }
        if let genre { properties["Genre"] = .text(genre) }
        if let track { properties["TrackNumber"] = .number(Int64(track)) }
        if let lengthMicroseconds { properties["Duration"] = .number(lengthMicroseconds / 1_000_000) }
        return properties
    }

    /// The MIME type of an audio file, by its extension.
    public static func mimeType(_ path: String) -> String {
        let types = ["ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "mp3": "audio/mpeg",
                     "m4a": "audio/mp4", "m4b": "audio/mp4", "aac": "audio/aac", "wav": "audio/x-wav", "wma": "audio/x-ms-wma",
                     "mka": "audio/x-matroska", "wv": "audio/x-wavpack", "ape": "audio/x-ape"]
        return path.lastIndex(of: ".").flatMap { types[path[path.index(after: $0)...].lowercased()] } ?? "audio/x-generic"
    }
}

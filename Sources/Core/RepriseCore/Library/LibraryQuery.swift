/// A search typed by a person: words, each matching the start of a word in title, artist, album artist, album,
/// genre or year, regardless of case and accents; all words must match.
public struct LibraryQuery: Sendable, Equatable {
    /// The words, folded (lower case, accents removed), at most 16.
    public let words: [String]

    public init(_ text: String) {
        words = Array(LibraryQuery.folded(text).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).prefix(16))
    }

    public var isEmpty: Bool { words.isEmpty }

    /// The FTS5 expression: every word a quoted prefix ("word"*), joined by AND. Quoting keeps FTS5's own syntax
    /// (NEAR, column filters, quotes) out of reach of what people type.
    public var matchExpression: String {
        words.map { "\"" + $0.replacingAll("\"", with: "\"\"") + "\"*" }.joined(separator: " AND ")
    }

    /// Whether every word begins some word of `text` (after folding).
    public func matches(_ text: String) -> Bool {
        let candidates = LibraryQuery.folded(text).split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        return !words.isEmpty && words.allSatisfy { word in candidates.contains { $0.hasPrefix(word) } }
    }

    /// Lower case without diacritics, by Unicode scalars: a letter followed by combining marks keeps the letter
    /// ("é" → "e", "ö" → "o"; precomposed letters are decomposed by their canonical mapping where it is Latin).
    /// Linear in the text's length: scalars are gathered in an array and made into a string once (appending a string's
    /// scalars to a string one replacement at a time was quadratic for non-ASCII text).
    public static func folded(_ text: String) -> String {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.lowercased().unicodeScalars {
            if (0x0300...0x036F).contains(scalar.value) { continue } // combining diacritical marks
            if let base = latinBase[scalar] { scalars.append(contentsOf: base.unicodeScalars) } else { scalars.append(scalar) }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// Latin letters with diacritics and their base letters (what SQLite's unicode61 remove_diacritics folds too).
    static let latinBase: [Unicode.Scalar: String] = {
        let pairs: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşšș", "s"), ("ţťŧț", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"),
            ("źżž", "z"), ("ß", "ss"), ("æ", "ae"), ("œ", "oe"), ("ð", "d"), ("þ", "th"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (letters, base) in pairs { for scalar in letters.unicodeScalars { table[scalar] = base } }
        return table
    }()
}

extension String {
    /// Every occurrence of `target` replaced (the core has no Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}

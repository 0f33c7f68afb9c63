/// A track's lyrics: lines sung at given times (synced: from an LRC file or LRC text in a tag) or plain lines.
public struct Lyrics: Equatable, Sendable {
    /// One line: its text (no time stamps, no word times) and, when synced, the time it is sung from.
    public struct Line: Equatable, Sendable {
        public var startMicroseconds: Int64?
        public var text: String

        public init(startMicroseconds: Int64?, text: String) {
            self.startMicroseconds = startMicroseconds
            self.text = text
        }
    }

    /// Where they were found.
    public enum Source: String, Sendable {
        /// A `.lrc` file beside the media file, of the same name.
        case sidecar
        /// The file's own tags (ID3 USLT, Vorbis LYRICS/UNSYNCEDLYRICS, MP4 ©lyr).
        case embedded
    }

    /// In time order when synced (lines with equal times keep the file's order).
    public private(set) var lines: [Line]
    public let source: Source

    public var isSynced: Bool { lines.first?.startMicroseconds != nil }

    /// The text alone, a line per line (what MPRIS `xesam:asText` carries: never a time stamp).
    public var plainText: String { lines.map(\.text).joined(separator: "\n") }

    /// The line sung at `position` (the last that started at or before it); nil before the first or when unsynced.
    public func lineIndex(at position: Int64) -> Int? {
        guard isSynced else { return nil }
        var low = 0, high = lines.count // first line starting after `position`
        while low < high {
            let middle = (low + high) / 2
            if (lines[middle].startMicroseconds ?? 0) <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// When the next line after `position` starts (nil: none, or unsynced).
    public func nextLineStart(after position: Int64) -> Int64? {
        guard isSynced else { return nil }
        let next = (lineIndex(at: position) ?? -1) + 1
        return next < lines.count ? lines[next].startMicroseconds : nil
    }
}

/// Why a text was not taken as lyrics (logged; nothing is cut silently).
public enum LyricsRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    /// Not a regular file, unreadable, or larger than ``LRC/maximumBytes``.
    case unreadable
    case tooManyLines
    case notText
    case empty

    public var description: String {
        switch self {
        case .tooLarge(let bytes): "\(bytes) bytes, more than lyrics take (\(LRC.maximumBytes) in a file, \(LRC.maximumTextBytes) of text)"
        case .unreadable: "not a regular file, unreadable, or larger than \(LRC.maximumBytes) bytes"
        case .tooManyLines: "more than \(LRC.maximumLines) lines"
        case .notText: "binary, not text"
        case .empty: "no lyrics in it"
        }
    }
}

/// The LRC format (and plain text, which is LRC without time stamps): `[mm:ss.xx]` stamps, several on one line,
/// `[offset:±ms]`, the ID tags (`[ar:]`, `[ti:]`, `[al:]`, …) ignored, enhanced LRC's `<mm:ss.xx>` word times
/// removed from the text. Lines come out in time order; a stamp that is negative after the offset counts from 0;
/// one too large to be a time (its arithmetic overflows) is dropped. UTF-8 (bad bytes replaced) or UTF-16 with a
/// byte-order mark. Bounded: a text larger than ``maximumBytes`` or with more than ``maximumLines`` lines is refused.
public enum LRC {
    /// The largest LRC taken: a long libretto with word times is ~1 MiB.
    public static let maximumBytes = 4 << 20
    /// The most lines taken, in the file and once lines with several stamps are counted once each (a libretto
    /// has a few thousand).
    public static let maximumLines = 20_000
    /// The most text taken, in UTF-8 bytes, time stamps left out (what MPRIS clients get in `xesam:asText`):
    /// ``FileTags/maximumLyricsLength`` characters of up to four bytes.
    public static let maximumTextBytes = 4 * FileTags.maximumLyricsLength

    /// Lyrics from the bytes of an LRC file, or of a tag's text.
    public static func parse(_ bytes: [UInt8], source: Lyrics.Source) -> Result<Lyrics, LyricsRefusal> {
        guard bytes.count <= maximumBytes else { return .failure(.tooLarge(bytes: bytes.count)) }
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            return parse(utf16: bytes, source: source)
        }
        guard !bytes.contains(0) else { return .failure(.notText) }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var timed: [(time: Int64, order: Int, text: String)] = []
        var plain: [String] = []
        var offsetMicroseconds: Int64 = 0
        var lineCount = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            lineCount += 1
            guard lineCount <= maximumLines else { return .failure(.tooManyLines) }
            let line = parseLine(bytes[start..<end])
            if let offset = line.offsetMilliseconds { offsetMicroseconds = offset * 1000 }
            if !line.times.isEmpty {
                guard timed.count + line.times.count <= maximumLines else { return .failure(.tooManyLines) }
                for time in line.times { timed.append((time, timed.count, line.text)) }
            } else if !line.isTagLine {
                plain.append(line.text)
            }
            guard end < bytes.count else { break }
            start = end + (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? 2 : 1)
        }
        if !timed.isEmpty {
            timed.sort { ($0.time, $0.order) < ($1.time, $1.order) }
            let lines = timed.map { entry in
                let (shifted, overflow) = entry.time.subtractingReportingOverflow(offsetMicroseconds)
                // Past Int64's range: below it counts from 0, above it is as late as can be (the order holds).
                let start = overflow ? (offsetMicroseconds > 0 ? 0 : Int64.max) : max(0, shifted)
                return Lyrics.Line(startMicroseconds: start, text: entry.text)
            }
            // The offset can reorder nothing (it shifts all alike), and clamping at 0 keeps the order too.
            return checkedSize(Lyrics(lines: lines, source: source))
        }
        while plain.last?.isEmpty == true { plain.removeLast() }
        plain.removeFirst(plain.firstIndex { !$0.isEmpty } ?? plain.count) // at once: one removeFirst a line was quadratic
        guard !plain.isEmpty else { return .failure(.empty) }
        return checkedSize(Lyrics(lines: plain.map { Lyrics.Line(startMicroseconds: nil, text: $0) }, source: source))
    }

    private static func checkedSize(_ lyrics: Lyrics) -> Result<Lyrics, LyricsRefusal> {
        let textBytes = lyrics.lines.reduce(0) { $0 + $1.text.utf8.count + 1 }
        return textBytes > maximumTextBytes ? .failure(.tooLarge(bytes: textBytes)) : .success(lyrics)
    }

    /// Lyrics from a tag's text (which may be LRC: taggers store synced lyrics in LYRICS too).
    public static func parse(text: String, source: Lyrics.Source) -> Result<Lyrics, LyricsRefusal> {
        parse(Array(text.utf8), source: source)
    }

    private static func parse(utf16 bytes: [UInt8], source: Lyrics.Source) -> Result<Lyrics, LyricsRefusal> {
        let bigEndian = bytes[0] == 0xFE
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        let text = String(decoding: units, as: UTF16.self)
        guard !text.utf8.contains(0) else { return .failure(.notText) }
        return parse(Array(text.utf8), source: source)
    }

    private struct ParsedLine {
        var times: [Int64] = []
        var offsetMilliseconds: Int64?
        var isTagLine = false
        var text = ""
    }

    /// One line: its leading `[…]` tags (times, the offset, ID tags), then its text without word times.
    private static func parseLine(_ line: ArraySlice<UInt8>) -> ParsedLine {
        var parsed = ParsedLine()
        var index = line.startIndex
        while index < line.endIndex, line[index] == UInt8(ascii: "[") {
            guard let close = line[index...].firstIndex(of: UInt8(ascii: "]")) else { break }
            let tag = line[(index + 1)..<close]
            if let time = time(tag) {
                if let time { parsed.times.append(time) }
            } else if let colon = tag.firstIndex(of: UInt8(ascii: ":")), colon > tag.startIndex, colon - tag.startIndex <= 6,
                      case let name = String(decoding: tag[..<colon].map { $0 | 0x20 }, as: UTF8.self), idTags.contains(name) {
                parsed.isTagLine = true
                if name == "offset" { parsed.offsetMilliseconds = integer(tag[(colon + 1)...]) }
            } else {
                break // not a tag: the text starts here
            }
            index = close + 1
        }
        parsed.text = textWithoutWordTimes(line[index...])
        return parsed
    }

    /// A time stamp `[-]m+:ss[.f+|:ff]` (or `h:mm:ss.ff`) in µs: nil when `tag` is no time; `.some(nil)` when it is
    /// one too large to count (its arithmetic overflows).
    public static func time(_ tag: ArraySlice<UInt8>) -> Int64?? {
        var digits = tag
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        var fields: [ArraySlice<UInt8>] = []
        var fraction: ArraySlice<UInt8>?
        var fieldStart = digits.startIndex
        for index in digits.indices {
            switch digits[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: ":") where fraction == nil:
                fields.append(digits[fieldStart..<index])
                fieldStart = index + 1
            case UInt8(ascii: ".") where fraction == nil:
                fields.append(digits[fieldStart..<index])
                fieldStart = index + 1
                fraction = digits[fieldStart...]
            default: return nil
            }
        }
        if fraction == nil { fields.append(digits[fieldStart...]) }
        // mm:ss, mm:ss.ff, mm:ss:ff (the last field a fraction), h:mm:ss.ff
        if fraction == nil, fields.count == 3 { fraction = fields.removeLast() }
        guard fields.count == 2 || fields.count == 3, fields.allSatisfy({ !$0.isEmpty }),
              fields.dropFirst().allSatisfy({ $0.count <= 2 }), fraction.map({ !$0.isEmpty }) ?? true else { return nil }
        var seconds: Int64 = 0
        for field in fields {
            guard field.count <= 12, let value = integer(field) else { return .some(nil) }
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 60)
            guard !overflow else { return .some(nil) }
            let (sum, overflowed) = scaled.addingReportingOverflow(value)
            guard !overflowed else { return .some(nil) }
            seconds = sum
        }
        var micro: Int64 = 0
        if let fraction {
            var scale: Int64 = 100_000
            for digit in fraction.prefix(6) {
                micro += Int64(digit - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return .some(nil) }
        let (total, overflowed) = whole.addingReportingOverflow(micro)
        guard !overflowed else { return .some(nil) }
        return .some(negative ? -total : total)
    }

    /// A decimal integer with an optional sign (nil when it is none, or too large).
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var text = bytes.drop(while: { $0 == UInt8(ascii: " ") })
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            text = text.dropFirst()
        }
        text = text.prefix(while: { $0 != UInt8(ascii: " ") })
        guard !text.isEmpty, text.count <= 15, text.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let value = text.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        return negative ? -value : value
    }

    /// The text with enhanced LRC's `<mm:ss.xx>` word times taken out, trimmed of spaces at both ends. Linear in
    /// the line's length: the next `>` is looked for once and kept until the scan passes it (a line of `<` with no
    /// `>` used to scan to its end from every `<`), and a word time ends at the next `<` (``time(_:)`` stops there).
    private static func textWithoutWordTimes(_ bytes: ArraySlice<UInt8>) -> String {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        var nextClose: Int? = bytes.startIndex - 1 // before the scan: not looked for yet
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "<") {
                if let known = nextClose, known <= index {
                    nextClose = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ">"))
                }
                if let close = nextClose, time(bytes[(index + 1)..<close]) != nil {
                    index = close + 1
                    continue
                }
            }
            kept.append(bytes[index])
            index += 1
        }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = kept.firstIndex(where: { !blank($0) }), let last = kept.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: kept[first...last], as: UTF8.self)
    }

    /// LRC's ID tags (a line of only these is no lyrics); other bracketed words (`[Chorus]`, `[Hook: Artist]`)
    /// are the lyrics' own text.
    static let idTags: Set<String> = ["ar", "al", "ti", "au", "by", "length", "offset", "re", "ve", "tool", "la", "lang", "#"]
}

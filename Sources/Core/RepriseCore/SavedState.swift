/// What survives a restart: the queue, the current entry and its position, and the settings.
/// Stored as a line-oriented text; every URI is escaped (``escaped(_:)``), so any URI round-trips.
public struct SavedState: Equatable, Sendable {
    public var uris: [String] = []
    /// The entries that play part of their medium (MPD's `rangeid`), by index into `uris`; saved as a `range START
    /// END` line (END `-`: to the end) after its entry.
    public var ranges: [Int: PlayRange] = [:]
    /// The entries' priorities other than 0, by index into `uris`; saved as a `priority N` line after its entry.
    public var priorities: [Int: Int] = [:]
    /// Repeat, single and consume: a `loop LOOPSTATUS` line, a `single on|oneshot` line when single is on but the
    /// loop status does not say so (stop after this song, a oneshot), a `consume on|oneshot` line (none when off).
    public var modes = PlayModes()
    /// Index into `uris` of the current entry.
    public var currentIndex: Int?
    public var positionMicroseconds: Int64 = 0
    public var shuffle = false
    public var volume = 1.0
    public var rate = 1.0
    /// Where long files were left (see ``ResumePositions``), oldest first.
    public var resumePositions: [ResumePositions.Mark] = []
    /// The current entry's tags and length as they were last known, so that a restarted service answers with them
    /// from its first reply instead of the file's name (the file is read again in the background; a difference is
    /// announced). Nil when there is no current entry or nothing was known of it.
    public var currentTags: TrackTags?
    public var currentLengthMicroseconds: Int64?
    /// Lines left out when reading or checking the state (not saved).
    public var skippedLines = 0

    public init() {}

    static let header = "reprise-state 4"

    /// Whether `text` is a whole state file as this version writes it: its header and its end line (a file cut by a
    /// crash mid-write, or left by an older version, is not).
    public static func isWhole(_ text: String) -> Bool {
        text.hasPrefix(header + "\n") && text.hasSuffix("end\n")
    }
    /// Files written before consume, single oneshot and priorities were kept (read, never written).
    static let headerVersion3 = "reprise-state 3"
    /// Files written before the current entry's tags were kept (read, never written).
    static let headerVersion2 = "reprise-state 2"
    /// Files written before URIs were escaped (read, never written).
    static let headerVersion1 = "reprise-state 1"


    public func encoded() -> String {
        var lines = [Self.header,
                     "loop \(modes.loopStatus.rawValue)",
                     "shuffle \(shuffle ? 1 : 0)",
                     "volume \(volume)",
                     "rate \(rate)",
                     "position \(positionMicroseconds)"]
        if modes.single != .off, modes.single != .on || modes.loopStatus != .track { lines.append("single \(modes.single.rawValue)") }
        if modes.consume != .off { lines.append("consume \(modes.consume.rawValue)") }
        if let currentIndex { lines.append("current \(currentIndex)") }
        if currentIndex != nil, let tags = currentTags {
            let texts: [(String, [String])] = [("title", tags.title.map { [$0] } ?? []), ("artist", tags.artists),
                                               ("album", tags.album.map { [$0] } ?? []), ("albumartist", tags.albumArtists),
                                               ("genre", tags.genres), ("tracknumber", tags.trackNumber.map { ["\($0)"] } ?? []),
                                               ("discnumber", tags.discNumber.map { ["\($0)"] } ?? [])]
            for (name, values) in texts { lines += values.map { "tag \(name) " + Self.escaped($0) } }
        }
        if currentIndex != nil, let length = currentLengthMicroseconds { lines.append("length \(length)") }
        for (index, uri) in uris.enumerated() {
            lines.append("entry " + Self.escaped(uri))
            if let range = ranges[index] { lines.append("range \(range.startMicroseconds) " + (range.endMicroseconds.map(String.init) ?? "-")) }
            if let priority = priorities[index] { lines.append("priority \(priority)") }
        }
        lines += resumePositions.map { "resume \($0.microseconds) \(Self.escaped($0.uri))" }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Bytes that never appear raw in a stored URI: controls, space, DEL, and the escape character itself.
    static func escaped(_ uri: String) -> String {
        guard uri.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else { return uri }
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in uri.utf8 {
            if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The inverse of ``escaped(_:)``; nil for a malformed escape or a raw byte that should have been escaped.
    static func unescaped(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte > 0x20, byte != 0x7F else { return nil }
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard rest.popFirst() == UInt8(ascii: "x"), let high = rest.popFirst().flatMap(hexDigit),
                  let low = rest.popFirst().flatMap(hexDigit) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Parses `text`. A missing header or end line (a truncated file) or a malformed setting is an error; an entry
    /// or resume line that cannot be read is left out (and counted in ``skippedLines``), never the whole queue.
    public static func decode(_ text: String) throws(StateError) -> SavedState {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let escapedURIs = [header, headerVersion3, headerVersion2].contains { lines.first == Substring($0) }
        guard escapedURIs || lines.first == Substring(headerVersion1) else { throw .malformed("missing header") }
        guard lines.last == "end" else { throw .malformed("truncated (no end line)") }
        func uri(_ text: Substring) -> String? {
            escapedURIs ? unescaped(text) : (text.unicodeScalars.allSatisfy { $0.value >= 0x20 } ? String(text) : nil)
        }
        var state = SavedState()
        var skippedEntries: [Int] = []
        var entryCount = 0
        for line in lines.dropFirst().dropLast() {
            let (key, value) = line.firstIndex(of: " ").map { (line[..<$0], String(line[line.index(after: $0)...])) }
                ?? (line, "")
            switch key {
            case "loop":
                guard let loop = LoopStatus(rawValue: value) else { throw .malformed("loop \(value)") }
                state.modes.setLoopStatus(loop)
            case "shuffle": state.shuffle = value == "1"
            case "consume":
                guard let consume = PlayModes.Consume(rawValue: value) else { throw .malformed("consume \(value)") }
                state.modes.consume = consume
            case "single":
                guard let single = SingleMode(rawValue: value) else { throw .malformed("single \(value)") }
                state.modes.single = single
            case "single-oneshot":
                // Written before single was a mode of its own: the song looped once more, then LOOP.
                guard let loop = LoopStatus(rawValue: value), loop != .track else { throw .malformed("single-oneshot \(value)") }
                state.modes.single = .oneshot
            case "volume":
                guard let volume = Double(value), volume.isFinite else { throw .malformed("volume \(value)") }
                state.volume = min(max(volume, 0), 1)
            case "rate":
                guard let rate = Double(value), rate.isFinite, rate > 0 else { throw .malformed("rate \(value)") }
                state.rate = rate
            case "position":
                guard let position = Int64(value), position >= 0 else { throw .malformed("position \(value)") }
                state.positionMicroseconds = position
            case "current":
                guard let index = Int(value), index >= 0 else { throw .malformed("current \(value)") }
                state.currentIndex = index
            case "resume":
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let position = Int64(parts[0]), position >= 0, let markURI = uri(parts[1]) else {
                    state.skippedLines += 1
                    continue
                }
                state.resumePositions.append(.init(uri: markURI, microseconds: position))
            case "tag":
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let text = unescaped(parts[1]), !text.isEmpty,
                      text.utf8.count <= 4 * TrackTags.maximumTextLength, state.addCurrentTag(String(parts[0]), text) else {
                    state.skippedLines += 1
                    continue
                }
            case "length":
                guard let length = Int64(value), length > 0 else {
                    state.skippedLines += 1
                    continue
                }
                state.currentLengthMicroseconds = length
            case "entry":
                defer { entryCount += 1 }
                guard !value.isEmpty, let entryURI = uri(Substring(value)) else {
                    skippedEntries.append(entryCount)
                    state.skippedLines += 1
                    continue
                }
                state.uris.append(entryURI)
            case "range":
                // The entry just read's: left out with it, or when it is not a range.
                let parts = value.split(separator: " ")
                guard skippedEntries.last != entryCount - 1, !state.uris.isEmpty, state.ranges[state.uris.count - 1] == nil,
                      parts.count == 2, let start = Int64(parts[0]),
                      let range = PlayRange(startMicroseconds: start, endMicroseconds: parts[1] == "-" ? nil : Int64(parts[1])),
                      parts[1] == "-" || range.endMicroseconds != nil else {
                    state.skippedLines += 1
                    continue
                }
                state.ranges[state.uris.count - 1] = range
            case "priority":
                // The entry just read's, as a range line: left out with it, or when it is no priority MPD allows.
                guard skippedEntries.last != entryCount - 1, !state.uris.isEmpty, state.priorities[state.uris.count - 1] == nil,
                      let priority = Int(value), (1...255).contains(priority) else {
                    state.skippedLines += 1
                    continue
                }
                state.priorities[state.uris.count - 1] = priority
            default:
                throw .malformed("unknown line '\(key)'")
            }
        }
        if let index = state.currentIndex, index >= entryCount { throw .malformed("current \(index) out of range") }
        if let index = state.currentIndex, !skippedEntries.isEmpty {
            state.currentIndex = skippedEntries.contains(index) ? nil : index - skippedEntries.filter { $0 < index }.count
            if state.currentIndex == nil { state.positionMicroseconds = 0 }
        }
        if state.currentIndex == nil {
            state.currentTags = nil
            state.currentLengthMicroseconds = nil
        }
        return state
    }

    /// Takes one `tag NAME VALUE` line of the current entry; false when it is none Reprise writes.
    private mutating func addCurrentTag(_ name: String, _ text: String) -> Bool {
        var tags = currentTags ?? TrackTags()
        switch name {
        case "title": tags.title = text
        case "album": tags.album = text
        case "artist", "albumartist", "genre":
            let list = name == "artist" ? tags.artists : name == "genre" ? tags.genres : tags.albumArtists
            guard list.count < TrackTags.maximumValueCount else { return false }
            if name == "artist" { tags.artists.append(text) } else if name == "genre" { tags.genres.append(text) } else { tags.albumArtists.append(text) }
        case "tracknumber", "discnumber":
            guard let number = Int(text), number > 0, number < 1_000_000 else { return false }
            if name == "tracknumber" { tags.trackNumber = number } else { tags.discNumber = number }
        default: return false
        }
        currentTags = tags
        return true
    }

    /// Keeps the entries `keep` accepts (the current one followed when it stays), and the resume marks it accepts.
    public func keepingOnly(_ keep: (String) -> Bool) -> SavedState {
        var kept = self
        kept.uris = []
        kept.ranges = [:]
        kept.currentIndex = nil
        for (index, uri) in uris.enumerated() where keep(uri) {
            if index == currentIndex { kept.currentIndex = kept.uris.count }
            if let range = ranges[index] { kept.ranges[kept.uris.count] = range }
            kept.uris.append(uri)
        }
        if kept.currentIndex == nil {
            kept.positionMicroseconds = 0
            kept.currentTags = nil
            kept.currentLengthMicroseconds = nil
        }
        kept.resumePositions = resumePositions.filter { keep($0.uri) }
        kept.skippedLines += uris.count - kept.uris.count
        return kept
    }
}

/// A state file that cannot be used.
public enum StateError: Error, Equatable, Sendable {
    case malformed(String)
}

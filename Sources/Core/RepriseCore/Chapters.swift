/// One chapter of a track: where it starts and what it is called.
public struct Chapter: Sendable, Equatable {
    public var title: String
    public var startMicroseconds: Int64

    public init(title: String, startMicroseconds: Int64) {
        self.title = title
        self.startMicroseconds = startMicroseconds
    }
}

/// A track's chapters in order of their starts, and moving between them.
public struct ChapterList: Sendable, Equatable {
    public let chapters: [Chapter]

    /// At most this many chapters are kept (a hostile file may claim millions).
    public static let maximumCount = 2_000
    /// Previous goes to the start of the current chapter when more than this far into it.
    public static let restartThreshold: Int64 = 3_000_000

    /// Sorts `chapters` by start, drops those starting at a negative time or at or beyond `length` (when known) and
    /// repeated starts, cuts titles to a desktop's measure and names untitled ones "Chapter N".
    public init(_ chapters: [Chapter], lengthMicroseconds: Int64? = nil) {
        var kept: [Chapter] = []
        for chapter in chapters.sorted(by: { $0.startMicroseconds < $1.startMicroseconds }) {
            guard chapter.startMicroseconds >= 0, lengthMicroseconds.map({ chapter.startMicroseconds < $0 }) ?? true,
                  kept.last?.startMicroseconds != chapter.startMicroseconds, kept.count < Self.maximumCount else { continue }
            kept.append(chapter)
        }
        self.chapters = kept.enumerated().map { index, chapter in
            let title = TrackTags(title: chapter.title).sanitized().title ?? "Chapter \(index + 1)"
            return Chapter(title: title, startMicroseconds: chapter.startMicroseconds)
        }
    }

    public static let empty = ChapterList([])

    public var isEmpty: Bool { chapters.isEmpty }
    public var count: Int { chapters.count }

    /// The chapter playing at `position`: the last one starting at or before it (nil before the first).
    public func index(at position: Int64) -> Int? {
        var low = 0, high = chapters.count
        while low < high {
            let middle = (low + high) / 2
            if chapters[middle].startMicroseconds <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Where chapter `index` ends: the next one's start, else the track's end (nil when unknown).
    public func end(of index: Int, lengthMicroseconds: Int64?) -> Int64? {
        index + 1 < chapters.count ? chapters[index + 1].startMicroseconds : lengthMicroseconds
    }

    /// Where "next chapter" goes from `position`: the next chapter's start, nil after the last.
    public func nextStart(after position: Int64) -> Int64? {
        let next = index(at: position).map { $0 + 1 } ?? 0
        return next < chapters.count ? chapters[next].startMicroseconds : nil
    }

    /// Where "previous chapter" goes from `position`: the current chapter's start when more than 3 s into it,
    /// else the previous chapter's start (the track's start before the first).
    public func previousStart(before position: Int64) -> Int64 {
        guard let current = index(at: position) else { return 0 }
        if position - chapters[current].startMicroseconds > Self.restartThreshold { return chapters[current].startMicroseconds }
        return current > 0 ? chapters[current - 1].startMicroseconds : 0
    }
}

/// Chapters written as Vorbis comments (Ogg Vorbis, Opus, FLAC): `CHAPTER001=00:01:02.500` and
/// `CHAPTER001NAME=Title`, numbered from 000 or 001.
public enum VorbisChapterComments {
    /// The chapters in `comments` ("KEY=value", as GStreamer's extended comments give them); empty when none.
    public static func chapters(in comments: [String]) -> [Chapter] {
        var starts: [Int: Int64] = [:], names: [Int: String] = [:]
        for comment in comments {
            guard let equals = comment.firstIndex(of: "=") else { continue }
            let key = comment[..<equals].uppercased(), value = String(comment[comment.index(after: equals)...])
            guard key.hasPrefix("CHAPTER") else { continue }
            var rest = key.dropFirst("CHAPTER".count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 4, let number = Int(digits) else { continue }
            rest = rest.dropFirst(digits.count)
            if rest.isEmpty, let start = timestamp(value) {
                starts[number] = start
            } else if rest == "NAME" {
                names[number] = value
            }
        }
        return starts.keys.sorted().map { Chapter(title: names[$0] ?? "", startMicroseconds: starts[$0]!) }
    }

    /// "HH:MM:SS.mmm" (hours and fraction optional) in microseconds.
    static func timestamp(_ text: String) -> Int64? {
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value >= 0, value.isFinite,
                  index == parts.count - 1 || part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            seconds = seconds * 60 + value
        }
        guard seconds < 1e9 else { return nil }
        return Int64(seconds * 1_000_000)
    }
}

/// Nero chapters (`moov/udta/chpl`) of an MP4/M4B file, which ffmpeg writes and GStreamer does not read.
public enum MP4Chapters {
    /// The chapters in the body of a `chpl` box: version (1 byte), flags (3), 4 reserved bytes in version 1, a
    /// count (1 byte), then per chapter a start in 100 ns units (8 bytes, big-endian), a title length (1 byte) and
    /// the title (UTF-8). Nil when the box is malformed.
    public static func chapters(inChplBody body: [UInt8]) -> [Chapter]? {
        guard body.count >= 5 else { return nil }
        var at = body[0] == 0 ? 4 : 8
        guard at < body.count else { return nil }
        let count = Int(body[at])
        at += 1
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard at + 9 <= body.count else { return nil }
            let start = body[at..<at + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let length = Int(body[at + 8])
            at += 9
            guard at + length <= body.count, start / 10 < UInt64(Int64.max) else { return nil }
            chapters.append(Chapter(title: String(decoding: body[at..<at + length], as: UTF8.self),
                                    startMicroseconds: Int64(start / 10)))
            at += length
        }
        return chapters
    }

    /// Finds `moov/udta/chpl` in the bytes of a `moov` box's body; its body, or nil.
    public static func chplBody(inMoovBody moov: [UInt8]) -> [UInt8]? {
        guard let udta = child("udta", in: moov[...]) else { return nil }
        return child("chpl", in: udta).map(Array.init)
    }

    /// The body of the first child box named `type` among the boxes in `bytes`.
    static func child(_ type: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let wanted = Array(type.utf8)
        var at = bytes.startIndex
        while at + 8 <= bytes.endIndex {
            var size = Int(bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            var header = 8
            if size == 1 {
                guard at + 16 <= bytes.endIndex else { return nil }
                let large = bytes[at + 8..<at + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else { return nil }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = bytes.endIndex - at
            }
            guard size >= header, size <= bytes.endIndex - at else { return nil } // no sum that can overflow
            if Array(bytes[at + 4..<at + 8]) == wanted { return bytes[at + header..<at + size] }
            at += size
        }
        return nil
    }
}

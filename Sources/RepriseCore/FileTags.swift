/// What a file's own tags and headers say, read without decoding it (TagLib's property map and audio properties;
/// ``init(properties:)`` maps the property map's keys, which TagLib unifies across ID3v2, Vorbis comments, MP4,
/// APE, ASF and RIFF INFO).
public struct FileTags: Sendable, Equatable {
    public var tags = TrackTags()
    /// The year of the DATE tag (its first four digits).
    public var year: Int?
    public var lengthMicroseconds: Int64?
    public var sampleRate: Int?
    public var channels: Int?
    public var bitrateKilobits: Int?
    /// Unsynchronised lyrics (ID3v2 USLT, Vorbis LYRICS/UNSYNCEDLYRICS, MP4 ©lyr), as the tag has them.
    public var lyrics: String?
    /// ReplayGain (or R128, converted) gains and peaks from the tags.
    public var loudness = LoudnessTags()

    public init() {}

    /// True when the file names neither a title, an artist nor an album: TagLib may have missed tags another reader
    /// finds (GStreamer's mp4mux writes MP4 items TagLib 1.13 does not see), so such a file goes to GStreamer too.
    public var namesNothing: Bool { tags.title == nil && tags.artists.isEmpty && tags.album == nil }

    /// The longest lyrics kept, in characters: a long opera libretto is ~100,000; beyond that a tag is abuse.
    public static let maximumLyricsLength = 200_000

    /// Maps a property map (key, value pairs in the tag's order; keys upper case as TagLib gives them).
    public init(properties: [(key: String, value: String)]) {
        var byKey: [String: [String]] = [:]
        for (key, value) in properties { byKey[key, default: []].append(value) }
        func values(_ key: String) -> [String] { byKey[key] ?? [] }
        func first(_ keys: String...) -> String? {
            for key in keys { if let value = byKey[key]?.first(where: { !$0.isEmpty }) { return value } }
            return nil
        }
        tags.title = first("TITLE")
        tags.artists = values("ARTIST").filter { !$0.isEmpty }
        tags.album = first("ALBUM")
        tags.albumArtists = values("ALBUMARTIST").filter { !$0.isEmpty }
        if tags.albumArtists.isEmpty { tags.albumArtists = values("ALBUM ARTIST").filter { !$0.isEmpty } }
        tags.genres = values("GENRE").filter { !$0.isEmpty }
        tags.composers = values("COMPOSER").filter { !$0.isEmpty }
        tags.comments = values("COMMENT").filter { !$0.isEmpty }
        tags.description = first("DESCRIPTION")
        tags.trackNumber = first("TRACKNUMBER").flatMap(Self.position)
        tags.discNumber = first("DISCNUMBER").flatMap(Self.position)
        if let date = first("DATE", "YEAR", "ORIGINALDATE") {
            tags.contentCreated = date
            year = Self.year(date)
        }
        if let text = first("LYRICS", "UNSYNCEDLYRICS") {
            lyrics = text.count > Self.maximumLyricsLength ? String(text.prefix(Self.maximumLyricsLength)) : text
        }
        loudness = LoudnessTags(
            trackGain: first("REPLAYGAIN_TRACK_GAIN").flatMap(LoudnessTags.decibels)
                ?? first("R128_TRACK_GAIN").flatMap(LoudnessTags.r128Gain),
            albumGain: first("REPLAYGAIN_ALBUM_GAIN").flatMap(LoudnessTags.decibels)
                ?? first("R128_ALBUM_GAIN").flatMap(LoudnessTags.r128Gain),
            trackPeak: first("REPLAYGAIN_TRACK_PEAK").flatMap(LoudnessTags.peak),
            albumPeak: first("REPLAYGAIN_ALBUM_PEAK").flatMap(LoudnessTags.peak))
        tags = tags.sanitized()
    }

    /// "3", "3/12", " 03 " → 3; nothing, zero, negative or absurd → nil.
    static func position(_ text: String) -> Int? {
        let head = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let number = Int(head.trimmingWhitespace()), number > 0, number <= 100_000 else { return nil }
        return number
    }

    /// The year a DATE tag starts with ("1999", "1999-05-02", "1999-05-02T10:00"); nil when it does not.
    public static func year(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace().prefix(4)
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let year = Int(digits), year > 0 else { return nil }
        return year
    }
}

/// Gains and peaks from a file's tags, in ReplayGain's terms: decibels to the ReplayGain reference (-18 LUFS, as
/// ReplayGain 2.0), peaks as a share of full scale. R128 tags (Opus: Q7.8 decibels to -23 LUFS) are converted.
public struct LoudnessTags: Sendable, Equatable {
    public var trackGain: Double?
    public var albumGain: Double?
    public var trackPeak: Double?
    public var albumPeak: Double?

    public init(trackGain: Double? = nil, albumGain: Double? = nil, trackPeak: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.albumGain = albumGain
        self.trackPeak = trackPeak
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { self == LoudnessTags() }

    /// The range a real gain lies in; anything outside is a broken tag, not a gain.
    static let gainRange: ClosedRange<Double> = -64...64

    /// "-6.48 dB", "+1.2", "-6,48 dB" → decibels; nil when not a number in ``gainRange``.
    static func decibels(_ text: String) -> Double? {
        var number = text.trimmingWhitespace().lowercased()
        if number.hasSuffix("db") { number = String(number.dropLast(2)).trimmingWhitespace() }
        if number.hasPrefix("+") { number.removeFirst() }
        number = String(number.map { $0 == "," ? "." : $0 })
        guard let value = Double(number), value.isFinite, gainRange.contains(value) else { return nil }
        return value
    }

    /// An R128 gain tag (RFC 7845: a Q7.8 integer, decibels to -23 LUFS) in ReplayGain's terms (5 dB louder).
    static func r128Gain(_ text: String) -> Double? {
        guard let steps = Int16(text.trimmingWhitespace()) else { return nil }
        return Double(steps) / 256 + 5
    }

    /// "0.988" → 0.988; nil when not a finite number in 0…16 (+24 dB over full scale is already absurd).
    static func peak(_ text: String) -> Double? {
        guard let value = Double(text.trimmingWhitespace()), value.isFinite, (0...16).contains(value) else { return nil }
        return value
    }
}

/// A picture embedded in a file's tags: its bytes and the media type the tag claims (trust the bytes: ``ImageKind``).
public struct EmbeddedPicture: Sendable, Equatable {
    public let bytes: [UInt8]
    public let mediaType: String

    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }
}

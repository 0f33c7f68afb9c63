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
    /// The codec, rate, channels and sample size, when the headers name a codec Reprise knows.
    public var encoding: AudioEncoding?
    /// Lyrics as the tag has them: ID3v2 SYLT (synchronised, as LRC text) first, else USLT, Vorbis
    /// LYRICS/UNSYNCEDLYRICS, MP4 ©lyr (which may hold LRC text too).
    public var lyrics: String?
    /// ReplayGain (or R128, converted) gains and peaks from the tags.
    public var loudness = LoudnessTags()
    /// How the artist, album artist and album sort (the first of each).
    public var sortNames = SortNames()
    /// Composer, performers, conductor, work, movement… in the order read.
    public var moreTags = MoreTags()

    public init() {}

    /// True when the file names neither a title, an artist nor an album.
    public var namesNothing: Bool { tags.title == nil && tags.artists.isEmpty && tags.album == nil }

    /// The containers whose tags TagLib may miss where GStreamer finds them: MP4 and QuickTime (GStreamer's
    /// mp4mux and qtmux write items TagLib 1.13 does not see).
    public static let containersWithTagsTagLibMayMiss: Set<String> = ["m4a", "m4b", "m4p", "m4r", "m4v", "mp4", "mov", "3gp", "3g2"]

    /// True when a second reader (GStreamer's) should look at the file too: it names nothing and is of a container
    /// whose tags TagLib may miss. An untagged FLAC, Ogg or MP3 is untagged for every reader; it keeps what TagLib
    /// read (its length, its audio properties).
    public func wantsAnotherReader(fileExtension: String) -> Bool {
        namesNothing && Self.containersWithTagsTagLibMayMiss.contains(fileExtension)
    }

    /// The longest lyrics kept, in characters: a long opera libretto is ~100,000; beyond that a tag is abuse.
    public static let maximumLyricsLength = 200_000

    /// Maps a property map (key, value pairs in the tag's order; keys upper case as TagLib gives them), in one pass
    /// (it runs for every file of a library pass): lists keep every non-empty value, single fields the first.
    /// `inFileOrder`: the pairs come in the order the file's reader lists them (a Vorbis comment's fields as they come,
    /// one tag's values perhaps between another's), which the tags keep (``TrackTags/tagOrder``).
    public init(properties: [(key: String, value: String)], inFileOrder: Bool = false) {
        var date: String?, fallbackDate: String?, lyricsText: String?, otherLyrics: String?, syncedLyrics: String?
        var otherAlbumArtists: [String] = []
        var track: String?, disc: String?, gains: [String: String] = [:]
        var artistIDs: [String] = [], albumArtistIDs: [String] = []
        func keep(_ field: inout String?, _ value: String?) { if field == nil { field = value } }
        var further = FurtherValues()
        /// The first value in `field`, the later ones (as MPD lists them) among the further values of `tag`.
        func keep(_ field: inout String?, _ value: String?, _ tag: TagOrder.Tag) {
            guard let value else { return }
            if field == nil { field = value } else { further.append(tag, value) }
        }
        var valuesInOrder: [TagOrder.Tag] = []
        for (key, value) in properties where !value.isEmpty {
            let moreTagName = MoreTags.Name(propertyKey: key)
            if inFileOrder, let tag = TagOrder.Tag(propertyKey: key, moreTagName: moreTagName) { valuesInOrder.append(tag) }
            if let moreTagName { moreTags.append(moreTagName, value) }
            switch key {
            case "TITLE": keep(&tags.title, value, .title)
            case "ARTIST": tags.artists.append(value)
            case "ALBUM": keep(&tags.album, value, .album)
            case "ALBUMARTIST": tags.albumArtists.append(value)
            case "ALBUM ARTIST": otherAlbumArtists.append(value)
            case "GENRE": tags.genres.append(value)
            case "ARTISTSORT": keep(&sortNames.artist, value, .artistSort)
            case "ALBUMARTISTSORT": keep(&sortNames.albumArtist, value, .albumArtistSort)
            case "ALBUMSORT": keep(&sortNames.album, value, .albumSort)
            case "COMPOSER": tags.composers.append(value)
            case "COMMENT": tags.comments.append(value)
            case "DESCRIPTION": keep(&tags.description, value)
            case "TRACKNUMBER": keep(&track, value, .track)
            case "DISCNUMBER": keep(&disc, value, .disc)
            case "DATE": keep(&date, value, .date)
            case "YEAR": keep(&fallbackDate, value) // ORIGINALDATE is a tag of its own (MoreTags), as MPD's
            case "SYNCEDLYRICS": keep(&syncedLyrics, value) // ID3v2 SYLT, as LRC text (the shim writes it)
            case "LYRICS": keep(&lyricsText, value)
            case "UNSYNCEDLYRICS", "USLT": keep(&otherLyrics, value) // USLT: ffmpeg writes its lyrics as TXXX:USLT
            case "MUSICBRAINZ_TRACKID": keep(&tags.musicBrainz.recording, MusicBrainzIDs.id(in: [value]), .musicBrainzTrack)
            case "MUSICBRAINZ_ALBUMID": keep(&tags.musicBrainz.release, MusicBrainzIDs.id(in: [value]), .musicBrainzAlbum)
            case "MUSICBRAINZ_RELEASETRACKID": keep(&tags.musicBrainz.releaseTrack, MusicBrainzIDs.id(in: [value]), .musicBrainzReleaseTrack)
            case "MUSICBRAINZ_ARTISTID": artistIDs.append(value)
            case "MUSICBRAINZ_ALBUMARTISTID": albumArtistIDs.append(value)
            case "REPLAYGAIN_TRACK_GAIN", "REPLAYGAIN_ALBUM_GAIN", "REPLAYGAIN_TRACK_PEAK", "REPLAYGAIN_ALBUM_PEAK",
                 "R128_TRACK_GAIN", "R128_ALBUM_GAIN":
                if gains[key] == nil { gains[key] = value }
            default: continue
            }
        }
        if tags.albumArtists.isEmpty { tags.albumArtists = otherAlbumArtists }
        if !artistIDs.isEmpty { tags.musicBrainz.artists = MusicBrainzIDs.ids(in: artistIDs.joined(separator: ";")) }
        if !albumArtistIDs.isEmpty { tags.musicBrainz.albumArtists = MusicBrainzIDs.ids(in: albumArtistIDs.joined(separator: ";")) }
        tags.trackNumber = track.flatMap(Self.position)
        tags.discNumber = disc.flatMap(Self.position)
        // A track or disc as MPD lists it: its number ("3/12" is 3); not a number is no value.
        for tag in [TagOrder.Tag.track, .disc] { further[tag] = further[tag].compactMap { Self.position($0).map(String.init) } }
        if let date = date ?? fallbackDate {
            tags.contentCreated = date
            year = Self.year(date)
        }
        if let text = syncedLyrics ?? lyricsText ?? otherLyrics {
            lyrics = text.utf8.count > Self.maximumLyricsLength && text.count > Self.maximumLyricsLength
                ? String(text.prefix(Self.maximumLyricsLength)) : text
        }
        if !gains.isEmpty {
            loudness = LoudnessTags(
                trackGain: gains["REPLAYGAIN_TRACK_GAIN"].flatMap(LoudnessTags.decibels)
                    ?? gains["R128_TRACK_GAIN"].flatMap(LoudnessTags.r128Gain),
                albumGain: gains["REPLAYGAIN_ALBUM_GAIN"].flatMap(LoudnessTags.decibels)
                    ?? gains["R128_ALBUM_GAIN"].flatMap(LoudnessTags.r128Gain),
                trackPeak: gains["REPLAYGAIN_TRACK_PEAK"].flatMap(LoudnessTags.peak),
                albumPeak: gains["REPLAYGAIN_ALBUM_PEAK"].flatMap(LoudnessTags.peak))
        }
        tags.tagOrder = TagOrder(valuesInFileOrder: valuesInOrder)
        tags.furtherValues = further
        tags = tags.sanitized()
        sortNames = sortNames.sanitized()
    }

    /// "3", "3/12", " 03 " → 3; nothing, zero, negative or absurd → nil.
    static func position(_ text: String) -> Int? {
        let head = text.utf8.firstIndex(of: UInt8(ascii: "/")).map { text[..<$0] } ?? text[...]
        guard let number = Int(head) ?? Int(head.trimmingWhitespace()), number > 0, number <= 100_000 else { return nil }
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

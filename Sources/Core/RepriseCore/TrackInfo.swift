/// Tags read from a stream. Strings are valid UTF-8 by construction (Swift `String`).
public struct TrackTags: Sendable, Hashable {
    public var title: String?
    public var artists: [String] = []
    public var album: String?
    public var albumArtists: [String] = []
    public var trackNumber: Int?
    public var discNumber: Int?
    public var genres: [String] = []
    public var composers: [String] = []
    public var comments: [String] = []
    public var contentCreated: String?
    /// A few sentences about the content (tags' DESCRIPTION).
    public var description: String?
    /// A live stream's station: its name and homepage (Shoutcast/Icecast `icy-name`, `icy-url`).
    public var station: String?
    public var stationURL: String?
    /// The recording's, release's and artists' MusicBrainz ids, when the file names them.
    public var musicBrainz = MusicBrainzIDs()
    /// How the artist, album artist and album sort, when the file says (MPD clients see them in the queue).
    public var sortNames = SortNames()
    /// Composer, performers, conductor, work, movement…, as read from the file (MPD clients see them in the queue).
    public var moreTags = MoreTags()
    /// The order the file has these tags in, where it is known (MPD clients see the queue's songs' tags in it).
    public var tagOrder = TagOrder()
    /// Values past the first of the tags kept with one value (title, album, date, track, disc, the station's name, the
    /// sort names, the single MusicBrainz ids), as the file has them or an MPD client gave them to a stream
    /// (`addtagid`): MPD clients see every value, MPRIS and the widgets the first.
    public var furtherValues = FurtherValues()

    public init(title: String? = nil, artists: [String] = [], album: String? = nil, albumArtists: [String] = [],
                trackNumber: Int? = nil, discNumber: Int? = nil, genres: [String] = [], composers: [String] = [],
                comments: [String] = [], contentCreated: String? = nil, description: String? = nil,
                station: String? = nil, stationURL: String? = nil) {
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtists = albumArtists
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.genres = genres
        self.composers = composers
        self.comments = comments
        self.contentCreated = contentCreated
        self.description = description
        self.station = station
        self.stationURL = stationURL
    }

    /// The longest text a tag keeps, in characters; longer ones are cut and end with "…".
    public static let maximumTextLength = 1_000
    /// The most values a list tag (artists, genres…) keeps.
    /// Far more than any real track has (a compilation's long list of artists), far fewer than a hostile file can.
    public static let maximumValueCount = 128

    /// These tags within the limits a desktop widget can show: texts cut to ``maximumTextLength``, lists to
    /// ``maximumValueCount`` values, empty texts dropped. Files can carry megabytes of tags; none of that
    /// reaches the bus. What is cut is told to `report` ("artists: 2000 values, 128 kept").
    public func sanitized(reportingCuts report: ((String) -> Void)? = nil) -> TrackTags {
        func text(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            // Counting characters walks grapheme clusters: needed only when the bytes could be too many.
            guard value.utf8.count > Self.maximumTextLength, value.count > Self.maximumTextLength else { return value }
            return String(value.prefix(Self.maximumTextLength - 1)) + "…"
        }
        func list(_ values: [String], _ name: String) -> [String] {
            if values.count > Self.maximumValueCount { report?("\(name): \(values.count) values, \(Self.maximumValueCount) kept") }
            if values.count <= Self.maximumValueCount, !values.contains(where: { $0.isEmpty || $0.utf8.count > Self.maximumTextLength }) {
                return values
            }
            return values.lazy.compactMap(text).prefix(Self.maximumValueCount).map { $0 }
        }
        var result = TrackTags(title: text(title), artists: list(artists, "artists"), album: text(album),
                               albumArtists: list(albumArtists, "album artists"), trackNumber: trackNumber, discNumber: discNumber,
                               genres: list(genres, "genres"), composers: list(composers, "composers"),
                               comments: list(comments, "comments"), contentCreated: text(contentCreated),
                               description: text(description), station: text(station), stationURL: text(stationURL))
        result.musicBrainz = musicBrainz // checked ids only (``MusicBrainzIDs/ids(in:)``)
        result.sortNames = sortNames.sanitized()
        result.moreTags = moreTags // cut as the tag reader cuts every value
        result.tagOrder = tagOrder
        for (tag, values) in furtherValues.values { result.furtherValues[tag] = list(values, "further \(tag.mpdName) values") }
        return result
    }

    /// Fields set in `newer` replace ours; fields it lacks keep their value.
    public func merged(with newer: TrackTags) -> TrackTags {
        var result = self
        if let v = newer.title { result.title = v }
        if !newer.artists.isEmpty { result.artists = newer.artists }
        if let v = newer.album { result.album = v }
        if !newer.albumArtists.isEmpty { result.albumArtists = newer.albumArtists }
        if let v = newer.trackNumber { result.trackNumber = v }
        if let v = newer.discNumber { result.discNumber = v }
        if !newer.genres.isEmpty { result.genres = newer.genres }
        if !newer.composers.isEmpty { result.composers = newer.composers }
        if !newer.comments.isEmpty { result.comments = newer.comments }
        if let v = newer.contentCreated { result.contentCreated = v }
        if let v = newer.description { result.description = v }
        if let v = newer.station { result.station = v }
        if let v = newer.stationURL { result.stationURL = v }
        result.musicBrainz = musicBrainz.merged(with: newer.musicBrainz)
        if newer.sortNames != SortNames() { result.sortNames = newer.sortNames }
        if !newer.moreTags.isEmpty { result.moreTags = newer.moreTags }
        if !newer.tagOrder.isEmpty { result.tagOrder = newer.tagOrder }
        for (tag, values) in newer.furtherValues.values { result.furtherValues[tag] = values }
        return result
    }
}

/// Everything the desktop is told about one queue entry.
public struct TrackInfo: Sendable, Equatable {
    /// Stable for the life of the queue entry.
    public let entryID: Int
    public let url: String
    public let title: String
    public let tags: TrackTags
    public let lengthMicroseconds: Int64?
    /// A `file://` URI of the cover picture, when one is known.
    public let artURL: String?
    /// A few words under the title (from the media's sidecar).
    public let subtitle: String?
    /// A few sentences about the media (from its sidecar, else its tags).
    public let description: String?
    /// The interstitial playing now, by its title ("" when it has none); nil when none is.
    public internal(set) var activeInterstitial: String?
    /// The ReplayGain applied to it now (nil: none, or it is not what plays).
    public internal(set) var replayGain: AppliedGain?
    /// The title of the chapter playing now (nil: no chapters, or it is not what plays).
    public internal(set) var chapter: String?
    /// The lyrics' text, without time stamps (nil: none found, or it is not what plays).
    public internal(set) var lyricsText: String?

    public init(entry: QueueEntry) {
        artURL = entry.artURL
        entryID = entry.id
        url = entry.uri
        tags = entry.tags
        lengthMicroseconds = entry.lengthMicroseconds
        title = entry.sidecar?.title ?? entry.tags.title ?? TrackInfo.fallbackTitle(for: entry.uri)
        subtitle = entry.sidecar?.subtitle
        description = entry.sidecar?.description ?? entry.tags.description
    }

    /// The file's name without its extension (percent-decoded; bytes that are not UTF-8 shown as "�"), or the
    /// URI itself for non-file URIs.
    public static func fallbackTitle(for uri: String) -> String {
        guard let name = MediaURI(uri)?.lastPathComponent.map(RawPath.displayed) else { return uri }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

import CGStreamer

/// The tags of a stream that Reprise uses, copied out of a GstTagList. Strings are valid UTF-8
/// (invalid bytes become U+FFFD).
public struct StreamTags: Sendable, Equatable {
    public var title: String?
    public var artists: [String] = []
    public var album: String?
    public var albumArtists: [String] = []
    public var trackNumber: Int?
    public var discNumber: Int?
    public var genres: [String] = []
    public var composers: [String] = []
    public var comments: [String] = []
    /// A few sentences about the content (the DESCRIPTION tag).
    public var description: String?
    /// ISO 8601 date or date-time, when the stream names one.
    public var date: String?
    /// The ORGANIZATION tag: a label, or a live stream's station name (its `icy-name` header).
    public var organization: String?
    /// Vorbis comments GStreamer has no tag for, as "KEY=value", of those that name chapters (`CHAPTERnnn…`).
    public var chapterComments: [String] = []
    /// The LOCATION tag: where it was recorded, or a live stream's homepage (its `icy-url` header).
    public var location: String?
    /// MusicBrainz ids as the stream's tags give them (unchecked): recording, release, release track, artists,
    /// album artists.
    public var musicBrainzRecording: [String] = []
    public var musicBrainzRelease: [String] = []
    public var musicBrainzReleaseTrack: [String] = []
    public var musicBrainzArtists: [String] = []
    public var musicBrainzAlbumArtists: [String] = []
    /// What the sound server's copy of these tags left out ("artist: 2000 values"), when it was cut; these are whole.
    public var cutForSoundServer: String?

    public init() {}

    init(_ list: UnsafeMutablePointer<GstTagList>) {
        title = Self.strings(list, "title").first
        artists = Self.strings(list, "artist")
        album = Self.strings(list, "album").first
        albumArtists = Self.strings(list, "album-artist")
        trackNumber = Self.number(list, "track-number")
        discNumber = Self.number(list, "album-disc-number")
        genres = Self.strings(list, "genre")
        composers = Self.strings(list, "composer")
        comments = Self.strings(list, "comment")
        description = Self.strings(list, "description").first
        date = Self.date(list)
        organization = Self.strings(list, "organization").first
        location = Self.strings(list, "location").first
        musicBrainzRecording = Self.strings(list, "musicbrainz-trackid")
        musicBrainzRelease = Self.strings(list, "musicbrainz-albumid")
        musicBrainzReleaseTrack = Self.strings(list, "musicbrainz-releasetrackid")
        musicBrainzArtists = Self.strings(list, "musicbrainz-artistid")
        musicBrainzAlbumArtists = Self.strings(list, "musicbrainz-albumartistid")
        chapterComments = Self.strings(list, "extended-comment").filter { $0.uppercased().hasPrefix("CHAPTER") }
    }

    /// True when no field is set.
    public var isEmpty: Bool { self == StreamTags() }

    private static func strings(_ list: UnsafeMutablePointer<GstTagList>, _ tag: String) -> [String] {
        let count = gst_tag_list_get_tag_size(list, tag)
        var values: [String] = []
        for index in 0..<count {
            var value: UnsafePointer<gchar>? = nil
            if gst_tag_list_peek_string_index(list, tag, index, &value) != 0, let value {
                let text = String(cString: value).trimmingNulls()
                if !text.isEmpty { values.append(text) }
            }
        }
        return values
    }

    private static func number(_ list: UnsafeMutablePointer<GstTagList>, _ tag: String) -> Int? {
        var value: guint = 0
        guard gst_tag_list_get_uint(list, tag, &value) != 0, value > 0, value <= Int32.max else { return nil }
        return Int(value)
    }

    private static func date(_ list: UnsafeMutablePointer<GstTagList>) -> String? {
        var dateTime: OpaquePointer? = nil
        if gst_tag_list_get_date_time(list, "datetime", &dateTime) != 0, let dateTime {
            defer { gst_date_time_unref(dateTime) }
            if let text = gst_date_time_to_iso8601_string(dateTime) {
                defer { g_free(text) }
                return String(cString: text)
            }
        }
        return nil
    }
}

extension String {
    func trimmingNulls() -> String {
        String(unicodeScalars.filter { $0 != "\0" })
    }
}

import CGStreamer
import RepriseCore

/// The tags of a stream that Reprise uses, copied out of a GstTagList. Strings are valid UTF-8
/// (invalid bytes become U+FFFD).
public struct StreamTags: Sendable, Equatable {
    /// The tags as the core keeps them: DATETIME as `contentCreated`, ORGANIZATION and LOCATION as a live stream's
    /// station and its homepage (its `icy-name` and `icy-url` headers), the well-formed MusicBrainz ids only.
    public var track = TrackTags()
    /// Vorbis comments GStreamer has no tag for, as "KEY=value", of those that name chapters (`CHAPTERnnn…`).
    public var chapterComments: [String] = []
    /// What the sound server's copy of these tags left out ("artist: 2000 values"), when it was cut; these are whole.
    public var cutForSoundServer: String?

    public init() {}

    init(_ list: UnsafeMutablePointer<GstTagList>) {
        func strings(_ tag: String) -> [String] { Self.strings(list, tag) }
        track = TrackTags(title: strings("title").first, artists: strings("artist"), album: strings("album").first,
                          albumArtists: strings("album-artist"), trackNumber: Self.number(list, "track-number"),
                          discNumber: Self.number(list, "album-disc-number"), genres: strings("genre"),
                          composers: strings("composer"), comments: strings("comment"), contentCreated: Self.date(list),
                          description: strings("description").first, station: strings("organization").first,
                          stationURL: strings("location").first)
        track.musicBrainz = MusicBrainzIDs(
            recording: MusicBrainzIDs.id(in: strings("musicbrainz-trackid")),
            release: MusicBrainzIDs.id(in: strings("musicbrainz-albumid")),
            releaseTrack: MusicBrainzIDs.id(in: strings("musicbrainz-releasetrackid")),
            artists: MusicBrainzIDs.ids(in: strings("musicbrainz-artistid").joined(separator: ";")),
            albumArtists: MusicBrainzIDs.ids(in: strings("musicbrainz-albumartistid").joined(separator: ";")))
        chapterComments = strings("extended-comment").filter { $0.uppercased().hasPrefix("CHAPTER") }
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

/// One listen as ListenBrainz takes it: who and what was heard, and when listening began. Radio listens carry the
/// stream title's artist and title and no length.
public struct Listen: Sendable, Equatable {
    public var artist: String
    public var title: String
    public var album: String?
    /// The track's length in milliseconds (nil: unknown, as on the radio); sent and kept in whole seconds.
    public var durationMilliseconds: Int64?
    public var trackNumber: Int?
    /// When listening began (Unix seconds, UTC).
    public var listenedAt: Int64
    /// The recording's, release's and artists' MusicBrainz ids, sent as ListenBrainz's `additional_info`.
    public var musicBrainz = MusicBrainzIDs()

    /// The same listen twice (a crash between sending and forgetting it, a queue file written twice): same start,
    /// artist and title. ListenBrainz and Maloja also drop such repeats.
    public struct Key: Hashable, Sendable {
        let listenedAt: Int64
        let artist: String
        let title: String
    }

    public var key: Key { Key(listenedAt: listenedAt, artist: artist, title: title) }

    /// ListenBrainz refuses a listen whose JSON is longer than this (bytes).
    public static let maximumEncodedLength = 10_240
    /// Listens before this (2002-10-01, ListenBrainz's lower bound) or far in the future are refused when read back.
    public static let earliestListenedAt: Int64 = 1_033_430_400
    public static let latestListenedAt: Int64 = 32_503_680_000 // year 3000

    /// The listen as a ListenBrainz payload item, naming the player that heard it.
    public func json(client: String, version: String) -> JSON {
        var info: [(String, JSON)] = [("media_player", .string(client)), ("media_player_version", .string(version)),
                                      ("submission_client", .string(client)), ("submission_client_version", .string(version))]
        // Whole seconds ("duration"): ListenBrainz takes it or duration_ms, Maloja only this one.
        if let durationMilliseconds { info.append(("duration", .integer((durationMilliseconds + 500) / 1000))) }
        if let trackNumber { info.append(("tracknumber", .integer(Int64(trackNumber)))) }
        if let id = musicBrainz.recording { info.append(("recording_mbid", .string(id))) }
        if let id = musicBrainz.release { info.append(("release_mbid", .string(id))) }
        if let id = musicBrainz.releaseTrack { info.append(("track_mbid", .string(id))) }
        if !musicBrainz.artists.isEmpty { info.append(("artist_mbids", .array(musicBrainz.artists.map { .string($0) }))) }
        var metadata: [(String, JSON)] = [("artist_name", .string(artist)), ("track_name", .string(title))]
        if let album { metadata.append(("release_name", .string(album))) }
        metadata.append(("additional_info", .object(info)))
        return .object([("listened_at", .integer(listenedAt)), ("track_metadata", .object(metadata))])
    }

}

extension Listen {
    /// A payload item read back (the queue file, which is hostile like any file): nil unless it has an artist, a
    /// title, a plausible time and sane numbers. Texts are limited as tags are.
    public init?(json value: JSONValue) {
        guard let at = value["listened_at"]?.number, at.rounded() == at,
              at >= Double(Self.earliestListenedAt), at <= Double(Self.latestListenedAt),
              let metadata = value["track_metadata"],
              let artist = metadata["artist_name"]?.string, let title = metadata["track_name"]?.string,
              !artist.isEmpty, !title.isEmpty,
              artist.utf8.count <= TrackTags.maximumTextLength * 4, title.utf8.count <= TrackTags.maximumTextLength * 4
        else { return nil }
        self.init(artist: artist, title: title, listenedAt: Int64(at))
        if let album = metadata["release_name"]?.string, !album.isEmpty, album.utf8.count <= TrackTags.maximumTextLength * 4 {
            self.album = album
        }
        let info = metadata["additional_info"]
        if let duration = info?["duration"]?.number, duration.rounded() == duration, duration > 0, duration < 1e9 {
            durationMilliseconds = Int64(duration) * 1000
        }
        if let number = info?["tracknumber"]?.number, number.rounded() == number, number > 0, number < 100_000 {
            trackNumber = Int(number)
        }
        func id(_ key: String) -> String? { info?[key]?.string.flatMap { MusicBrainzIDs.id(in: [$0]) } }
        let artistIDs = info?["artist_mbids"]?.array?.prefix(TrackTags.maximumValueCount).compactMap { $0.string } ?? []
        musicBrainz = MusicBrainzIDs(recording: id("recording_mbid"), release: id("release_mbid"), releaseTrack: id("track_mbid"),
                                     artists: MusicBrainzIDs.ids(in: artistIDs.joined(separator: ";")))
    }
}

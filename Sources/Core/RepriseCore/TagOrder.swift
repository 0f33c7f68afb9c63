/// The order a file has its tags in, as MPD lists a song's tags (it follows the file): each tag at the place of its
/// first value. Known where the file's own order is read — Vorbis comments (Ogg Vorbis, Opus, Speex, FLAC) — and for
/// the tags an MPD client gave a stream (in the order given); empty for other files (ID3v2, MP4: TagLib gives them by
/// key) and streams' own tags, which are listed in a fixed order.
public struct TagOrder: Sendable, Hashable {
    /// A tag MPD lists, by the name MPD gives it.
    public enum Tag: UInt8, Sendable, CaseIterable {
        case title, artist, artistSort, album, albumSort, albumArtist, albumArtistSort, track, disc, date, genre
        case originalDate, composer, composerSort, performer, conductor, work, movement, movementNumber, ensemble
        case location, grouping, label, musicBrainzWork
        case musicBrainzArtist, musicBrainzAlbum, musicBrainzAlbumArtist, musicBrainzTrack, musicBrainzReleaseTrack
        /// A stream's name (its station), as a client names it.
        case name

        /// The tag's name in MPD's protocol.
        public var mpdName: String { Self.mpdNames[Int(rawValue)] }

        private static let mpdNames = [
            "Title", "Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Track", "Disc",
            "Date", "Genre"] + [MoreTags.Name.originalDate, .composer, .composerSort, .performer, .conductor, .work,
                                .movement, .movementNumber, .ensemble, .location, .grouping, .label, .musicBrainzWork].map(\.rawValue)
            + ["MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_TRACKID",
               "MUSICBRAINZ_RELEASETRACKID", "Name"]

        /// The tag one of the further tags is (each has a case of the same MPD name).
        public init(_ name: MoreTags.Name) {
            self = TagOrder.byMPDName[name.rawValue]!
        }

        /// The further tag this is (``MoreTags``); nil for the others.
        public var moreTagName: MoreTags.Name? { MoreTags.Name(rawValue: mpdName) }

        /// The tag a file's property (TagLib's key, upper case) gives a value of, as ``FileTags`` reads them; nil for
        /// a property MPD lists no tag for.
        public init?(propertyKey key: String) {
            self.init(propertyKey: key, moreTagName: MoreTags.Name(propertyKey: key))
        }

        /// As ``init(propertyKey:)``, the key's further tag (``MoreTags/Name/init(propertyKey:)``) already looked up.
        public init?(propertyKey key: String, moreTagName: MoreTags.Name?) {
            if let moreTagName {
                self.init(moreTagName)
                return
            }
            guard let tag = Self.byPropertyKey[key] else { return nil }
            self = tag
        }

        private static let byPropertyKey: [String: Tag] = [
            "TITLE": .title, "ARTIST": .artist, "ARTISTSORT": .artistSort, "ALBUM": .album, "ALBUMSORT": .albumSort,
            "ALBUMARTIST": .albumArtist, "ALBUM ARTIST": .albumArtist, "ALBUMARTISTSORT": .albumArtistSort,
            "TRACKNUMBER": .track, "DISCNUMBER": .disc, "DATE": .date, "YEAR": .date, "GENRE": .genre,
            "MUSICBRAINZ_ARTISTID": .musicBrainzArtist, "MUSICBRAINZ_ALBUMID": .musicBrainzAlbum,
            "MUSICBRAINZ_ALBUMARTISTID": .musicBrainzAlbumArtist, "MUSICBRAINZ_TRACKID": .musicBrainzTrack,
            "MUSICBRAINZ_RELEASETRACKID": .musicBrainzReleaseTrack,
        ]
    }

    /// The tag MPD names `name` (spelled as MPD spells it); nil for any other name.
    public static func tag(mpdName name: String) -> Tag? { byMPDName[name] }

    /// The tags in the file's order, each once.
    public private(set) var tags: [Tag] = []

    public init() {}

    public init(_ tags: [Tag]) {
        for tag in tags { note(tag) }
    }

    public var isEmpty: Bool { tags.isEmpty }

    /// Takes `tag` out of the order (its values are gone; one given again is placed last).
    public mutating func remove(_ tag: Tag) { tags.removeAll { $0 == tag } }

    /// Places `tag` after those noted, unless it has its place already.
    public mutating func note(_ tag: Tag) {
        if !tags.contains(tag) { tags.append(tag) }
    }

    /// As the library's index keeps it: the tags' MPD names joined by commas; nil when there is no order.
    public var storedText: String? { isEmpty ? nil : tags.map(\.mpdName).joined(separator: ",") }

    /// Reads ``storedText``; a name that is not a tag's is left out (the index is input like any file).
    public init(storedText: String) {
        for name in storedText.split(separator: ",") {
            if let tag = Self.byMPDName[String(name)] { note(tag) }
        }
    }

    private static let byMPDName = Dictionary(uniqueKeysWithValues: Tag.allCases.map { ($0.mpdName, $0) })
}

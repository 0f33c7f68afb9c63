/// The order a file has its tags in, as MPD lists a song's tags (it follows its reader for the file): each tag at the
/// place of its first value, or, where a file interleaves one tag's values with another's, a place for each run of
/// them. Known where the tag reader gives the file's order — a Vorbis comment's fields as they come, other formats'
/// tags in the order mpd's reader for them lists them — and for the tags an MPD client gave a stream (in the order
/// given); empty for streams' own tags, which are listed in a fixed order.
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

    /// A place in the order: a tag and how many of its values come there. A tag's last place takes all its values
    /// left (its count is 0); a tag has more than one place only where the file interleaves its values with another
    /// tag's (`ARTIST`, `TITLE`, `ARTIST`), as MPD lists them.
    public struct Place: Sendable, Hashable {
        public var tag: Tag
        public var count: Int
    }

    /// The places in the file's order.
    public private(set) var places: [Place] = []

    /// The tags in the file's order, each once (at its first place).
    public var tags: [Tag] {
        var seen: UInt64 = 0
        return places.compactMap { place in
            defer { seen |= 1 << place.tag.rawValue }
            return seen & (1 << place.tag.rawValue) == 0 ? place.tag : nil
        }
    }

    public init() {}

    /// Each tag once, all its values at its place.
    public init(_ tags: [Tag]) {
        for tag in tags { note(tag) }
    }

    /// The order of a file whose values come as `values` (each value's tag, in the file's order): a run of one tag's
    /// values is a place; a tag's values split by another's have a place for each run.
    public init<Values: Sequence>(valuesInFileOrder values: Values) where Values.Element == Tag {
        for tag in values {
            if places.last?.tag == tag { places[places.count - 1].count += 1 } else { places.append(Place(tag: tag, count: 1)) }
        }
        closeLastPlaces()
    }

    /// Sets each tag's last place to take all its values left (count 0), so that equal orders compare equal.
    private mutating func closeLastPlaces() {
        var seen: UInt64 = 0
        for index in places.indices.reversed() where seen & (1 << places[index].tag.rawValue) == 0 {
            seen |= 1 << places[index].tag.rawValue
            places[index].count = 0
        }
    }

    public var isEmpty: Bool { places.isEmpty }

    /// Takes `tag` out of the order (its values are gone; one given again is placed last).
    public mutating func remove(_ tag: Tag) { places.removeAll { $0.tag == tag } }

    /// Places `tag` after those noted, unless it has its place already (all its values there).
    public mutating func note(_ tag: Tag) {
        if !places.contains(where: { $0.tag == tag }) { places.append(Place(tag: tag, count: 0)) }
    }

    /// As the library's index keeps it: the places joined by commas, each its tag's MPD name, and for a place that
    /// is not its tag's last, `*` and its count (`Artist*2,Title,Artist`); nil when there is no order.
    public var storedText: String? {
        isEmpty ? nil : places.map { $0.count > 0 ? "\($0.tag.mpdName)*\($0.count)" : $0.tag.mpdName }.joined(separator: ",")
    }

    /// Reads ``storedText``; a name that is not a tag's, a count that is not a positive number, and a place after
    /// its tag's last are left out (the index is input like any file).
    public init(storedText: String) {
        var closed: UInt64 = 0
        for entry in storedText.split(separator: ",") {
            let parts = entry.split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false)
            guard let tag = Self.byMPDName[String(parts[0])], closed & (1 << tag.rawValue) == 0 else { continue }
            if parts.count == 2 {
                guard let count = Int(parts[1]), count > 0, count <= Self.largestCount else { continue }
                places.append(Place(tag: tag, count: count))
            } else {
                closed |= 1 << tag.rawValue
                places.append(Place(tag: tag, count: 0))
            }
        }
        closeLastPlaces()
    }

    /// More values than any file's tag has at one place (the tag reader's bound on values is far below).
    static let largestCount = 1 << 20

    private static let byMPDName = Dictionary(uniqueKeysWithValues: Tag.allCases.map { ($0.mpdName, $0) })
}

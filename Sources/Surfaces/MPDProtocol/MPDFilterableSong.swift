import RepriseCore

/// A value of a song that a filter compares, by what MPD calls it (``init(tag:)``).
public enum MPDSongField: Sendable, CaseIterable {
    case artist, artistSort, album, albumSort, albumArtist, albumArtistSort, title, track, genre, date, disc, artistIDs, release,
         albumArtistIDs, recording, releaseTrack
    case originalDate, composer, composerSort, performer, conductor, work, movement, movementNumber, ensemble, location,
         grouping, label, workID
    case file

    /// The tag of ``MoreTags`` the field reads; nil for the others.
    var moreTagName: MoreTags.Name? {
        switch self {
        case .originalDate: .originalDate
        case .composer: .composer
        case .composerSort: .composerSort
        case .performer: .performer
        case .conductor: .conductor
        case .work: .work
        case .movement: .movement
        case .movementNumber: .movementNumber
        case .ensemble: .ensemble
        case .location: .location
        case .grouping: .grouping
        case .label: .label
        case .workID: .musicBrainzWork
        default: nil
        }
    }

    /// The order `any` looks in: the tags Reprise keeps (``MPDSongWriter/tagTypes``), then the name.
    static let anyOrder: [MPDSongField] = allCases

    /// The field a filter's tag name (lower case) reads; nil for a tag Reprise does not keep.
    init?(tag: String) {
        switch tag {
        case "artist": self = .artist
        case "artistsort": self = .artistSort
        case "albumartist": self = .albumArtist
        case "albumartistsort": self = .albumArtistSort
        case "album": self = .album
        case "albumsort": self = .albumSort
        case "title": self = .title
        case "genre": self = .genre
        case "date": self = .date
        case "track": self = .track
        case "disc": self = .disc
        case "musicbrainz_artistid": self = .artistIDs
        case "musicbrainz_albumartistid": self = .albumArtistIDs
        case "musicbrainz_trackid": self = .recording
        case "musicbrainz_albumid": self = .release
        case "musicbrainz_releasetrackid": self = .releaseTrack
        case "file": self = .file
        default:
            guard let field = MPDSongField.allCases.first(where: { $0.moreTagName?.rawValue.lowercased() == tag }) else { return nil }
            self = field
        }
    }
}

/// A song as filters read it: each value lent as UTF-8 for the comparison, so that a filter run over the whole
/// library need build nothing for the songs it does not match.
public protocol MPDFilterableSong {
    /// The song's file name as clients see it.
    var name: String { get }

    /// Lends each non-empty value of `field` to `body` until it returns true; whether it did. As MPD's, a field the
    /// song lacks falls back: the album artist to the artist, a sort name to what it sorts.
    func anyValue(_ field: MPDSongField, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool
}

/// A track and its name, as filters read them.
struct MPDNamedTrack: MPDFilterableSong {
    let name: String
    let track: LibraryTrack

    func anyValue(_ field: MPDSongField, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let ids = track.musicBrainz
        switch field {
        case .artistIDs: return ids.artists.contains { Self.lend($0, body) }
        case .genre: return track.genres.contains { Self.lend($0, body) }
        case .albumArtistIDs: return ids.albumArtists.contains { Self.lend($0, body) }
        default: break
        }
        if let name = field.moreTagName {
            return track.moreTags.entries.contains { $0.name == name && Self.lend($0.value, body) }
        }
        let sort = track.sortNames, further = track.furtherValues
        /// A one-valued field's value, then the file's later ones.
        func values(_ value: String?, _ tag: TagOrder.Tag) -> [String]? { value.map { [$0] + further[tag] } }
        let artists = track.artists, albums = values(track.album, .album) ?? []
        let albumArtists = values(track.albumArtist, .albumArtist) ?? artists
        let found: [String] = switch field {
        case .artist: artists
        case .artistSort: values(sort.artist, .artistSort) ?? artists
        case .albumSort: values(sort.album, .albumSort) ?? albums
        case .albumArtistSort:
            values(sort.albumArtist, .albumArtistSort) ?? (track.albumArtist != nil ? albumArtists : values(sort.artist, .artistSort) ?? artists)
        case .album: albums
        case .albumArtist: albumArtists
        case .title: values(track.title, .title) ?? []
        case .track: values(track.track.map(String.init), .track) ?? []
        case .date: values(track.date ?? track.year.map(String.init), .date) ?? []
        case .disc: values(track.disc.map(String.init), .disc) ?? []
        case .release: values(ids.release, .musicBrainzAlbum) ?? []
        case .recording: values(ids.recording, .musicBrainzTrack) ?? []
        case .releaseTrack: values(ids.releaseTrack, .musicBrainzReleaseTrack) ?? []
        case .file: [name]
        case .genre, .artistIDs, .albumArtistIDs: []
        case .originalDate, .composer, .composerSort, .performer, .conductor, .work, .movement, .movementNumber, .ensemble,
             .location, .grouping, .label, .workID: []
        }
        return found.contains { Self.lend($0, body) }
    }

    /// `body` over `text`'s UTF-8; false for an empty text (no value).
    static func lend(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard !text.isEmpty else { return false }
        var text = text
        return text.withUTF8(body)
    }
}

/// One indexed music file, as the library knows it.
public struct LibraryTrack: Sendable, Equatable {
    public var path: FilePath
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    /// Every genre the file names, in its order (MPD finds the song under each).
    public var genres: [String] = []
    /// The year its DATE tag starts with; ``date``: that tag as the file has it ("1958-03-21"), as MPD lists it.
    public var year: Int?
    public var date: String?
    public var disc: Int?
    public var track: Int?
    /// The file's second and later titles, albums, album artists, dates… (MPD clients see them; the rest of Reprise
    /// the first); for the artist, whose field joins every value, each value when there are several (``artists``).
    public var furtherValues = FurtherValues()
    public var lengthMicroseconds: Int64?
    /// A picture of the cover on disk (embedded, cached; or the folder's cover file), when there is one.
    public var cover: String?
    /// False while the file's disk is not there (kept, not deleted).
    public var available: Bool
    /// The index's id of the row: stable while the file is indexed (across restarts); nil when not from the index.
    public var id: Int64?
    /// Gains and peaks from the file's ReplayGain or R128 tags.
    public var loudness = LoudnessTags()
    /// The recording's, release's and artists' MusicBrainz ids from the file's tags.
    public var musicBrainz = MusicBrainzIDs()
    /// How the artist, album artist and album sort, when the file says.
    public var sortNames = SortNames()
    /// When the file last changed (as the index saw it) and how its audio is encoded.
    public var fileFacts = FileFacts()
    /// Composer, performers, conductor, work, movement… in the order read.
    public var moreTags = MoreTags()
    /// The order the file has its tags in, where it is known (MPD lists them so).
    public var tagOrder = TagOrder()
    /// The file's unsynchronised lyrics, when it has some: carried from the file to the index, which keeps them;
    /// listings and searches leave them out (nil).
    public var lyrics: String?

    public init(path: FilePath, title: String? = nil, artist: String? = nil, album: String? = nil, albumArtist: String? = nil,
                genre: String? = nil, year: Int? = nil, disc: Int? = nil, track: Int? = nil, lengthMicroseconds: Int64? = nil,
                cover: String? = nil, available: Bool = true, id: Int64? = nil) {
        self.path = path
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        genres = genre.map { [$0] } ?? []
        self.year = year
        self.disc = disc
        self.track = track
        self.lengthMicroseconds = lengthMicroseconds
        self.cover = cover
        self.available = available
        self.id = id
    }

    /// The first genre: what a view of one value shows.
    public var genre: String? { genres.first }

    /// The genres as one text, as the index keeps them: joined by the unit separator (U+001F), which a value's own
    /// separators become spaces in (a file's "Rock\u{1F}Folk" is one genre, as it was one value); nil for none.
    public var genresText: String? {
        get {
            guard !genres.isEmpty else { return nil }
            // By bytes: U+001F is a grapheme of its own, and this runs for every row a pass writes.
            return genres.map { $0.utf8.contains(0x1F) ? String($0.map { $0 == "\u{1F}" ? " " : $0 }) : $0 }
                .joined(separator: Self.valueSeparator)
        }
        set { genres = newValue.map(Self.genres(fromText:)) ?? [] }
    }

    /// The genres of a ``genresText``.
    public static func genres(fromText text: String) -> [String] {
        text.utf8.split(separator: 0x1F).map { String(decoding: $0, as: UTF8.self) }
    }

    public static let valueSeparator = "\u{1F}"

    /// Every artist the file names, as MPD lists them (``artist`` joins them for the rest of Reprise).
    public var artists: [String] {
        let several = furtherValues[.artist]
        return !several.isEmpty ? several : artist.map { [$0] } ?? []
    }

    /// Takes the file's artists (joined in ``artist``, each kept in the further values when several) and album
    /// artists (the first in ``albumArtist``, the others after it).
    public mutating func setArtists(_ artists: [String], albumArtists: [String]) {
        artist = artists.isEmpty ? nil : artists.joined(separator: ", ")
        albumArtist = albumArtists.first
        furtherValues[.artist] = artists.count > 1 ? artists : []
        furtherValues[.albumArtist] = Array(albumArtists.dropFirst())
    }

    /// Who the album is by: its album artist, else the track's artist.
    public var albumBy: String? { albumArtist ?? artist }

    /// The title shown: the tag, else the file name without its extension.
    public var displayTitle: String { title ?? TrackInfo.fallbackTitle(for: path.uri) }

    /// Album, disc, track and path order: how a selection plays.
    public static func playOrder(_ a: LibraryTrack, _ b: LibraryTrack) -> Bool {
        let left = ((a.album ?? "").lowercased(), a.disc ?? 0, a.track ?? 0, a.path)
        let right = ((b.album ?? "").lowercased(), b.disc ?? 0, b.track ?? 0, b.path)
        return left < right
    }
}

/// What a search found, grouped as people look for music: artists, albums, tracks.
public struct LibraryResults: Sendable, Equatable {
    public var artists: [String] = []
    /// (album, who it is by).
    public var albums: [LibraryAlbum] = []
    public var tracks: [LibraryTrack] = []

    public init(artists: [String] = [], albums: [LibraryAlbum] = [], tracks: [LibraryTrack] = []) {
        self.artists = artists
        self.albums = albums
        self.tracks = tracks
    }

    /// Groups matching `tracks` (already ranked): the artists and albums whose names `query` matches, in order of
    /// first appearance, and the tracks.
    public init(grouping tracks: [LibraryTrack], for query: LibraryQuery) {
        var seenArtists = Set<String>(), seenAlbums = Set<String>()
        for track in tracks {
            for name in [track.albumArtist, track.artist].compactMap({ $0 }) where query.matches(name) {
                if seenArtists.insert(LibraryQuery.folded(name)).inserted { artists.append(name) }
            }
            if let album = track.album, query.matches(album) || query.matches(album + " " + (track.albumBy ?? "")) {
                let key = LibraryQuery.folded(album) + "\u{0}" + LibraryQuery.folded(track.albumBy ?? "")
                if seenAlbums.insert(key).inserted { albums.append(LibraryAlbum(title: album, artist: track.albumBy, cover: track.cover)) }
            }
        }
        self.tracks = tracks
    }
}

/// An album of the library, identified by its title and who it is by.
public struct LibraryAlbum: Sendable, Equatable {
    public var title: String
    public var artist: String?
    public var cover: String?

    /// "ARTIST␟TITLE" (U+001F, which no tag holds; an unknown artist is empty): how Library1, search ids and
    /// MediaServer2 paths name one album.
    public var key: String { Self.key(title: title, artist: artist) }
    public static func key(title: String, artist: String?) -> String { (artist ?? "") + "\u{1F}" + title }

    /// The title and artist a key names; nil when `key` holds no separator.
    public static func parse(key: String) -> (title: String, artist: String?)? {
        guard let separator = key.firstIndex(of: "\u{1F}") else { return nil }
        let artist = String(key[..<separator])
        return (String(key[key.index(after: separator)...]), artist.isEmpty ? nil : artist)
    }

    public init(title: String, artist: String?, cover: String? = nil) {
        self.title = title
        self.artist = artist
        self.cover = cover
    }
}

/// What `reprise play --artist/--album/--genre` and the browse tree pick from the library.
extension LibraryTrack {
    /// What the queue shows for an indexed track: its tags, length and cover, as the index has them.
    public var knownDescription: KnownDescription {
        var tags = TrackTags(title: title, artists: artists, album: album,
                             albumArtists: albumArtist.map { [$0] + furtherValues[.albumArtist] } ?? [],
                             trackNumber: track, discNumber: disc, genres: genres, contentCreated: date ?? year.map(String.init))
        tags.musicBrainz = musicBrainz
        tags.sortNames = sortNames
        tags.moreTags = moreTags
        tags.tagOrder = tagOrder
        tags.furtherValues = furtherValues
        tags.furtherValues[.artist] = [] // the lists above hold them
        tags.furtherValues[.albumArtist] = []
        tags.composers = moreTags.values(of: .composer)
        var known = KnownDescription(tags: tags, lengthMicroseconds: lengthMicroseconds, artURL: cover.map(MediaURI.file(path:)))
        known.file = fileFacts
        return known
    }
}

/// What is already known of a medium (the library's index has read it): queued with this, it is not read again.
public struct KnownDescription: Sendable, Equatable {
    public var tags: TrackTags
    public var lengthMicroseconds: Int64?
    public var artURL: String?
    /// When the file last changed and how its audio is encoded.
    public var file: FileFacts?

    public init(tags: TrackTags, lengthMicroseconds: Int64?, artURL: String?) {
        self.tags = tags
        self.lengthMicroseconds = lengthMicroseconds
        self.artURL = artURL
    }
}

public enum LibrarySelector: Sendable, Equatable {
    case artist(String), album(String), genre(String), folder(FilePath), search(LibraryQuery)
    /// One album: its title and who it is by (album artist, else artist; nil: nobody), names compared without case.
    /// Two artists' albums of one title are two albums.
    case albumBy(title: String, artist: String?)
    /// The track indexed at this path (nothing when the index has no such row).
    case track(path: FilePath)
    /// The track of this index id (``LibraryTrack/id``), available or not.
    case trackID(Int64)
    /// Every available track.
    case all
}

/// The lists the library can name.
public enum LibraryNameKind: String, Sendable {
    case artists, albums, genres
}

/// How big the library is.
public struct LibraryCounts: Sendable, Equatable {
    public var tracks = 0
    public var unavailable = 0
    public var albums = 0
    public var artists = 0

    public init(tracks: Int = 0, unavailable: Int = 0, albums: Int = 0, artists: Int = 0) {
        self.tracks = tracks
        self.unavailable = unavailable
        self.albums = albums
        self.artists = artists
    }
}

import RepriseCore

/// A library held in memory that answers at once: what the adaptors see of the service's index, for tests that
/// need no worker thread and no database.
public final class MemoryLibrary: LibraryAccess {
    public var tracks: [LibraryTrack] {
        didSet { rebuild() }
    }
    public var status = LibraryStatus()
    /// The outline as the service's loop reads it; each read is counted in ``outlineReads``.
    public var outline: LibraryOutline {
        outlineReads += 1
        return builtOutline
    }
    private var builtOutline = LibraryOutline()
    /// How often ``outline`` was read.
    public private(set) var outlineReads = 0
    /// When true, ``onWorker(_:then:)`` keeps its work in ``heldWork`` until ``runHeldWork()``, as a worker thread
    /// would answer later: a test can see what a caller does before its work runs.
    public var holdsWork = false
    public private(set) var heldWork: [() -> Void] = []
    public let feed: ChangeFeed
    public private(set) var rescans = 0
    /// Playlist files' entries, by the playlist's path (what reading the file would give).
    public var playlistEntries: [String: [String]] = [:]

    public init(tracks: [LibraryTrack], folders: [String] = [], feed: ChangeFeed = ChangeFeed()) {
        self.tracks = tracks
        self.feed = feed
        status.folders = folders
        rebuild()
    }

    private func rebuild() {
        var outline = LibraryOutline()
        outline.roots = status.folders
        for track in tracks where track.available {
            outline.add(artist: track.albumBy, album: track.album, genres: track.genres, count: 1)
        }
        var folders: [String: Int] = [:]
        for track in tracks where track.available { folders[track.path.folder.escaped, default: 0] += 1 }
        for (folder, count) in folders.sorted(by: { $0.key < $1.key }) { outline.addFolder(folder, tracks: count) }
        builtOutline = outline
        status.counts.tracks = tracks.count
        status.counts.unavailable = tracks.count { !$0.available }
        status.counts.albums = Set(tracks.compactMap { track in track.album.map { LibraryAlbum.key(title: $0, artist: track.albumBy) } }).count
        status.counts.artists = Set(tracks.compactMap(\.albumBy)).count
        status.contentVersion += 1
        status.contentChanged = 1_700_000_000 + Int64(status.contentVersion)
        feed.publish(.library)
    }

    public func search(_ query: LibraryQuery, limit: Int, then: @escaping (LibraryResults) -> Void) {
        let found = tracks.filter { track in
            track.available && query.matches([track.displayTitle, track.artist, track.album, track.albumArtist, track.genre]
                .compactMap { $0 }.joined(separator: " "))
        }
        then(LibraryResults(grouping: Array(found.prefix(limit)), for: query))
    }

    public func currentTracks(at paths: [FilePath], then: @escaping ([FilePath: LibraryTrack]) -> Void) {
        let wanted = Set(paths)
        then(Dictionary(tracks.filter { $0.available && wanted.contains($0.path) }.map { ($0.path, $0) }) { first, _ in first })
    }

    public func tracks(_ selector: LibrarySelector, then: @escaping ([LibraryTrack]) -> Void) {
        then(tracks.filter { Self.track($0, isIn: selector) })
    }

    public func withTracks<Result: Sendable>(_ selector: LibrarySelector, matching query: MediaQuery,
                                             _ body: @escaping @Sendable ([LibraryTrack]) -> Result, then: @escaping (Result) -> Void) {
        let found = tracks.filter { Self.track($0, isIn: selector) && query.matches($0.mediaProperties) }
        onWorker({ body(found) }, then: then)
    }

    public func withTracks<Result: Sendable>(_ selector: LibrarySelector, _ body: @escaping @Sendable ([LibraryTrack]) -> Result,
                                             then: @escaping (Result) -> Void) {
        let found = tracks.filter { Self.track($0, isIn: selector) }
        onWorker({ body(found) }, then: then)
    }

    public func onWorker<Result: Sendable>(_ body: @escaping @Sendable () -> Result, then: @escaping (Result) -> Void) {
        guard holdsWork else { return then(body()) }
        heldWork.append { then(body()) }
    }

    /// Runs the work ``holdsWork`` kept, in order (and any it adds).
    public func runHeldWork() {
        while !heldWork.isEmpty { heldWork.removeFirst()() }
    }

    public func names(_ kind: LibraryNameKind, then: @escaping ([String]) -> Void) {
        let available = tracks.filter(\.available)
        let names: [String?] = switch kind {
        case .artists: available.map(\.albumBy)
        case .albums: available.map(\.album)
        case .genres: available.map(\.genre)
        }
        then(Set(names.compactMap { $0 }).sorted())
    }

    public func albums(titled title: String, then: @escaping ([LibraryAlbum]) -> Void) {
        var seen = Set<String>(), albums: [LibraryAlbum] = []
        for track in tracks where track.available {
            guard let album = track.album, title.isEmpty || album.lowercased() == title.lowercased() else { continue }
            let value = LibraryAlbum(title: album, artist: track.albumBy)
            if seen.insert(value.key).inserted { albums.append(value) }
        }
        then(albums.sorted { $0.key < $1.key })
    }

    public func entries(of playlist: PlaylistInfo, then: @escaping ([PlaylistEntry]) -> Void) {
        then((playlistEntries[playlist.path] ?? []).map { uri in
            PlaylistEntry(uri: uri, track: tracks.first { $0.path.uri == uri })
        })
    }

    public func rescan() { rescans += 1 }

    private static func track(_ track: LibraryTrack, isIn selector: LibrarySelector) -> Bool {
        func same(_ a: String?, _ b: String?) -> Bool { a?.lowercased() == b?.lowercased() }
        switch selector {
        case .artist(let name): return track.available && (same(track.artist, name) || same(track.albumArtist, name))
        case .album(let title): return track.available && same(track.album, title)
        case .albumBy(let title, let artist): return track.available && same(track.album, title) && same(track.albumBy, artist)
        case .genre(let genre): return track.available && same(track.genre, genre)
        case .folder(let folder): return track.available && track.path.isInside(folder) && track.path != folder
        case .search(let query): return track.available && query.matches(track.displayTitle)
        case .track(let path): return track.path == path
        case .trackID(let id): return track.id == id
        case .all: return track.available
        }
    }
}

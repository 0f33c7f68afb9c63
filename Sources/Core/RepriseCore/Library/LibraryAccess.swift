/// Where the library stands.
public struct LibraryStatus: Sendable, Equatable {
    public var counts = LibraryCounts()
    /// The music folders indexed.
    public var folders: [String] = []
    public var scanning = false
    /// Files looked at and files in the pass under way.
    public var scanned = 0
    public var total = 0
    /// Why there is no library (the database could not be opened), or nil.
    public var problem: String?
    /// Tracks without ReplayGain tags whose loudness was measured, and those waiting to be.
    public var loudnessMeasured = 0
    public var loudnessWaiting = 0
    /// Whether loudness is being measured now.
    public var measuring = false
    /// Counts the changes of what the index holds (a pass ended, files changed on disk), and when the last one was
    /// (seconds since 1970; nil before the first pass ended): not a pass's progress, not measured loudness.
    public var contentVersion = 0
    public var contentChanged: Int64?

    public init() {}
}

/// The music library as the adaptors see it (the service's index on its worker thread): answers come back on the
/// event loop, later.
public protocol LibraryAccess: AnyObject {
    var status: LibraryStatus { get }
    /// Names and counts for browsing, as of the last scan or change.
    var outline: LibraryOutline { get }
    /// Where it publishes ``ChangeAspects/library`` when ``status`` or ``outline`` changed (a scan began,
    /// progressed a step, or ended) and ``ChangeAspects/measurements`` when it stored measured loudness.
    var feed: ChangeFeed { get }
    func search(_ query: LibraryQuery, limit: Int, then: @escaping (LibraryResults) -> Void)
    func tracks(_ selector: LibrarySelector, then: @escaping ([LibraryTrack]) -> Void)
    /// The index's tracks for those of `paths` it has as the files are now (same size and modification time).
    func currentTracks(at paths: [FilePath], then: @escaping ([FilePath: LibraryTrack]) -> Void)
    /// `body` run, where the index is read, over the tracks of `selector` that `query` matches (narrowed in SQL, then
    /// tested one by one there: a search over every track); its result comes back on the loop.
    func withTracks<Result: Sendable>(_ selector: LibrarySelector, matching query: MediaQuery,
                                      _ body: @escaping @Sendable ([LibraryTrack]) -> Result, then: @escaping (Result) -> Void)
    func names(_ kind: LibraryNameKind, then: @escaping ([String]) -> Void)
    /// `body` run over the tracks of `selector` where the index is read (work that grows with the library stays off
    /// the loop); its result comes back on the loop.
    func withTracks<Result: Sendable>(_ selector: LibrarySelector, _ body: @escaping @Sendable ([LibraryTrack]) -> Result,
                                      then: @escaping (Result) -> Void)
    /// `body` run where the index is read (after what was asked before), its result back on the loop: work over
    /// what an adaptor keeps of the library, off the loop.
    func onWorker<Result: Sendable>(_ body: @escaping @Sendable () -> Result, then: @escaping (Result) -> Void)
    /// The albums titled `title` (without case; empty: all), each with who it is by.
    func albums(titled title: String, then: @escaping ([LibraryAlbum]) -> Void)
    /// The entries of a playlist file (read off the loop), with the index's tracks for the files it knows.
    func entries(of playlist: PlaylistInfo, then: @escaping ([PlaylistEntry]) -> Void)
    /// Looks at every folder again (only changed files are read).
    func rescan()
}

/// The shape of the library for browsing without asking the index: names and how many tracks each holds
/// (available tracks only). Kept on the loop, refreshed after every scan or change.
public struct LibraryOutline: Sendable, Equatable {
    /// Artist (album artist, else artist) → album → tracks.
    public var artists: [String: [String: Int]] = [:]
    /// Album (``LibraryAlbum/key``: who it is by and its title) → tracks.
    public private(set) var albums: [String: Int] = [:]
    /// Title (lower case) → how many albums have it.
    private var albumsTitled: [String: Int] = [:]
    /// Genre → tracks.
    public var genres: [String: Int] = [:]
    /// Folder (absolute path) → tracks directly in it (added with ``addFolder(_:tracks:)``).
    public private(set) var folders: [String: Int] = [:]
    /// Folder → the names of the folders directly in it that hold music (in them or below): every ancestor of a
    /// folder with music, kept as folders are added so that listing a folder never looks at every other one.
    private var subfolderNames: [String: Set<String>] = [:]
    /// The music folders indexed (the tree's top folders).
    public var roots: [String] = []

    public init() {}

    /// Adds `count` tracks of `artist`'s `album` of `genres` (each may be unknown; a track counts under each of its
    /// genres).
    public mutating func add(artist: String?, album: String?, genres: [String], count: Int) {
        if let artist { artists[artist, default: [:]][album ?? "", default: 0] += count }
        if let album {
            let key = LibraryAlbum.key(title: album, artist: artist)
            if albums[key] == nil { albumsTitled[album.lowercased(), default: 0] += 1 }
            albums[key, default: 0] += count
        }
        for genre in genres { self.genres[genre, default: 0] += count }
    }

    /// Records `tracks` tracks directly in `folder` (an absolute path); linear in the path's length.
    public mutating func addFolder(_ folder: String, tracks: Int) {
        folders[folder, default: 0] += tracks
        var path = Substring(folder)
        while let slash = path.lastIndex(of: "/"), slash != path.startIndex || path.count > 1 {
            let parent = slash == path.startIndex ? "/" : String(path[..<slash])
            let name = String(path[path.index(after: slash)...])
            guard subfolderNames[parent, default: []].insert(name).inserted else { break } // its ancestors are known
            path = Substring(parent)
            if parent == "/" { break }
        }
    }

    /// The folders directly inside `folder` that hold music (in them or below), by name.
    public func subfolders(of folder: String) -> [String] { Self.sorted(subfolderNames[folder] ?? []) }

    /// Whether `folder` is a root or lies under one and holds music.
    public func hasFolder(_ folder: String) -> Bool {
        roots.contains(folder) || folders[folder] != nil || subfolderNames[folder] != nil
    }

    /// The name to show for the album `key`: its title, and who it is by when another album has the same title.
    public func albumName(_ key: String) -> String {
        guard let album = LibraryAlbum.parse(key: key) else { return key }
        return albumsTitled[album.title.lowercased(), default: 0] > 1 ? album.title + " — " + (album.artist ?? "Unknown artist") : album.title
    }

    /// The album keys in title order, then artist, with their names (``albumName(_:)``).
    public func albumsForDisplay() -> [(key: String, name: String)] {
        albums.keys.compactMap { key in LibraryAlbum.parse(key: key).map { (key, $0.title, $0.artist ?? "") } }
            .sorted { ($0.1.lowercased(), $0.1, $0.2) < ($1.1.lowercased(), $1.1, $1.2) }
            .map { ($0.0, albumName($0.0)) }
    }

    /// Names sorted as people read them (case-insensitive).
    public static func sorted(_ names: some Sequence<String>) -> [String] {
        names.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }
}

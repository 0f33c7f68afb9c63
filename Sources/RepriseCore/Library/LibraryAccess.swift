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

    public init() {}
}

/// The music library as the adaptors see it (the service's index on its worker thread): answers come back on the
/// event loop, later.
public protocol LibraryAccess: AnyObject {
    var status: LibraryStatus { get }
    /// Names and counts for browsing, as of the last scan or change.
    var outline: LibraryOutline { get }
    /// Told on the loop when ``status`` changed (a scan began, progressed a step, or ended).
    var onChange: (() -> Void)? { get set }
    func search(_ query: LibraryQuery, limit: Int, then: @escaping (LibraryResults) -> Void)
    func tracks(_ selector: LibrarySelector, then: @escaping ([LibraryTrack]) -> Void)
    /// The tracks of `selector` that `query` matches (tested on the worker: a search over every track).
    func tracks(_ selector: LibrarySelector, matching query: MediaQuery, then: @escaping ([LibraryTrack]) -> Void)
    func names(_ kind: LibraryNameKind, then: @escaping ([String]) -> Void)
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
    /// Album → tracks.
    public var albums: [String: Int] = [:]
    /// Genre → tracks.
    public var genres: [String: Int] = [:]
    /// Folder (absolute path) → tracks directly in it.
    public var folders: [String: Int] = [:]
    /// The music folders indexed (the tree's top folders).
    public var roots: [String] = []

    public init() {}

    /// Adds `count` tracks of `artist`'s `album` of `genre` (each may be unknown).
    public mutating func add(artist: String?, album: String?, genre: String?, count: Int) {
        if let artist { artists[artist, default: [:]][album ?? "", default: 0] += count }
        if let album { albums[album, default: 0] += count }
        if let genre { genres[genre, default: 0] += count }
    }

    /// The folders directly inside `folder` that hold music (in them or below), by name.
    public func subfolders(of folder: String) -> [String] {
        var names = Set<String>()
        for path in folders.keys where path.hasPrefix(folder + "/") {
            let rest = path.dropFirst(folder.count + 1)
            names.insert(String(rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]))
        }
        return Self.sorted(names)
    }

    /// Whether `folder` is a root or lies under one and holds music.
    public func hasFolder(_ folder: String) -> Bool {
        roots.contains(folder) || folders[folder] != nil || folders.keys.contains { $0.hasPrefix(folder + "/") }
    }

    /// Names sorted as people read them (case-insensitive).
    public static func sorted(_ names: some Sequence<String>) -> [String] {
        names.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }
}

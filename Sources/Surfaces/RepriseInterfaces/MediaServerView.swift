import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// What the MediaServer2 tree shows at one moment, as a value: the library's outline, the playlists and the items
/// listed lately. Resolving paths, describing objects and walking containers are pure functions of it, so a listing
/// or a search over a large library is made on a worker, never on the loop. (``MediaServerTree`` makes one per call.)
struct MediaServerView: Sendable {
    typealias Node = MediaServerTree.Node
    static let root = MediaServerTree.root
    static let objectInterface = MediaServerTree.objectInterface
    static let containerInterface = MediaServerTree.containerInterface
    static let itemInterface = MediaServerTree.itemInterface

    let outline: LibraryOutline
    /// The playlist files, as ``PlaylistLibrary`` lists them.
    let playlists: [PlaylistInfo]
    /// Items listed lately, by their object path.
    var items: [String: PlaylistEntry]

    func node(at path: String) -> Node? {
        guard path == Self.root || path.hasPrefix(Self.root + "/") else { return nil }
        let parts = path.dropFirst(Self.root.count).split(separator: "/")
        guard let first = parts.first else { return .root }
        if MediaServerTree.itemDepths[first] == parts.count { return items[path] != nil ? .item : nil }
        let names = parts.dropFirst().map(MediaServerTree.decode)
        guard !names.contains(where: { $0 == nil }) else { return nil }
        let n = names.compactMap { $0 }
        switch (first, n.count) {
        case ("Artists", 0): return .artists
        case ("Artists", 1): return outline.artists[n[0]] != nil ? .artist(n[0]) : nil
        case ("Artists", 2): return outline.artists[n[0]]?[n[1]] != nil ? .artistAlbum(n[0], n[1]) : nil
        case ("Albums", 0): return .albums
        case ("Albums", 1): return outline.albums[n[0]] != nil ? .album(n[0]) : nil
        case ("Genres", 0): return .genres
        case ("Genres", 1): return outline.genres[n[0]] != nil ? .genre(n[0]) : nil
        case ("Folders", 0): return .folders
        case ("Folders", 1): return n[0].hasPrefix("/") && outline.hasFolder(n[0]) ? .folder(n[0]) : nil
        case ("Playlists", 0): return .playlists
        case ("Playlists", 1): return playlists.first { $0.id == n[0] }.map { .playlist($0) }
        default: return nil
        }
    }

    // MARK: Properties

    func containerChildren(_ node: Node) -> [(name: String, path: String, count: Int, isContainer: Bool)]? {
        switch node {
        case .root:
            return [("Artists", Self.root + "/Artists", outline.artists.count, true),
                    ("Albums", Self.root + "/Albums", outline.albums.count, true),
                    ("Genres", Self.root + "/Genres", outline.genres.count, true),
                    ("Folders", Self.root + "/Folders", outline.roots.count, true),
                    ("Playlists", Self.root + "/Playlists", playlists.count, true)]
        case .playlists:
            return PlaylistLibrary.sortedByName(playlists).map { ($0.name, Self.root + "/Playlists/" + MediaServerTree.encode($0.id), $0.entryCount, true) }
        case .folders:
            return outline.roots.map { ($0, Self.root + "/Folders/" + MediaServerTree.encode($0), 0, true) }
        case .folder(let folder):
            // Its subfolders here; its own tracks are listed from the index after them (see list).
            return outline.subfolders(of: folder).map { ($0, Self.root + "/Folders/" + MediaServerTree.encode(folder + "/" + $0), 0, true) }
        case .artists:
            return LibraryOutline.sorted(outline.artists.keys).map {
                ($0, Self.root + "/Artists/" + MediaServerTree.encode($0), outline.artists[$0]?.count ?? 0, true)
            }
        case .artist(let artist):
            let albums = outline.artists[artist] ?? [:]
            return LibraryOutline.sorted(albums.keys).map {
                ($0.isEmpty ? "Other" : $0, Self.root + "/Artists/" + MediaServerTree.encode(artist) + "/" + MediaServerTree.encode($0), albums[$0] ?? 0, true)
            }
        case .albums:
            return outline.albumsForDisplay().map { ($0.name, Self.root + "/Albums/" + MediaServerTree.encode($0.key), outline.albums[$0.key] ?? 0, true) }
        case .genres:
            return LibraryOutline.sorted(outline.genres.keys).map { ($0, Self.root + "/Genres/" + MediaServerTree.encode($0), outline.genres[$0] ?? 0, true) }
        default:
            return nil // tracks: listed from the index
        }
    }

    /// Tracks in a container of tracks.
    private func trackCount(_ node: Node) -> Int {
        switch node {
        case .artistAlbum(let artist, let album): return outline.artists[artist]?[album] ?? 0
        case .album(let album): return outline.albums[album] ?? 0
        case .genre(let genre): return outline.genres[genre] ?? 0
        case .folder(let folder): return outline.folders[folder] ?? 0
        case .playlist(let playlist): return playlist.entryCount
        default: return 0
        }
    }

    private func displayName(_ node: Node, path: String) -> String {
        switch node {
        case .root: return "Reprise"
        case .artists: return "Artists"
        case .albums: return "Albums"
        case .genres: return "Genres"
        case .folders: return "Folders"
        case .playlists: return "Playlists"
        case .playlist(let playlist): return playlist.name
        case .folder(let folder): return outline.roots.contains(folder) ? folder : String(folder[folder.index(after: folder.lastIndex(of: "/")!)...])
        case .album(let key): return outline.albumName(key)
        case .artist(let name), .genre(let name): return name
        case .artistAlbum(_, let album): return album.isEmpty ? "Other" : album
        case .item: return items[path]?.displayTitle ?? ""
        }
    }

    private func parent(of path: String) -> String {
        // A folder's parent is the folder above it (its object path holds the whole folder path).
        if case .folder(let folder)? = node(at: path), !outline.roots.contains(folder),
           let slash = folder.lastIndex(of: "/") {
            return Self.root + "/Folders/" + MediaServerTree.encode(String(folder[..<slash]))
        }
        return path == Self.root ? Self.root : String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// Every property of the object at `path` on `interface` (nil: not there).
    func properties(at path: String, interface: String) -> [(String, DBusValue)]? {
        guard let node = node(at: path) else { return nil }
        let isItem = if case .item = node { true } else { false }
        switch interface {
        case Self.objectInterface:
            return [("Parent", .objectPath(parent(of: path))), ("Type", .string(isItem ? "music" : "container")),
                    ("Path", .objectPath(path)), ("DisplayName", .string(displayName(node, path: path)))]
        case Self.containerInterface where !isItem:
            let children = containerChildren(node)
            let containers = children?.count ?? 0
            let tracks = children == nil || isFolder(node) ? trackCount(node) : 0
            return [("ChildCount", .uint32(UInt32(clamping: containers + tracks))), ("ItemCount", .uint32(UInt32(clamping: tracks))),
                    ("ContainerCount", .uint32(UInt32(clamping: containers))), ("Searchable", .bool(true))]
        case Self.itemInterface where isItem:
            guard let entry = items[path] else { return nil }
            let track = entry.track
            return [("URLs", .strings([entry.uri])), ("MIMEType", .string(LibraryTrack.mimeType(MediaURI(entry.uri)?.path ?? entry.uri))),
                    ("Artist", .string(track?.artist ?? "")), ("Album", .string(track?.album ?? "")), ("Genre", .string(track?.genre ?? "")),
                    ("TrackNumber", .int32(track?.track.flatMap { Int32(exactly: $0) } ?? -1)), // a damaged row: unknown
                    ("Duration", .int32(Int32(clamping: (track?.lengthMicroseconds ?? -1_000_000) / 1_000_000)))]
        default:
            return nil
        }
    }

    func isFolder(_ node: Node) -> Bool {
        if case .folder = node { true } else { false }
    }

    /// The object paths of the containers directly in `node`.
    func containers(of node: Node) -> [String] { (containerChildren(node) ?? []).map(\.path) }

    /// An object's properties on all three interfaces, as a listing gives them (`filter`: the names wanted).
    func describe(_ path: String, filter: [String]) -> [String: DBusValue] {
        var entries: [(String, DBusValue)] = []
        for interface in [Self.objectInterface, Self.containerInterface, Self.itemInterface] {
            entries += properties(at: path, interface: interface) ?? []
        }
        if !(filter.isEmpty || filter.contains("*")) { entries = entries.filter { filter.contains($0.0) } }
        return Dictionary(entries, uniquingKeysWith: { first, _ in first })
    }
}

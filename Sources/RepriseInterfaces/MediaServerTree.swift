import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// The library as an `org.gnome.UPnP.MediaServer2` tree (the standard for browsing media over D-Bus): the root
/// holds Artists (→ albums → tracks), Albums (→ tracks), Genres (→ tracks), Folders (→ folders and tracks) and
/// Playlists (→ entries). Containers and their counts come from the library's outline and the playlist folders;
/// tracks are listed from the index (replies deferred until it answers) and kept for a while so that clients can
/// read their properties. `SearchObjects` takes UPnP criteria (``MediaQuery``). Object paths carry names hex-encoded
/// ("_" + hex of the UTF-8 bytes).
final class MediaServerTree {
    static let busName = "org.gnome.UPnP.MediaServer2.Reprise"
    static let root = RepriseObjects.mediaServerRoot
    static let objectInterface = "org.gnome.UPnP.MediaObject2"
    static let containerInterface = "org.gnome.UPnP.MediaContainer2"
    static let itemInterface = "org.gnome.UPnP.MediaItem2"

    let library: LibraryAccess
    private let playlists: PlaylistLibrary
    /// Looks at the playlist folders again (announcing what changed to MPRIS clients too).
    let refreshPlaylists: () -> Void
    /// Items listed lately, by their object path (a client reads an item's properties after listing it).
    private var items: [String: PlaylistEntry] = [:]

    init(library: LibraryAccess, playlists: PlaylistLibrary, refreshPlaylists: @escaping () -> Void) {
        self.library = library
        self.playlists = playlists
        self.refreshPlaylists = refreshPlaylists
    }

    // MARK: Paths

    /// What an object path names.
    enum Node: Equatable {
        case root, artists, albums, genres
        case artist(String), artistAlbum(String, String), album(String), genre(String)
        case folders, folder(String)
        case playlists, playlist(PlaylistInfo)
        case item
    }

    static func encode(_ name: String) -> String {
        "_" + name.utf8.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }

    static func decode(_ element: Substring) -> String? {
        guard element.first == "_", element.count % 2 == 1, element.count <= 8193 else { return nil }
        var bytes: [UInt8] = []
        var index = element.index(after: element.startIndex)
        while index < element.endIndex {
            let next = element.index(index, offsetBy: 2)
            guard let byte = UInt8(element[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The depth (elements below the root) at which each branch holds its items.
    static let itemDepths: [Substring: Int] = ["Artists": 4, "Albums": 3, "Genres": 3, "Folders": 3, "Playlists": 3]

    /// A library track's own element in an item path: "t" and its index id, valid across restarts while the track
    /// is indexed. (A playlist's entries are named by their place: "_" and the hex of the number.)
    static func itemElement(_ track: LibraryTrack) -> String { track.id.map { "t\($0)" } ?? encode(track.path.escaped) }

    func node(at path: String) -> Node? {
        guard path == Self.root || path.hasPrefix(Self.root + "/") else { return nil }
        let parts = path.dropFirst(Self.root.count).split(separator: "/")
        guard let first = parts.first else { return .root }
        if Self.itemDepths[first] == parts.count { return items[path] != nil ? .item : nil }
        let names = parts.dropFirst().map(Self.decode)
        guard !names.contains(where: { $0 == nil }) else { return nil }
        let n = names.compactMap { $0 }
        let outline = library.outline
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
        case ("Playlists", 1): return playlists.playlist(withID: n[0]).map { .playlist($0) }
        default: return nil
        }
    }

    // MARK: Properties

    private func containerChildren(_ node: Node) -> [(name: String, path: String, count: Int, isContainer: Bool)]? {
        let outline = library.outline
        switch node {
        case .root:
            return [("Artists", Self.root + "/Artists", outline.artists.count, true),
                    ("Albums", Self.root + "/Albums", outline.albums.count, true),
                    ("Genres", Self.root + "/Genres", outline.genres.count, true),
                    ("Folders", Self.root + "/Folders", outline.roots.count, true),
                    ("Playlists", Self.root + "/Playlists", playlists.playlists.count, true)]
        case .playlists:
            return playlists.byName.map { ($0.name, Self.root + "/Playlists/" + Self.encode($0.id), $0.entryCount, true) }
        case .folders:
            return outline.roots.map { ($0, Self.root + "/Folders/" + Self.encode($0), 0, true) }
        case .folder(let folder):
            // Its subfolders here; its own tracks are listed from the index after them (see list).
            return outline.subfolders(of: folder).map { ($0, Self.root + "/Folders/" + Self.encode(folder + "/" + $0), 0, true) }
        case .artists:
            return LibraryOutline.sorted(outline.artists.keys).map {
                ($0, Self.root + "/Artists/" + Self.encode($0), outline.artists[$0]?.count ?? 0, true)
            }
        case .artist(let artist):
            let albums = outline.artists[artist] ?? [:]
            return LibraryOutline.sorted(albums.keys).map {
                ($0.isEmpty ? "Other" : $0, Self.root + "/Artists/" + Self.encode(artist) + "/" + Self.encode($0), albums[$0] ?? 0, true)
            }
        case .albums:
            return outline.albumsForDisplay().map { ($0.name, Self.root + "/Albums/" + Self.encode($0.key), outline.albums[$0.key] ?? 0, true) }
        case .genres:
            return LibraryOutline.sorted(outline.genres.keys).map { ($0, Self.root + "/Genres/" + Self.encode($0), outline.genres[$0] ?? 0, true) }
        default:
            return nil // tracks: listed from the index
        }
    }

    /// Tracks in a container of tracks.
    private func trackCount(_ node: Node) -> Int {
        let outline = library.outline
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
        case .folder(let folder): return library.outline.roots.contains(folder) ? folder : String(folder[folder.index(after: folder.lastIndex(of: "/")!)...])
        case .album(let key): return library.outline.albumName(key)
        case .artist(let name), .genre(let name): return name
        case .artistAlbum(_, let album): return album.isEmpty ? "Other" : album
        case .item: return items[path]?.displayTitle ?? ""
        }
    }

    private func parent(of path: String) -> String {
        // A folder's parent is the folder above it (its object path holds the whole folder path).
        if case .folder(let folder)? = node(at: path), !library.outline.roots.contains(folder),
           let slash = folder.lastIndex(of: "/") {
            return Self.root + "/Folders/" + Self.encode(String(folder[..<slash]))
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
            if node == .root || node == .playlists { refreshPlaylists() }
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

    private func isFolder(_ node: Node) -> Bool {
        if case .folder = node { true } else { false }
    }

    // MARK: Listing

    /// The children of `path` (containers and/or items), with the properties `filter` names ("*" or empty: all).
    func list(_ path: String, offset: Int, max: Int, filter: [String], containers: Bool, itemsToo: Bool,
              then: @escaping ([[String: DBusValue]]) -> Void) {
        guard let node = node(at: path) else { return then([]) }
        if node == .root || node == .playlists { refreshPlaylists() }
        func page(_ all: [String]) -> [[String: DBusValue]] {
            let start = min(all.count, offset)
            return all[start..<(max == 0 ? all.count : min(all.count, start + max))].map { describe($0, filter: filter) }
        }
        let childContainers = containers ? self.containers(of: node) : []
        guard itemsToo, containerChildren(node) == nil || isFolder(node) else { return then(page(childContainers)) }
        if case .playlist(let playlist) = node {
            // Entries by their place in the file (one may come twice).
            return library.entries(of: playlist) { [weak self] entries in
                guard let self else { return then([]) }
                then(page(childContainers + entries.enumerated().map { remember($1, at: path + "/" + Self.encode(String($0 + 1))) }))
            }
        }
        guard let (selector, keep) = Self.tracks(of: node) else { return then([]) }
        library.tracks(selector) { [weak self] tracks in
            guard let self else { return then([]) }
            then(page(childContainers + tracks.filter(keep).map {
                remember(PlaylistEntry(uri: $0.path.uri, track: $0), at: path + "/" + Self.itemElement($0))
            }))
        }
    }

    /// What a container of library tracks holds: the selector to ask the index with, and the test of each track.
    static func tracks(of node: Node) -> (LibrarySelector, (LibraryTrack) -> Bool)? {
        switch node {
        case .artistAlbum(let artist, let album):
            return (.artist(artist), { ($0.album ?? "") == album && ($0.albumArtist ?? $0.artist) == artist })
        case .album(let key):
            guard let album = LibraryAlbum.parse(key: key) else { return nil }
            return (.albumBy(title: album.title, artist: album.artist), { $0.album == album.title && $0.albumBy == album.artist })
        case .genre(let genre): return (.genre(genre), { _ in true })
        case .folder(let folder): return (.folder(FilePath(escaped: folder)), { $0.path.folder.escaped == folder })
        default: return nil
        }
    }

    /// Whether `path` names an item not listed since Reprise started (a client kept it from an earlier run).
    func isUnlistedItem(_ path: String) -> Bool {
        guard items[path] == nil, path.hasPrefix(Self.root + "/") else { return false }
        let parts = path.dropFirst(Self.root.count).split(separator: "/")
        return parts.first.flatMap { Self.itemDepths[$0] } == parts.count
    }

    /// Looks up the item at `path` (an index id under its container, or a playlist entry by its place) and keeps it
    /// as if listed; `then(true)` when it is there.
    func resolveItem(_ path: String, then: @escaping (Bool) -> Void) {
        if path.hasPrefix(Self.root + "/Playlists/") { refreshPlaylists() } // not looked at yet in this run, maybe
        guard let slash = path.lastIndex(of: "/"), let container = node(at: String(path[..<slash])) else { return then(false) }
        let element = path[path.index(after: slash)...]
        let parent = String(path[..<slash])
        if case .playlist(let playlist) = container {
            return library.entries(of: playlist) { [weak self] entries in
                guard let self else { return then(false) }
                for (index, entry) in entries.enumerated() { _ = remember(entry, at: parent + "/" + Self.encode(String(index + 1))) }
                then(items[path] != nil)
            }
        }
        guard element.first == "t", let id = Int64(element.dropFirst()), id > 0, let (_, keep) = Self.tracks(of: container) else {
            return then(false)
        }
        library.tracks(.trackID(id)) { [weak self] tracks in
            guard let self, let track = tracks.first, keep(track) else { return then(false) }
            _ = remember(PlaylistEntry(uri: track.path.uri, track: track), at: path)
            then(true)
        }
    }

    /// Answers Properties.Get or GetAll for an item not listed since start, once the index has said what it is.
    func answerProperties(_ call: MethodCall, at path: String) {
        guard let interface = call.arguments.first?.stringValue else { return call.fail(.invalidArgs("no interface named")) }
        resolveItem(path) { [weak self] found in
            guard let self, found, let properties = properties(at: path, interface: interface) else {
                return call.fail(DBusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object at \(path)"))
            }
            if call.member == "GetAll" { return call.reply([.vardict(properties)]) }
            guard call.arguments.count == 2, let name = call.arguments[1].stringValue,
                  let value = properties.first(where: { $0.0 == name })?.1 else {
                return call.fail(DBusError.unknownProperty("", "no such property here"))
            }
            call.reply([.variant(value)])
        }
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

    /// Keeps `entry` as the item at `path` for its property reads; returns the path.
    func remember(_ entry: PlaylistEntry, at path: String) -> String {
        if items.count > 20_000 { items.removeAll() }
        items[path] = entry
        return path
    }
}

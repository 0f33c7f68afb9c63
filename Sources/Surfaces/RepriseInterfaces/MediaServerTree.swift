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
    let playlists: PlaylistLibrary
    /// Items listed lately, by their object path (a client reads an item's properties after listing it).
    private var items: [String: PlaylistEntry] = [:]

    init(library: LibraryAccess, playlists: PlaylistLibrary) {
        self.library = library
        self.playlists = playlists
    }

    // MARK: Paths

    /// What an object path names.
    enum Node: Equatable, Sendable {
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

    /// The tree as it is now (a few references copied): what paths name and how objects are described.
    var view: MediaServerView { MediaServerView(outline: library.outline, playlists: playlists.playlists, items: items) }

    func node(at path: String) -> Node? { view.node(at: path) }

    /// Every property of the object at `path` on `interface` (nil: not there).
    func properties(at path: String, interface: String) -> [(String, DBusValue)]? {
        if interface == Self.containerInterface, path == Self.root || path == Self.root + "/Playlists" { playlists.refresh() }
        return view.properties(at: path, interface: interface)
    }

    func containers(of node: Node) -> [String] { view.containers(of: node) }

    func describe(_ path: String, filter: [String]) -> [String: DBusValue] { view.describe(path, filter: filter) }

    // MARK: Listing

    /// The children of `path` (containers and/or items), with the properties `filter` names ("*" or empty: all).
    /// Listed, paged and described on the library's worker (``answerPage``).
    func list(_ path: String, offset: Int, max: Int, filter: [String], containers: Bool, itemsToo: Bool,
              then: @escaping ([[String: DBusValue]]) -> Void) {
        guard let node = node(at: path) else { return then([]) }
        if node == .root || node == .playlists { playlists.refresh() }
        let view = self.view
        let page = Page(offset: offset, max: max, filter: filter)
        let childContainers: @Sendable (MediaServerView) -> [String] = { containers ? $0.containers(of: node) : [] }
        guard itemsToo, Self.holdsItems(node) else { return answer(page, view, then: then) { (childContainers($0), []) } }
        if case .playlist(let playlist) = node {
            // Entries by their place in the file (one may come twice).
            return library.entries(of: playlist) { [weak self] entries in
                self?.answer(page, view, then: then) { view in
                    (childContainers(view), entries.enumerated().map { (path + "/" + Self.encode(String($0 + 1)), $1) })
                }
            }
        }
        guard let (selector, isInside) = Self.tracks(of: node) else { return then([]) }
        library.withTracks(selector, { tracks in
            Self.describe(page, of: view) { view in
                (childContainers(view), tracks.filter(isInside).map { (path + "/" + Self.itemElement($0), PlaylistEntry(uri: $0.path.uri, track: $0)) })
            }
        }, then: { [weak self] in self?.keep($0, then: then) })
    }

    /// Which part of a listing or search a client asked for, and the properties it wants.
    struct Page: Sendable {
        let offset: Int, max: Int, filter: [String]
    }

    /// A page's descriptions, and its items with their object paths (to keep for their property reads).
    typealias DescribedPage = (described: [[String: DBusValue]], items: [(String, PlaylistEntry)])

    /// Answers with `page` of what `make` finds in `view` — containers first, then items with their object paths —
    /// made, paged and described on the library's worker, however many there are; on the loop only the page's items
    /// are kept for their property reads.
    func answer(_ page: Page, _ view: MediaServerView, then: @escaping ([[String: DBusValue]]) -> Void,
                _ make: @escaping @Sendable (MediaServerView) -> (containers: [String], items: [(String, PlaylistEntry)])) {
        library.onWorker({ Self.describe(page, of: view, make) }, then: { [weak self] in self?.keep($0, then: then) })
    }

    /// `page` of what `make` finds in `view`, described (run on the worker).
    static func describe(_ page: Page, of view: MediaServerView,
                         _ make: (MediaServerView) -> (containers: [String], items: [(String, PlaylistEntry)])) -> DescribedPage {
        let (containers, items) = make(view)
        let total = containers.count + items.count
        let start = min(total, page.offset), end = page.max == 0 ? total : min(total, start + page.max)
        let shownItems = Array(items[min(items.count, Swift.max(0, start - containers.count))..<Swift.max(0, end - containers.count)])
        // Described by a view that holds the page's items alone (no copy of every item remembered).
        var view = view
        view.items = Dictionary(shownItems, uniquingKeysWith: { first, _ in first })
        let described = (start..<end).map { index in
            view.describe(index < containers.count ? containers[index] : items[index - containers.count].0, filter: page.filter)
        }
        return (described, shownItems)
    }

    /// Keeps a described page's items for their property reads and answers with its descriptions (on the loop).
    func keep(_ page: DescribedPage, then: ([[String: DBusValue]]) -> Void) {
        for (path, entry) in page.items { _ = remember(entry, at: path) }
        then(page.described)
    }

    /// Whether a node lists items (tracks or playlist entries) after its containers.
    static func holdsItems(_ node: Node) -> Bool {
        switch node {
        case .artistAlbum, .album, .genre, .folder, .playlist: true
        default: false
        }
    }

    /// What a container of library tracks holds: the selector to ask the index with, and the test of each track.
    static func tracks(of node: Node) -> (LibrarySelector, @Sendable (LibraryTrack) -> Bool)? {
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
        if path.hasPrefix(Self.root + "/Playlists/") { playlists.refresh() } // not looked at yet in this run, maybe
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

    /// Keeps `entry` as the item at `path` for its property reads; returns the path.
    func remember(_ entry: PlaylistEntry, at path: String) -> String {
        if items.count > 20_000 { items.removeAll() }
        items[path] = entry
        return path
    }
}

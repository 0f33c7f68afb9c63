import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

extension MediaServerTree {
    /// SearchObjects: the containers and items under `path` (at any depth) that `query` matches, containers first,
    /// paged and filtered like a listing. Containers are walked and tested, tracks found (narrowed in SQL) and
    /// placed, a playlist's entries tested, and the page described — all on the library's worker: the loop only
    /// hands the work over and keeps the page's items, whatever the size of the library.
    func search(_ path: String, query: MediaQuery, offset: Int, max: Int, filter: [String],
                then: @escaping ([[String: DBusValue]]) -> Void) {
        guard let node = node(at: path), node != .item else { return then([]) }
        if node == .root || node == .playlists { playlists.refresh() }
        let view = self.view, page = Page(offset: offset, max: max, filter: filter)
        let wantsContainers = query.canMatch(type: "container")
        let containers: @Sendable (MediaServerView) -> [String] = { view in
            wantsContainers ? view.descendantContainers(of: path).filter { query.matches(view.queryProperties(of: $0)) } : []
        }
        let selector: LibrarySelector
        var inContainer = false
        switch node {
        case .artist(let artist): selector = .artist(artist)
        case .artistAlbum(let artist, _): (selector, inContainer) = (.artist(artist), true)
        case .album(let key):
            guard let album = LibraryAlbum.parse(key: key) else { return then([]) }
            (selector, inContainer) = (.albumBy(title: album.title, artist: album.artist), true)
        case .genre(let genre): (selector, inContainer) = (.genre(genre), true)
        case .folder(let folder): selector = .folder(FilePath(escaped: folder))
        case .playlists: return answer(page, view, then: then) { (containers($0), []) }
        case .playlist(let playlist):
            return library.entries(of: playlist) { [weak self] entries in
                self?.answer(page, view, then: then) { view in
                    (containers(view), entries.enumerated().compactMap { index, entry in
                        guard query.matches(entry.track?.mediaProperties ?? ["URLs": .texts([entry.uri]), "Type": .text("music"),
                                                                             "upnp:class": .text(MediaQuery.musicTrackClass),
                                                                             "DisplayName": .text(entry.displayTitle)]) else { return nil }
                        return (path + "/" + Self.encode(String(index + 1)), entry)
                    })
                }
            }
        default: selector = .all
        }
        guard query.canMatch(type: "music") else { return answer(page, view, then: then) { (containers($0), []) } }
        let albumOfArtist: String? = if case .artistAlbum(let artist, let album) = node { "\(artist)\u{0}\(album)" } else { nil }
        let placedInContainer = inContainer
        library.withTracks(selector, matching: query, { tracks in
            Self.describe(page, of: view) { view in
                let inAlbum = tracks.filter { albumOfArtist == nil || "\($0.albumBy ?? "")\u{0}\($0.album ?? "")" == albumOfArtist }
                return (containers(view), inAlbum.map { track in
                    // In a container of tracks, under it; elsewhere under the track's folder (a container every track has).
                    let parent = placedInContainer ? path : Self.root + "/Folders/" + Self.encode(track.path.folder.escaped)
                    return (parent + "/" + Self.itemElement(track), PlaylistEntry(uri: track.path.uri, track: track))
                })
            }
        }, then: { [weak self] in self?.keep($0, then: then) })
    }
}

extension MediaServerView {
    /// Every container below `path`, breadth first (at most 50,000).
    func descendantContainers(of path: String) -> [String] {
        var found: [String] = [], queue = [path], index = 0
        while index < queue.count, found.count < 50_000 {
            defer { index += 1 }
            guard let node = node(at: queue[index]) else { continue }
            let children = containers(of: node)
            found += children
            queue += children
        }
        return found
    }

    /// A container's properties as a query sees them, with its UPnP class.
    func queryProperties(of path: String) -> [String: MediaQuery.Value] {
        var values: [String: MediaQuery.Value] = [:]
        switch node(at: path) {
        case .album?, .artistAlbum?: values["upnp:class"] = .text("object.container.album.musicAlbum")
        case .artist?: values["upnp:class"] = .text("object.container.person.musicArtist")
        case .genre?: values["upnp:class"] = .text("object.container.genre.musicGenre")
        case .playlist?: values["upnp:class"] = .text("object.container.playlistContainer")
        default: values["upnp:class"] = .text(MediaQuery.folderClass)
        }
        for interface in [MediaServerTree.objectInterface, MediaServerTree.containerInterface] {
            for (name, value) in properties(at: path, interface: interface) ?? [] {
                switch value {
                case .string(let text), .objectPath(let text): values[name] = .text(text)
                case .uint32(let number): values[name] = .number(Int64(number))
                case .int32(let number): values[name] = .number(Int64(number))
                case .bool(let flag): values[name] = .text(flag ? "true" : "false")
                default: break
                }
            }
        }
        return values
    }
}

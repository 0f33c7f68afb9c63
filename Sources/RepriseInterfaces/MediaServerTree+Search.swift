import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

extension MediaServerTree {
    /// SearchObjects: the containers and items under `path` (at any depth) that `query` matches, containers first,
    /// paged and filtered like a listing. Containers are tested on the loop from the outline; tracks on the
    /// library's worker; a playlist's entries once read.
    func search(_ path: String, query: MediaQuery, offset: Int, max: Int, filter: [String],
                then: @escaping ([[String: DBusValue]]) -> Void) {
        guard let node = node(at: path), node != .item else { return then([]) }
        if node == .root || node == .playlists { refreshPlaylists() }
        let containers = query.canMatch(type: "container")
            ? descendantContainers(of: path).filter { query.matches(queryProperties(of: $0)) } : []
        let finish: ([String]) -> Void = { [weak self] itemPaths in
            guard let self else { return then([]) }
            let all = containers + itemPaths
            let start = min(all.count, offset)
            then(all[start..<(max == 0 ? all.count : min(all.count, start + max))].map { self.describe($0, filter: filter) })
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
        case .playlists: return finish([])
        case .playlist(let playlist):
            return library.entries(of: playlist) { [weak self] entries in
                guard let self else { return then([]) }
                finish(entries.enumerated().compactMap { index, entry in
                    guard query.matches(entry.track?.mediaProperties ?? ["URLs": .texts([entry.uri]), "Type": .text("music"),
                                                                         "upnp:class": .text(MediaQuery.musicTrackClass),
                                                                         "DisplayName": .text(entry.displayTitle)]) else { return nil }
                    return remember(entry, at: path + "/" + Self.encode(String(index + 1)))
                })
            }
        default: selector = .all
        }
        guard query.canMatch(type: "music") else { return finish([]) }
        let albumOfArtist: String? = if case .artistAlbum(let artist, let album) = node { "\(artist)\u{0}\(album)" } else { nil }
        library.tracks(selector, matching: query) { [weak self] tracks in
            guard let self else { return then([]) }
            let inAlbum = tracks.filter { albumOfArtist == nil || "\($0.albumBy ?? "")\u{0}\($0.album ?? "")" == albumOfArtist }
            finish(inAlbum.map { track in
                // In a container of tracks, under it; elsewhere under the track's folder (a container every track has).
                let parent = inContainer ? path : Self.root + "/Folders/" + Self.encode(track.path.folder.escaped)
                return remember(PlaylistEntry(uri: track.path.uri, track: track), at: parent + "/" + Self.itemElement(track))
            })
        }
    }

    /// Every container below `path`, breadth first (at most 50,000).
    private func descendantContainers(of path: String) -> [String] {
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
    private func queryProperties(of path: String) -> [String: MediaQuery.Value] {
        var values: [String: MediaQuery.Value] = [:]
        switch node(at: path) {
        case .album?, .artistAlbum?: values["upnp:class"] = .text("object.container.album.musicAlbum")
        case .artist?: values["upnp:class"] = .text("object.container.person.musicArtist")
        case .genre?: values["upnp:class"] = .text("object.container.genre.musicGenre")
        case .playlist?: values["upnp:class"] = .text("object.container.playlistContainer")
        default: values["upnp:class"] = .text(MediaQuery.folderClass)
        }
        for interface in [Self.objectInterface, Self.containerInterface] {
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

import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// What desktop searches show and play: a library artist, album or track, by an id the shells hand back. An id
/// names the library's rows only: an artist, an album by its artist and title (``LibraryAlbum/key``), a track by
/// its indexed path; activating one plays what the index holds for it now, and a forged id (a path the index does
/// not hold) plays nothing.
struct SearchResult: Sendable, Equatable {
    enum Kind: String { case artist, album, track }
    let kind: Kind
    /// The artist's name, the album's key (artist and title), or the track's path.
    let value: String
    let name: String
    let description: String
    /// A picture file (the album's cover) or an icon name.
    let icon: String

    /// "kind␟value": a unit separator nobody types.
    var id: String { kind.rawValue + "\u{1F}" + value }

    static func parse(_ id: String) -> (Kind, String)? {
        guard let separator = id.firstIndex(of: "\u{1F}"), let kind = Kind(rawValue: String(id[..<separator])) else { return nil }
        let value = String(id[id.index(after: separator)...])
        return value.isEmpty || value.utf8.count > 4096 ? nil : (kind, value)
    }

    /// The results of a library search, best first: artists, albums, then tracks (at most `limit`).
    static func from(_ results: LibraryResults, limit: Int) -> [SearchResult] {
        let artists = results.artists.map {
            SearchResult(kind: .artist, value: $0, name: $0, description: "Artist", icon: "avatar-default")
        }
        let albums = results.albums.map {
            SearchResult(kind: .album, value: $0.key, name: $0.title, description: "Album" + ($0.artist.map { " by \($0)" } ?? ""),
                         icon: $0.cover ?? "media-optical")
        }
        let tracks = results.tracks.map {
            SearchResult(kind: .track, value: $0.path.escaped, name: $0.displayTitle,
                         description: [$0.artist, $0.album].compactMap { $0 }.joined(separator: " — "), icon: $0.cover ?? "audio-x-generic")
        }
        return Array((artists + albums + tracks).prefix(limit))
    }
}

/// Searches for the desktop shells and remembers what it showed them (they ask for the details of ids they got).
final class DesktopSearch {
    private let library: LibraryAccess
    private let player: Player
    private let log: Log
    private var shown: [String: SearchResult] = [:]
    private let remote: RemoteControl
    static let limit = 20

    init(library: LibraryAccess, player: Player, remote: RemoteControl, log: Log) {
        self.library = library
        self.player = player
        self.remote = remote
        self.log = log
    }

    func search(_ terms: [String], then: @escaping ([SearchResult]) -> Void) {
        let query = LibraryQuery(terms.prefix(16).joined(separator: " "))
        guard !query.isEmpty, query.words.joined().count >= 2 else { return then([]) }
        library.search(query, limit: 60) { [weak self] results in
            let found = SearchResult.from(results, limit: Self.limit)
            guard let self else { return then(found) }
            if shown.count > 2000 { shown.removeAll() }
            for result in found { shown[result.id] = result }
            then(found)
        }
    }

    func shownResult(_ id: String) -> SearchResult? { shown[id] }

    /// Plays what `id` names: an artist's or album's tracks, or one track, replacing the queue.
    func activate(_ id: String, then: @escaping (DBusError?) -> Void) {
        guard let (kind, value) = SearchResult.parse(id) else { return then(.invalidArgs("no such result")) }
        log.info("desktop search: playing \(kind.rawValue) \(value)")
        let play: ([String]) -> Void = { [player] uris in
            guard !uris.isEmpty else { return then(.invalidArgs("nothing in the library is that \(kind.rawValue) now")) }
            player.replaceQueue(validating: uris) { error in
                if let error { return then(error.dbusError) }
                player.play()
                then(nil)
            }
        }
        let selector: LibrarySelector
        switch kind {
        case .track: selector = .track(path: FilePath(escaped: value))
        case .artist: selector = .artist(value)
        case .album:
            guard let album = LibraryAlbum.parse(key: value) else { return then(.invalidArgs("no such result")) }
            selector = .albumBy(title: album.title, artist: album.artist)
        }
        remote.request(.userChangedTrack) { library.tracks(selector) { play($0.map(\.path.uri)) } }
    }
}

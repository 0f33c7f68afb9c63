import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Library1: search the music library and play what it finds; its playlists are named, listed and
/// played the same way (kind "playlist").
final class LibraryInterface: Library1Handler {
    private let library: LibraryAccess
    private let playlists: PlaylistLibrary
    private let player: Player
    private let remote: RemoteControl

    init(library: LibraryAccess, playlists: PlaylistLibrary, player: Player, remote: RemoteControl) {
        self.library = library
        self.remote = remote
        self.playlists = playlists
        self.player = player
    }

    /// The most results a search returns.
    static let maximumLimit: UInt32 = 1000

    func search(query: String, limit: UInt32, reply: Reply<(artists: [String], albums: [LibraryAlbumEntry], tracks: [LibraryTrackEntry])>) throws(DBusError) {
        library.search(LibraryQuery(query), limit: Int(min(max(1, limit), Self.maximumLimit))) { results in
            reply.send((results.artists, Self.encode(results.albums), Self.encode(results.tracks)))
        }
    }

    func play(kind: String, value: String, enqueue: Bool, reply: Reply<UInt32>) throws(DBusError) {
        let found: (@escaping ([String]) -> Void) -> Void
        if kind == "playlist" {
            let playlist = try playlist(named: value)
            found = { [library] then in library.entries(of: playlist) { then($0.map(\.uri)) } }
        } else {
            let selector = try Self.selector(kind: kind, value: value)
            found = { [library] then in library.tracks(selector) { then($0.map(\.path.uri)) } }
        }
        found { [player, remote] uris in
            guard !uris.isEmpty else {
                return reply.fail(.invalidArgs("nothing in the library is \(kind) '\(value)'"))
            }
            let done: (PlayerError?) -> Void = { error in
                if let error { return reply.fail(error.dbusError) }
                if !enqueue { player.play() }
                reply.send(UInt32(clamping: uris.count))
            }
            if enqueue {
                player.appendTracks(uris, completion: done)
            } else {
                remote.request(.userChangedTrack) { player.replaceQueue(validating: uris, completion: done) }
            }
        }
    }

    func albums(title: String, reply: Reply<[LibraryAlbumEntry]>) throws(DBusError) {
        guard title.utf8.count <= 4096 else { throw .invalidArgs("an overlong album title") }
        library.albums(titled: title) { reply.send(Self.encode($0)) }
    }

    func names(kind: String, reply: Reply<[String]>) throws(DBusError) {
        if kind == "playlists" {
            playlists.refresh()
            return reply.send(playlists.byName.map(\.name))
        }
        guard let names = LibraryNameKind(rawValue: kind) else { throw .invalidArgs("Names takes artists, albums or genres") }
        library.names(names) { reply.send($0) }
    }

    func tracks(kind: String, value: String, reply: Reply<[LibraryTrackEntry]>) throws(DBusError) {
        if kind == "playlist" {
            return library.entries(of: try playlist(named: value)) { reply.send(Self.encode($0)) }
        }
        let selector: LibrarySelector
        if kind == "folder" {
            guard value.hasPrefix("/"), value.utf8.count <= 4096 else { throw .invalidArgs("a folder is an absolute path") }
            selector = .folder(FilePath(escaped: value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value))
        } else {
            selector = try Self.selector(kind: kind, value: value)
        }
        library.tracks(selector) { reply.send(Self.encode($0)) }
    }

    func rescan() throws(DBusError) { library.rescan() }

    /// The playlist `name` means (looked for again in the playlist folders).
    private func playlist(named name: String) throws(DBusError) -> PlaylistInfo {
        guard !name.isEmpty, name.utf8.count <= 4096 else { throw .invalidArgs("an empty or overlong playlist name") }
        playlists.refresh()
        guard let playlist = playlists.playlist(named: name) else { throw .invalidArgs("there is no playlist '\(name)'") }
        return playlist
    }

    static func selector(kind: String, value: String) throws(DBusError) -> LibrarySelector {
        guard !value.isEmpty, value.utf8.count <= 4096 else { throw .invalidArgs("an empty or overlong \(kind)") }
        switch kind {
        case "artist": return .artist(value)
        case "album": // "TITLE": every album of that title; "ALBUM ARTIST␟TITLE": that one album
            return LibraryAlbum.parse(key: value).map { .albumBy(title: $0.title, artist: $0.artist) } ?? .album(value)
        case "genre": return .genre(value)
        case "search":
            let query = LibraryQuery(value)
            guard !query.isEmpty else { throw .invalidArgs("a search needs words") }
            return .search(query)
        default: throw .invalidArgs("Play takes artist, album, genre, playlist or search, not '\(kind)'")
        }
    }

    static func encode(_ albums: [LibraryAlbum]) -> [LibraryAlbumEntry] {
        albums.map { LibraryAlbumEntry(title: $0.title, artist: $0.artist ?? "") }
    }

    static func encode(_ tracks: [LibraryTrack]) -> [LibraryTrackEntry] {
        tracks.map {
            LibraryTrackEntry(uri: $0.path.uri, title: $0.displayTitle, artist: $0.artist ?? "", album: $0.album ?? "",
                              length: $0.lengthMicroseconds ?? 0)
        }
    }

    /// Playlist entries as tracks: the index's tags where it knows the file, else the file name.
    static func encode(_ entries: [PlaylistEntry]) -> [LibraryTrackEntry] {
        entries.map {
            LibraryTrackEntry(uri: $0.uri, title: $0.displayTitle, artist: $0.track?.artist ?? "", album: $0.track?.album ?? "",
                              length: $0.track?.lengthMicroseconds ?? 0)
        }
    }

    var folders: [String] { library.status.folders }
    var tracks: UInt32 { UInt32(clamping: library.status.counts.tracks - library.status.counts.unavailable) }
    var albums: UInt32 { UInt32(clamping: library.status.counts.albums) }
    var artists: UInt32 { UInt32(clamping: library.status.counts.artists) }
    var unavailable: UInt32 { UInt32(clamping: library.status.counts.unavailable) }
    var scanning: Bool { library.status.scanning }
    var scanned: UInt32 { UInt32(clamping: library.status.scanned) }
    var toScan: UInt32 { UInt32(clamping: library.status.total) }
    var loudnessMeasured: UInt32 { UInt32(clamping: library.status.loudnessMeasured) }
    var loudnessWaiting: UInt32 { UInt32(clamping: library.status.loudnessWaiting) }
    var measuring: Bool { library.status.measuring }
}

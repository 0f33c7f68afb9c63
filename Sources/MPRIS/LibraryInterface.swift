import RepriseCore
import SDBus

public enum LibraryNames {
    public static let interface = "app.reprise.Library1"

    public static let description = DBusInterfaces.appRepriseLibrary1
}

/// app.reprise.Library1: search the music library and play what it finds; its playlists are named, listed and
/// played the same way (kind "playlist").
final class LibraryInterface: ReadOnlyInterface {
    private let library: LibraryAccess
    private let playlists: PlaylistLibrary
    /// Looks at the playlist folders again (announcing what changed on MPRIS Playlists).
    private let refreshPlaylists: () -> Void
    private let player: Player
    var onUserAction: ((PolicyEvent) -> Void)?

    init(library: LibraryAccess, playlists: PlaylistLibrary, refreshPlaylists: @escaping () -> Void, player: Player) {
        self.library = library
        self.playlists = playlists
        self.refreshPlaylists = refreshPlaylists
        self.player = player
    }

    static let propertyNames = LibraryNames.description.properties.map(\.name)
    /// The most results a search returns.
    static let maximumLimit: UInt32 = 1000

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let arguments = call.arguments
        switch (call.member, arguments.first) {
        case ("Search", .string(let text)?):
            guard arguments.count == 2, case .uint32(let limit) = arguments[1] else { throw .invalidArgs("Search takes (s, u)") }
            library.search(LibraryQuery(text), limit: Int(min(max(1, limit), Self.maximumLimit))) { results in
                call.reply(Self.encode(results))
            }
            return .deferred
        case ("Play", .string(let kind)?):
            guard arguments.count == 3, let value = arguments[1].stringValue, case .bool(let enqueue) = arguments[2] else {
                throw .invalidArgs("Play takes (s, s, b)")
            }
            let found: (@escaping ([String]) -> Void) -> Void
            if kind == "playlist" {
                let playlist = try playlist(named: value)
                found = { [library] then in library.entries(of: playlist) { then($0.map(\.uri)) } }
            } else {
                let selector = try Self.selector(kind: kind, value: value)
                found = { [library] then in library.tracks(selector) { then($0.map { MediaURI.file(path: $0.path) }) } }
            }
            found { [player, onUserAction] uris in
                guard !uris.isEmpty else {
                    return call.fail(.invalidArgs("nothing in the library is \(kind) '\(value)'"))
                }
                let done: (PlayerError?) -> Void = { error in
                    if let error { return call.fail(error.dbusError) }
                    if !enqueue { player.play() }
                    call.reply([.uint32(UInt32(clamping: uris.count))])
                }
                if enqueue {
                    player.appendTracks(uris, completion: done)
                } else {
                    onUserAction?(.userChangedTrack)
                    player.replaceQueue(validating: uris, completion: done)
                }
            }
            return .deferred
        case ("Albums", .string(let title)?):
            guard title.utf8.count <= 4096 else { throw .invalidArgs("an overlong album title") }
            library.albums(titled: title) { albums in
                call.reply([.array(elementSignature: "(ss)", albums.map { .structure([.string($0.title), .string($0.artist ?? "")]) })])
            }
            return .deferred
        case ("Names", .string("playlists")?):
            refreshPlaylists()
            return .reply([.strings(playlists.byName.map(\.name))])
        case ("Names", .string(let kind)?):
            guard let names = LibraryNameKind(rawValue: kind) else { throw .invalidArgs("Names takes artists, albums or genres") }
            library.names(names) { call.reply([.strings($0)]) }
            return .deferred
        case ("Tracks", .string(let kind)?):
            guard arguments.count == 2, let value = arguments[1].stringValue else { throw .invalidArgs("Tracks takes (s, s)") }
            if kind == "playlist" {
                library.entries(of: try playlist(named: value)) { call.reply([Self.encode($0)]) }
                return .deferred
            }
            let selector: LibrarySelector
            if kind == "folder" {
                guard value.hasPrefix("/"), value.utf8.count <= 4096 else { throw .invalidArgs("a folder is an absolute path") }
                selector = .folder(value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value)
            } else {
                selector = try Self.selector(kind: kind, value: value)
            }
            library.tracks(selector) { call.reply([Self.encode(LibraryResults(tracks: $0))[2]]) }
            return .deferred
        case ("Rescan", nil):
            library.rescan()
            return .reply([])
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
    }

    /// The playlist `name` means (looked for again in the playlist folders).
    private func playlist(named name: String) throws(DBusError) -> PlaylistInfo {
        guard !name.isEmpty, name.utf8.count <= 4096 else { throw .invalidArgs("an empty or overlong playlist name") }
        refreshPlaylists()
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

    static func encode(_ results: LibraryResults) -> [DBusValue] {
        [.strings(results.artists),
         .array(elementSignature: "(ss)", results.albums.map { .structure([.string($0.title), .string($0.artist ?? "")]) }),
         .array(elementSignature: "(ssssx)", results.tracks.map {
             .structure([.string(MediaURI.file(path: $0.path)), .string($0.displayTitle), .string($0.artist ?? ""),
                         .string($0.album ?? ""), .int64($0.lengthMicroseconds ?? 0)])
         })]
    }

    /// Playlist entries as tracks: the index's tags where it knows the file, else the file name.
    static func encode(_ entries: [PlaylistEntry]) -> DBusValue {
        .array(elementSignature: "(ssssx)", entries.map {
            .structure([.string($0.uri), .string($0.displayTitle), .string($0.track?.artist ?? ""), .string($0.track?.album ?? ""),
                        .int64($0.track?.lengthMicroseconds ?? 0)])
        })
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        let status = library.status
        switch property {
        case "Folders": return .strings(status.folders)
        case "Tracks": return .uint32(UInt32(clamping: status.counts.tracks - status.counts.unavailable))
        case "Albums": return .uint32(UInt32(clamping: status.counts.albums))
        case "Artists": return .uint32(UInt32(clamping: status.counts.artists))
        case "Unavailable": return .uint32(UInt32(clamping: status.counts.unavailable))
        case "Scanning": return .bool(status.scanning)
        case "Scanned": return .uint32(UInt32(clamping: status.scanned))
        case "ToScan": return .uint32(UInt32(clamping: status.total))
        default: throw DBusError.unknownProperty(property)
        }
    }
}

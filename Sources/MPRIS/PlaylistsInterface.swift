import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2.Playlists over a ``PlaylistLibrary``: activating a playlist replaces the queue with
/// its playable entries and plays them. Changes found in the playlist folders are announced by ``refresh()``.
final class PlaylistsInterface: InterfaceImplementation {
    private let library: PlaylistLibrary
    private let player: Player
    private let log: Log
    /// Sends PlaylistChanged or PropertiesChanged for this interface.
    var announce: (_ member: String, _ arguments: [DBusValue]) -> Void = { _, _ in }
    var announceProperties: (_ names: [String]) -> Void = { _ in }
    var onUserAction: ((PolicyEvent) -> Void)?
    /// Told when playlists came, went or were written again (the ones edited): the MediaServer2 tree announces it.
    var onListChanged: (_ edited: [PlaylistInfo]) -> Void = { _ in }

    init(library: PlaylistLibrary, player: Player, log: Log) {
        self.library = library
        self.player = player
        self.log = log
    }

    /// Looks at the playlist folders again and tells clients what changed.
    func refresh() {
        let changes = library.refresh()
        for playlist in changes.renamed { announce("PlaylistChanged", [Self.encode(playlist)]) }
        if changes.listChanged { announceProperties(["PlaylistCount", "ActivePlaylist"]) }
        if changes.listChanged || !changes.renamed.isEmpty || !changes.edited.isEmpty { onListChanged(changes.edited) }
    }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let args = call.arguments
        switch (call.member, args.first) {
        case ("ActivatePlaylist", .objectPath(let path)?):
            refresh()
            guard path.hasPrefix(MPRIS.playlistPathPrefix),
                  let playlist = library.playlist(withID: String(path.dropFirst(MPRIS.playlistPathPrefix.count))) else {
                throw .invalidArgs("\(path) is not one of the playlists")
            }
            log.info("activating playlist \(playlist.path)")
            onUserAction?(.userChangedTrack)
            player.replaceQueue(validating: [MediaURI.file(path: playlist.path)]) { [self] error in
                if error == nil {
                    library.markActive(playlist)
                    announceProperties(["ActivePlaylist"])
                }
                call.answer(error)
            }
            return .deferred
        case ("GetPlaylists", .uint32(let index)?):
            guard args.count == 4, case .uint32(let maxCount) = args[1], case .string(let orderName) = args[2],
                  case .bool(let reversed) = args[3] else { throw .invalidArgs("GetPlaylists takes (u, u, s, b)") }
            guard let ordering = PlaylistOrdering(rawValue: orderName) else {
                throw .invalidArgs("ordering '\(orderName)' is not one of \(PlaylistOrdering.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            refresh()
            let page = library.list(from: Int(index), maxCount: Int(maxCount), ordering: ordering, reversed: reversed)
            return .reply([.array(elementSignature: "(oss)", page.map(Self.encode))])
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "PlaylistCount":
            refresh()
            return .uint32(UInt32(clamping: library.playlists.count))
        case "Orderings":
            return .strings(PlaylistOrdering.allCases.map(\.rawValue))
        case "ActivePlaylist":
            guard let active = library.active else {
                return .structure([.bool(false), .structure([.objectPath("/"), .string(""), .string("")])])
            }
            return .structure([.bool(true), Self.encode(active)])
        default:
            throw DBusError.unknownProperty(property)
        }
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.readOnly(property)
    }

    /// A playlist as MPRIS `(oss)`: id, name, icon (none).
    static func encode(_ playlist: PlaylistInfo) -> DBusValue {
        .structure([.objectPath(MPRIS.playlistPathPrefix + playlist.id), .string(playlist.name), .string("")])
    }
}

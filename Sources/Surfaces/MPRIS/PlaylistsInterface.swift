import BusInterfaces
import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2.Playlists over a ``PlaylistLibrary``: activating a playlist replaces the queue with
/// its playable entries and plays them. Changes found in the playlist folders are announced by ``refresh()``.
final class PlaylistsInterface: MediaPlayer2PlaylistsHandler {
    private let library: PlaylistLibrary
    private let player: Player
    private let log: Log
    private let bus: any ObjectBus
    /// Sends PlaylistChanged for a playlist renamed.
    private let signals: MediaPlayer2PlaylistsSignals
    private let remote: RemoteControl

    /// Playlists that came, went or were written again reach ``playlistsDidChange(_:)`` through the feed.
    init(library: PlaylistLibrary, player: Player, bus: any ObjectBus, remote: RemoteControl, log: Log) {
        self.library = library
        self.player = player
        self.bus = bus
        signals = MediaPlayer2PlaylistsSignals(bus: bus, path: RepriseObjects.mprisPath)
        self.remote = remote
        self.log = log
    }

    private func announceChange(_ playlist: MPRISPlaylist) {
        do throws(DBusError) { try signals.playlistChanged(playlist: playlist) } catch { log.warning("could not send PlaylistChanged: \(error)") }
    }

    private func announceProperties(_ names: [String]) {
        try? bus.emitPropertiesChanged(path: RepriseObjects.mprisPath, interface: MPRIS.playlistsInterface, names: names)
    }

    /// Looks at the playlist folders again (what changed comes back through the feed).
    func refresh() { library.refresh() }

    /// Tells clients what a look at the playlist folders found: renamed playlists, a new count.
    func playlistsDidChange(_ changes: PlaylistLibrary.Changes) {
        for playlist in changes.renamed { announceChange(Self.encode(playlist)) }
        if changes.listChanged { announceProperties(["PlaylistCount", "ActivePlaylist"]) }
    }

    func activatePlaylist(playlistId: String, reply: Reply<Void>) throws(DBusError) {
        refresh()
        guard playlistId.hasPrefix(MPRIS.playlistPathPrefix),
              let playlist = library.playlist(withID: String(playlistId.dropFirst(MPRIS.playlistPathPrefix.count))) else {
            throw .invalidArgs("\(playlistId) is not one of the playlists")
        }
        log.info("activating playlist \(playlist.path)")
        remote.request(.userChangedTrack) {
            player.replaceQueue(validating: [MediaURI.file(path: playlist.path)]) { [self] error in
                if error == nil {
                    library.markActive(playlist)
                    announceProperties(["ActivePlaylist"])
                }
                reply.answer(error)
            }
        }
    }

    func getPlaylists(index: UInt32, maxCount: UInt32, order: String, reverseOrder: Bool) throws(DBusError) -> [MPRISPlaylist] {
        guard let ordering = PlaylistOrdering(rawValue: order) else {
            throw .invalidArgs("ordering '\(order)' is not one of \(PlaylistOrdering.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        refresh()
        let page = library.list(from: Int(index), maxCount: Int(maxCount), ordering: ordering, reversed: reverseOrder)
        return page.map(Self.encode)
    }

    var playlistCount: UInt32 {
        refresh()
        return UInt32(clamping: library.playlists.count)
    }

    var orderings: [String] { PlaylistOrdering.allCases.map(\.rawValue) }

    var activePlaylist: MPRISMaybePlaylist {
        guard let active = library.active else { return MPRISMaybePlaylist(valid: false, playlist: MPRISPlaylist(id: "/", name: "", icon: "")) }
        return MPRISMaybePlaylist(valid: true, playlist: Self.encode(active))
    }

    /// A playlist as MPRIS `(oss)`: id, name, icon (none).
    static func encode(_ playlist: PlaylistInfo) -> MPRISPlaylist {
        MPRISPlaylist(id: MPRIS.playlistPathPrefix + playlist.id, name: playlist.name, icon: "")
    }
}

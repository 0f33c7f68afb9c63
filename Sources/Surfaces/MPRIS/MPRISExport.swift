import BusInterfaces
import RepriseCore
import SDBus

/// The four MPRIS interfaces of a ``Player`` on the MPRIS object (root, Player, TrackList, Playlists): exported,
/// their properties announced through the shared ``PropertyAnnouncer``, the track list's and the player's signals
/// sent as the player reports its changes.
public final class MPRISExport {
    /// Fixed facts about the application for the root interface.
    public struct Identity: Sendable {
        public var name: String
        public var desktopEntry: String
        /// Asked once, on the first read of SupportedMimeTypes (scanning the codecs costs start-up time).
        public var supportedMimeTypes: @Sendable () -> [String]
        public init(name: String, desktopEntry: String, supportedMimeTypes: @escaping @Sendable () -> [String]) {
            self.name = name
            self.desktopEntry = desktopEntry
            self.supportedMimeTypes = supportedMimeTypes
        }
    }

    private let bus: any ObjectBus
    private let player: Player
    private let log: Log
    private let root: RootInterface
    private let playerInterface: PlayerInterface
    private let trackListInterface: TrackListInterface
    private let playlistsInterface: PlaylistsInterface
    private let playerSignals: MediaPlayer2PlayerSignals
    private let trackListSignals: MediaPlayer2TrackListSignals

    /// Exports the four interfaces; the root offers `window` (Fullscreen, Raise) when there is one. The root's properties are announced first and the Player's last of all the
    /// interfaces `announcer` watches after a change (clients that see a new track find the rest already told).
    public init(bus: any ObjectBus, player: Player, playlists: PlaylistLibrary, identity: Identity, window: WindowControl?,
                announcer: PropertyAnnouncer, remote: RemoteControl, log: Log, onQuit: @escaping () -> Void) throws(DBusError) {
        self.bus = bus
        self.player = player
        self.log = log
        playerSignals = MediaPlayer2PlayerSignals(bus: bus, path: RepriseObjects.mprisPath)
        trackListSignals = MediaPlayer2TrackListSignals(bus: bus, path: RepriseObjects.mprisPath)
        root = RootInterface(identity: identity, window: window, onFullscreenSet: { [feed = player.feed] in feed.publish(.video) },
                             onQuit: onQuit)
        playerInterface = PlayerInterface(remote: remote, bus: bus)
        trackListInterface = TrackListInterface(remote: remote)
        playlistsInterface = PlaylistsInterface(library: playlists, player: player, bus: bus, remote: remote, log: log)
        let playerExport = MediaPlayer2PlayerExport(playerInterface)
        try bus.export(MediaPlayer2Export(root), at: RepriseObjects.mprisPath)
        try bus.export(playerExport, at: RepriseObjects.mprisPath)
        try bus.export(MediaPlayer2TrackListExport(trackListInterface), at: RepriseObjects.mprisPath)
        try bus.export(MediaPlayer2PlaylistsExport(playlistsInterface), at: RepriseObjects.mprisPath)
        announcer.watch(MPRIS.root, at: RepriseObjects.mprisPath, names: RootInterface.announcedProperties) { [root] in try? root.value(of: $0) }
        // The values last announced are the current ones (every change is announced when it happens): reads (GetAll
        // from every widget) are served from them instead of being computed again.
        playerExport.cachedValue = { [unowned announcer] in announcer.announcedValue($0, of: MPRIS.playerInterface) }
        announcer.watch(MPRIS.player, at: RepriseObjects.mprisPath, last: true) {
            [playerInterface] in try? playerInterface.value(of: $0)
        }
    }

    /// Tells Playlists clients what a look at the playlist folders found.
    public func playlistsDidChange(_ changes: PlaylistLibrary.Changes) { playlistsInterface.playlistsDidChange(changes) }

    public func playerDidSeek(toMicroseconds microseconds: Int64) {
        log.debug("Seeked \(microseconds)")
        do throws(DBusError) {
            try playerSignals.seeked(position: microseconds)
        } catch {
            log.warning("could not send Seeked: \(error)")
        }
    }

    /// More structural changes than this in one batch (a playlist added) are announced as one TrackListReplaced:
    /// clients read the list once instead of receiving thousands of signals, and the loop is not held up sending them.
    static let changesAnnouncedOneByOne = 64

    public func playerTrackListDidChange(_ changes: [TrackListChange]) {
        var listChanged = false
        var changes = changes
        let structural = changes.count { if case .added = $0 { true } else if case .removed = $0 { true } else { false } }
        if structural > Self.changesAnnouncedOneByOne { changes = [.replaced] }
        for change in changes {
            do throws(DBusError) {
                switch change {
                case .added(let id, let after):
                    guard let track = player.track(id: id) else { continue }
                    try trackListSignals.trackAdded(metadata: MetadataEncoding.encode(track),
                                                    afterTrack: after.map(MPRIS.trackPath) ?? MPRIS.noTrackPath)
                    listChanged = true
                case .removed(let id):
                    try trackListSignals.trackRemoved(trackId: MPRIS.trackPath(forEntry: id))
                    listChanged = true
                case .replaced:
                    try trackListSignals.trackListReplaced(tracks: player.trackIDs.map(MPRIS.trackPath),
                                                           currentTrack: player.queue.current.map { MPRIS.trackPath(forEntry: $0.id) } ?? MPRIS.noTrackPath)
                    listChanged = true
                case .metadataChanged(let id), .playedMetadataChanged(let id):
                    guard let track = player.track(id: id) else { continue }
                    try trackListSignals.trackMetadataChanged(trackId: MPRIS.trackPath(forEntry: id), metadata: MetadataEncoding.encode(track))
                case .priorityChanged: continue
                }
            } catch {
                log.warning("could not announce \(change): \(error)")
            }
        }
        if listChanged {
            try? bus.emitPropertiesChanged(path: RepriseObjects.mprisPath, interface: MPRIS.trackListInterface, names: ["Tracks"])
        }
    }
}

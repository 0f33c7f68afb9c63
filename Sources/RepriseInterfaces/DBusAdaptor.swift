import BusInterfaces
import RepriseCore
import SDBus

/// Exports the MPRIS root and Player interfaces for a ``Player`` and keeps clients told of every change:
/// one PropertiesChanged per handled event carrying exactly the properties whose values changed.
public final class MPRISService: PlayerObserver {
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
    private let playlists: PlaylistLibrary
    private let controlsInterface: ControlsInterface
    private let announcer: PropertyAnnouncer
    private var libraryInterface: LibraryInterface?
    private var desktopSearch: DesktopSearch?
    private var mediaServer: MediaServerTree?
    private var videoInterface: VideoInterface?
    private let playerSignals: MediaPlayer2PlayerSignals
    private let trackListSignals: MediaPlayer2TrackListSignals
    /// What a change of the player may change, announced after each: the interfaces whose values follow it.
    private var followingPlayer: Set<String> = [MPRIS.playerInterface, MPRIS.rootInterface, ControlsNames.interface,
                                                SoundNames.interface, ChaptersNames.interface, SleepNames.interface]

    public init(bus: any ObjectBus, player: Player, playlists: PlaylistLibrary, identity: Identity, log: Log,
                onQuit: @escaping () -> Void) throws(DBusError) {
        self.bus = bus
        self.player = player
        self.log = log
        self.playlists = playlists
        announcer = PropertyAnnouncer(bus: bus)
        playerSignals = MediaPlayer2PlayerSignals(bus: bus, path: MPRIS.objectPath)
        trackListSignals = MediaPlayer2TrackListSignals(bus: bus, path: MPRIS.objectPath)
        root = RootInterface(identity: identity, onQuit: onQuit)
        playerInterface = PlayerInterface(player: player)
        trackListInterface = TrackListInterface(player: player)
        controlsInterface = ControlsInterface(player: player)
        playlistsInterface = PlaylistsInterface(library: playlists, player: player, log: log)
        let sound = SoundInterface(player: player), chapters = ChaptersInterface(player: player), sleep = SleepInterface(player: player)
        let playerExport = MediaPlayer2PlayerExport(playerInterface)
        try bus.export(MediaPlayer2Export(root), at: MPRIS.objectPath)
        try bus.export(playerExport, at: MPRIS.objectPath)
        try bus.export(MediaPlayer2TrackListExport(trackListInterface), at: MPRIS.objectPath)
        try bus.export(MediaPlayer2PlaylistsExport(playlistsInterface), at: MPRIS.objectPath)
        try bus.export(Controls1Export(controlsInterface), at: MPRIS.repriseObjectPath)
        try bus.export(Sound1Export(sound), at: MPRIS.repriseObjectPath)
        try bus.export(Chapters1Export(chapters), at: MPRIS.repriseObjectPath)
        try bus.export(Sleep1Export(sleep), at: MPRIS.repriseObjectPath)
        let playlistSignals = MediaPlayer2PlaylistsSignals(bus: bus, path: MPRIS.objectPath)
        playlistsInterface.announceChange = { [log] playlist in
            do throws(DBusError) { try playlistSignals.playlistChanged(playlist: playlist) } catch { log.warning("could not send PlaylistChanged: \(error)") }
        }
        playlistsInterface.announceProperties = { [unowned bus] names in
            try? bus.emitPropertiesChanged(path: MPRIS.objectPath, interface: MPRIS.playlistsInterface, names: names)
        }
        // Announced in this order after a change of the player.
        announcer.watch(MPRIS.rootInterface, at: MPRIS.objectPath, names: RootInterface.announcedProperties) { [root] in try? root.value(of: $0) }
        announcer.watch(SoundNames.interface, at: MPRIS.repriseObjectPath, names: Sound1Export.announcedProperties) { try? sound.value(of: $0) }
        announcer.watch(ChaptersNames.interface, at: MPRIS.repriseObjectPath, names: Chapters1Export.announcedProperties) {
            try? chapters.value(of: $0)
        }
        announcer.watch(SleepNames.interface, at: MPRIS.repriseObjectPath, names: Sleep1Export.announcedProperties) { _ in
            .string(sleep.announcementKey ?? "off")
        }
        announcer.watch(ControlsNames.interface, at: MPRIS.repriseObjectPath, names: Controls1Export.announcedProperties) { [controlsInterface] in
            try? controlsInterface.value(of: $0)
        }
        announcer.watch(MPRIS.playerInterface, at: MPRIS.objectPath, names: MPRIS.announcedPlayerProperties) { [playerInterface] in
            try? playerInterface.value(of: $0)
        }
        // The values last announced are the current ones (every change is announced when it happens): reads (GetAll
        // from every widget) are served from them instead of being computed again.
        playerExport.cachedValue = { [unowned announcer] in announcer.announcedValue($0, of: MPRIS.playerInterface) }
        player.observer = self
    }

    /// Told of every transport or track request from a client (before it is carried out), for the audio policy.
    public var onUserAction: ((PolicyEvent) -> Void)? {
        didSet {
            playerInterface.onUserAction = onUserAction
            trackListInterface.onUserAction = onUserAction
            playlistsInterface.onUserAction = onUserAction
            controlsInterface.onUserAction = onUserAction
        }
    }

    /// Asked before a PlayPause is carried out; false drops it (an echo of a cork request, see the audio session).
    public var allowsPlayPause: (() -> Bool)? {
        didSet { playerInterface.allowsPlayPause = allowsPlayPause }
    }

    /// Takes MediaServer2's own name (its objects are exported by ``attachLibrary(_:)``); false when another
    /// process has it.
    @discardableResult
    public func claimMediaServerName() -> Bool {
        guard mediaServer != nil, (try? bus.requestName(MediaServerTree.busName)) == true else {
            log.info("\(MediaServerTree.busName) is taken: no MediaServer2 here")
            return false
        }
        mediaServerNameOwned = true
        return true
    }

    /// Gives MediaServer2's name back (on stop).
    public func releaseMediaServerName() {
        guard mediaServerNameOwned else { return }
        mediaServerNameOwned = false
        bus.releaseName(MediaServerTree.busName)
        log.info("released \(MediaServerTree.busName)")
    }
    private var mediaServerNameOwned = false

    /// Looks at the playlist folders again and announces what changed (call now and then).
    public func refreshPlaylists() { playlistsInterface.refresh() }

    /// Exports app.reprise.Library1 over `library`, announcing its properties when they change.
    public func attachLibrary(_ library: LibraryAccess) {
        let interface = LibraryInterface(library: library, playlists: playlists,
                                         refreshPlaylists: { [playlistsInterface] in playlistsInterface.refresh() }, player: player)
        interface.onUserAction = { [unowned self] in onUserAction?($0) }
        do {
            try bus.export(Library1Export(interface), at: MPRIS.repriseObjectPath)
        } catch {
            return log.warning("could not export the library: \(error)")
        }
        libraryInterface = interface
        let search = DesktopSearch(library: library, player: player, log: log)
        search.onUserAction = { [unowned self] in onUserAction?($0) }
        desktopSearch = search
        do {
            try bus.export(ShellSearchProvider2Export(GnomeSearchProvider(search: search)), at: GnomeSearchProvider.objectPath)
            try bus.export(Krunner1Export(KRunnerProvider(search: search)), at: KRunnerProvider.objectPath)
        } catch {
            log.warning("could not export the desktop search providers: \(error)")
        }
        // The standard browsing interface, under a name of its own.
        let tree = MediaServerTree(library: library, playlists: playlists) { [playlistsInterface] in playlistsInterface.refresh() }
        do {
            let (objects, containers, items) = MediaServerObject.exports(of: tree)
            try bus.exportTree(objects, under: MediaServerTree.root)
            try bus.exportTree(containers, under: MediaServerTree.root)
            try bus.exportTree(items, under: MediaServerTree.root)
            // An item path kept from an earlier run is looked up in the index before its properties are read.
            try bus.addFilter(under: MediaServerTree.root) { [weak tree] path, interface, member in
                guard let tree, interface == "org.freedesktop.DBus.Properties", ["Get", "GetAll"].contains(member),
                      tree.isUnlistedItem(path) else { return nil }
                return { call in tree.answerProperties(call, at: path) }
            }
        } catch {
            log.warning("could not export MediaServer2: \(error)")
        }
        mediaServer = tree
        playlistsInterface.onListChanged = { [unowned bus] edited in
            let playlists = MediaServerTree.root + "/Playlists"
            for path in [MediaServerTree.root, playlists] + edited.map({ playlists + "/" + MediaServerTree.encode($0.id) }) {
                try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
            }
        }
        announcer.watch(LibraryNames.interface, at: MPRIS.repriseObjectPath, names: Library1Export.announcedProperties) {
            try? interface.value(of: $0)
        }
        var lastOutline = library.outline
        library.onChange = { [unowned self] in
            announcer.announce([LibraryNames.interface])
            // MediaServer2 clients hear that the top containers changed.
            guard library.outline != lastOutline else { return }
            lastOutline = library.outline
            for path in [MediaServerTree.root] + ["Artists", "Albums", "Genres"].map({ MediaServerTree.root + "/" + $0 }) {
                try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
            }
        }
    }

    /// Offers the video window through the root interface (Fullscreen, Raise) and app.reprise.Video1.
    public func attachVideo(_ control: VideoControl) throws(DBusError) {
        root.video = control
        root.onFullscreenSet = { [unowned self] in announceVideo() }
        let video = VideoInterface(control: control, player: player) { [unowned self] in announceVideo() }
        try bus.export(Video1Export(video), at: MPRIS.repriseObjectPath)
        announcer.watch(VideoNames.interface, at: MPRIS.repriseObjectPath, names: Video1Export.announcedProperties) { try? video.value(of: $0) }
        followingPlayer.insert(VideoNames.interface)
        videoInterface = video
    }

    /// Offers the audio session through app.reprise.AudioSession1; the interface returned sends its signals.
    public func attachAudioSession(_ control: AudioSessionControl) throws(DBusError) -> AudioSessionInterface {
        let interface = AudioSessionInterface(control: control, signals: AudioSession1Signals(bus: bus, path: MPRIS.repriseObjectPath),
                                              log: log) { [unowned self] in announcer.announce([AudioSessionNames.interface]) }
        try bus.export(AudioSession1Export(interface), at: MPRIS.repriseObjectPath)
        announcer.watch(AudioSessionNames.interface, at: MPRIS.repriseObjectPath, names: AudioSession1Export.announcedProperties) {
            try? interface.value(of: $0)
        }
        return interface
    }

    /// Announces what changed on the root and video interfaces (call after the video state changes).
    public func announceVideo() {
        announcer.announce([VideoNames.interface, MPRIS.rootInterface])
    }

    public func playerDidChange() {
        let announced = announcer.announce(followingPlayer)
        if announced.contains(MPRIS.playerInterface) { log.debug("PropertiesChanged on the Player") }
    }

    public func playerDidSeek(toMicroseconds microseconds: Int64) {
        log.debug("Seeked \(microseconds)")
        do {
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
                case .metadataChanged(let id):
                    guard let track = player.track(id: id) else { continue }
                    try trackListSignals.trackMetadataChanged(trackId: MPRIS.trackPath(forEntry: id), metadata: MetadataEncoding.encode(track))
                }
            } catch {
                log.warning("could not announce \(change): \(error)")
            }
        }
        if listChanged {
            try? bus.emitPropertiesChanged(path: MPRIS.objectPath, interface: MPRIS.trackListInterface, names: ["Tracks"])
        }
    }
}

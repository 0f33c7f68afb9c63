import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// Everything Reprise offers on the bus for one ``Player``: the MPRIS interfaces (``MPRISExport``), Reprise's own
/// (app.reprise.*: controls, sound, chapters, sleep, and once attached the audio session, video and library) and
/// the desktop exports (GNOME Shell's and KRunner's search, MediaServer2). One ``PropertyAnnouncer`` keeps clients
/// told of all of them: one PropertiesChanged per interface per handled event, carrying exactly what changed.
public final class DBusAdaptor: PlayerObserver {
    public typealias Identity = MPRISExport.Identity

    private let bus: any ObjectBus
    private let player: Player
    private let log: Log
    private let playlists: PlaylistLibrary
    private let mpris: MPRISExport
    private let controlsInterface: ControlsInterface
    private let announcer: PropertyAnnouncer
    private var libraryInterface: LibraryInterface?
    private var desktopSearch: DesktopSearch?
    private var mediaServer: MediaServerTree?
    private var videoInterface: VideoInterface?
    /// The interfaces whose values follow the player, announced after each of its changes.
    private var followingPlayer = MPRISExport.followingPlayer.union([Controls1Export.interface, Sound1Export.interface,
                                                                      Chapters1Export.interface, Sleep1Export.interface,
                                                                      Lyrics1Export.interface])

    public init(bus: any ObjectBus, player: Player, playlists: PlaylistLibrary, identity: Identity, log: Log,
                onQuit: @escaping () -> Void) throws(DBusError) {
        self.bus = bus
        self.player = player
        self.log = log
        self.playlists = playlists
        announcer = PropertyAnnouncer(bus: bus)
        mpris = try MPRISExport(bus: bus, player: player, playlists: playlists, identity: identity, announcer: announcer,
                                log: log, onQuit: onQuit)
        controlsInterface = ControlsInterface(player: player)
        let sound = SoundInterface(player: player), chapters = ChaptersInterface(player: player), sleep = SleepInterface(player: player)
        try bus.export(Controls1Export(controlsInterface), at: RepriseObjects.ownPath)
        try bus.export(Sound1Export(sound), at: RepriseObjects.ownPath)
        try bus.export(Chapters1Export(chapters), at: RepriseObjects.ownPath)
        try bus.export(Sleep1Export(sleep), at: RepriseObjects.ownPath)
        let lyrics = LyricsInterface(player: player)
        try bus.export(Lyrics1Export(lyrics), at: RepriseObjects.ownPath)
        announcer.watch(Sound1Export.interface, at: RepriseObjects.ownPath, names: Sound1Export.announcedProperties) { try? sound.value(of: $0) }
        announcer.watch(Chapters1Export.interface, at: RepriseObjects.ownPath, names: Chapters1Export.announcedProperties) {
            try? chapters.value(of: $0)
        }
        // Lines are announced when other lyrics were found or forgotten (a serial says so), not compared line by
        // line after every event.
        announcer.watch(Lyrics1Export.interface, at: RepriseObjects.ownPath, names: Lyrics1Export.announcedProperties) { [player] name in
            name == "Lines" ? .uint64(UInt64(player.lyricsSerial)) : try? lyrics.value(of: name)
        }
        // A new timer is announced (its kind and serial decide), not the time left as it counts down.
        announcer.watch(Sleep1Export.interface, at: RepriseObjects.ownPath, names: Sleep1Export.announcedProperties) { _ in
            .string(sleep.announcementKey ?? "off")
        }
        announcer.watch(Controls1Export.interface, at: RepriseObjects.ownPath, names: Controls1Export.announcedProperties) {
            [controlsInterface] in try? controlsInterface.value(of: $0)
        }
        player.observer = self
    }

    /// Told of every transport or track request from a client (before it is carried out), for the audio policy.
    public var onUserAction: ((PolicyEvent) -> Void)? {
        didSet {
            mpris.onUserAction = onUserAction
            controlsInterface.onUserAction = onUserAction
        }
    }

    /// Asked before a PlayPause is carried out; false drops it (an echo of a cork request, see the audio session).
    public var allowsPlayPause: (() -> Bool)? {
        didSet { mpris.allowsPlayPause = allowsPlayPause }
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
    public func refreshPlaylists() { mpris.refreshPlaylists() }

    /// Exports app.reprise.Library1 over `library`, announcing its properties when they change.
    public func attachLibrary(_ library: LibraryAccess) {
        let interface = LibraryInterface(library: library, playlists: playlists,
                                         refreshPlaylists: { [mpris] in mpris.refreshPlaylists() }, player: player)
        interface.onUserAction = { [unowned self] in onUserAction?($0) }
        do {
            try bus.export(Library1Export(interface), at: RepriseObjects.ownPath)
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
        let tree = MediaServerTree(library: library, playlists: playlists) { [mpris] in mpris.refreshPlaylists() }
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
        mpris.onPlaylistsChanged = { [unowned bus] edited in
            let playlists = MediaServerTree.root + "/Playlists"
            for path in [MediaServerTree.root, playlists] + edited.map({ playlists + "/" + MediaServerTree.encode($0.id) }) {
                try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
            }
        }
        announcer.watch(Library1Export.interface, at: RepriseObjects.ownPath, names: Library1Export.announcedProperties) {
            try? interface.value(of: $0)
        }
        var lastOutline = library.outline
        library.onChange = { [unowned self] in
            announcer.announce([Library1Export.interface])
            // MediaServer2 clients hear that the top containers changed.
            guard library.outline != lastOutline else { return }
            lastOutline = library.outline
            for path in [MediaServerTree.root] + ["Artists", "Albums", "Genres"].map({ MediaServerTree.root + "/" + $0 }) {
                try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
            }
        }
    }

    /// Exports app.reprise.Scrobble1 over `control`, announcing its properties when they change.
    public func attachScrobbling(_ control: ScrobbleControl) throws(DBusError) {
        let interface = ScrobbleInterface(control: control)
        try bus.export(Scrobble1Export(interface), at: RepriseObjects.ownPath)
        announcer.watch(Scrobble1Export.interface, at: RepriseObjects.ownPath, names: Scrobble1Export.announcedProperties) {
            try? interface.value(of: $0)
        }
        control.onChange = { [unowned self] in announcer.announce([Scrobble1Export.interface]) }
    }

    /// Offers the video window through the root interface (Fullscreen, Raise) and app.reprise.Video1.
    public func attachVideo(_ control: VideoControl) throws(DBusError) {
        mpris.attachWindow(control) { [unowned self] in announceVideo() }
        let video = VideoInterface(control: control, player: player) { [unowned self] in announceVideo() }
        try bus.export(Video1Export(video), at: RepriseObjects.ownPath)
        announcer.watch(Video1Export.interface, at: RepriseObjects.ownPath, names: Video1Export.announcedProperties) { try? video.value(of: $0) }
        followingPlayer.insert(Video1Export.interface)
        videoInterface = video
        controlsInterface.video = control
    }

    /// Offers the audio session through app.reprise.AudioSession1; the interface returned sends its signals.
    public func attachAudioSession(_ control: AudioSessionControl) throws(DBusError) -> AudioSessionInterface {
        let interface = AudioSessionInterface(control: control, signals: AudioSession1Signals(bus: bus, path: RepriseObjects.ownPath),
                                              log: log) { [unowned self] in announcer.announce([AudioSession1Export.interface]) }
        try bus.export(AudioSession1Export(interface), at: RepriseObjects.ownPath)
        announcer.watch(AudioSession1Export.interface, at: RepriseObjects.ownPath, names: AudioSession1Export.announcedProperties) {
            try? interface.value(of: $0)
        }
        return interface
    }

    /// Announces what changed on the root and video interfaces (call after the video state changes).
    public func announceVideo() {
        announcer.announce([Video1Export.interface, MPRIS.rootInterface, Controls1Export.interface])
    }

    public func playerDidChange() {
        if announcer.announce(followingPlayer).contains(MPRIS.playerInterface) { log.debug("PropertiesChanged on the Player") }
    }

    public func playerDidSeek(toMicroseconds microseconds: Int64) { mpris.playerDidSeek(toMicroseconds: microseconds) }

    public func playerTrackListDidChange(_ changes: [TrackListChange]) { mpris.playerTrackListDidChange(changes) }
}

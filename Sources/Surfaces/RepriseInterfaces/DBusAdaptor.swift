import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// Everything Reprise offers on the bus for one ``Player``: the MPRIS interfaces (``MPRISExport``), Reprise's own
/// (app.reprise.*: controls, sound, chapters, sleep, and once attached the audio session, video and library) and
/// the desktop exports (GNOME Shell's and KRunner's search, MediaServer2). One ``PropertyAnnouncer`` keeps clients
/// told of all of them: one PropertiesChanged per interface per ``Change`` from the feed, carrying exactly what
/// changed; only the interfaces that follow a part the change names are read again.
public final class DBusAdaptor: ChangeListener {
    public typealias Identity = MPRISExport.Identity

    private let bus: any ObjectBus
    private let player: Player
    private let log: Log
    private let playlists: PlaylistLibrary
    private let mpris: MPRISExport
    private let controlsInterface: ControlsInterface
    private let announcer: PropertyAnnouncer
    private let remote: RemoteControl
    private var libraryInterface: LibraryInterface?
    private var desktopSearch: DesktopSearch?
    private var mediaServer: MediaServerTree?
    private var videoInterface: VideoInterface?
    /// - Parameter remote: carries out every transport or track request from a client (the audio policy told
    ///   first, and asked before a PlayPause).
    public init(bus: any ObjectBus, player: Player, playlists: PlaylistLibrary, identity: Identity,
                remote: RemoteControl, log: Log, onQuit: @escaping () -> Void) throws(DBusError) {
        self.bus = bus
        self.player = player
        self.log = log
        self.playlists = playlists
        self.remote = remote
        announcer = PropertyAnnouncer(bus: bus)
        mpris = try MPRISExport(bus: bus, player: player, playlists: playlists, identity: identity, announcer: announcer,
                                remote: remote, log: log, onQuit: onQuit)
        controlsInterface = ControlsInterface(player: player, remote: remote)
        let sound = SoundInterface(player: player), chapters = ChaptersInterface(player: player), sleep = SleepInterface(player: player)
        try bus.export(Controls1Export(controlsInterface), at: RepriseObjects.ownPath)
        try bus.export(Sound1Export(sound), at: RepriseObjects.ownPath)
        try bus.export(Chapters1Export(chapters), at: RepriseObjects.ownPath)
        try bus.export(Sleep1Export(sleep), at: RepriseObjects.ownPath)
        let lyrics = LyricsInterface(player: player)
        try bus.export(Lyrics1Export(lyrics), at: RepriseObjects.ownPath)
        announcer.watch(Sound1Export.description, at: RepriseObjects.ownPath) { try? sound.value(of: $0) }
        announcer.watch(Chapters1Export.description, at: RepriseObjects.ownPath) {
            try? chapters.value(of: $0)
        }
        // Lines are announced when other lyrics were found or forgotten (a serial says so), not compared line by
        // line after every event.
        announcer.watch(Lyrics1Export.description, at: RepriseObjects.ownPath) { [player] name in
            name == "Lines" ? .uint64(UInt64(player.lyricsSerial)) : try? lyrics.value(of: name)
        }
        // A new timer is announced (its kind and serial decide), not the time left as it counts down.
        announcer.watch(Sleep1Export.description, at: RepriseObjects.ownPath) { _ in
            .string(sleep.announcementKey ?? "off")
        }
        announcer.watch(Controls1Export.description, at: RepriseObjects.ownPath) {
            [controlsInterface] in try? controlsInterface.value(of: $0)
        }
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
                                         refreshPlaylists: { [mpris] in mpris.refreshPlaylists() }, player: player,
                                         remote: remote)
        do {
            try bus.export(Library1Export(interface), at: RepriseObjects.ownPath)
        } catch {
            return log.warning("could not export the library: \(error)")
        }
        libraryInterface = interface
        let search = DesktopSearch(library: library, player: player, remote: remote, log: log)
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
        announcer.watch(Library1Export.description, at: RepriseObjects.ownPath) {
            try? interface.value(of: $0)
        }
        attachedLibrary = library
        lastOutline = library.outline
    }
    private var attachedLibrary: LibraryAccess?
    private var lastOutline = LibraryOutline()

    /// MediaServer2 clients hear that the playlists container and the playlists written again changed.
    private func playlistsChanged(edited: [String]) {
        guard mediaServer != nil else { return }
        let playlists = MediaServerTree.root + "/Playlists"
        for path in [MediaServerTree.root, playlists] + edited.map({ playlists + "/" + MediaServerTree.encode($0) }) {
            try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
        }
    }

    /// MediaServer2 clients hear that the top containers changed.
    private func libraryChanged() {
        guard let library = attachedLibrary, library.outline != lastOutline else { return }
        lastOutline = library.outline
        for path in [MediaServerTree.root] + ["Artists", "Albums", "Genres"].map({ MediaServerTree.root + "/" + $0 }) {
            try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
        }
    }

    /// Exports app.reprise.Scrobble1 over `control`, announcing its properties when they change.
    public func attachScrobbling(_ control: ScrobbleControl) throws(DBusError) {
        let interface = ScrobbleInterface(control: control)
        try bus.export(Scrobble1Export(interface), at: RepriseObjects.ownPath)
        announcer.watch(Scrobble1Export.description, at: RepriseObjects.ownPath) {
            try? interface.value(of: $0)
        }
    }

    /// Offers the MPD server's addresses and client count through app.reprise.MPDServer1 (read on demand).
    public func attachMPDServer(_ status: MPDServerStatus) throws(DBusError) {
        try bus.export(MPDServer1Export(MPDServerInterface(status: status)), at: RepriseObjects.ownPath)
    }

    /// Offers the video window through the root interface (Fullscreen, Raise) and app.reprise.Video1.
    public func attachVideo(_ control: VideoControl) throws(DBusError) {
        mpris.attachWindow(control) { [feed = player.feed] in feed.publish(.video) }
        let video = VideoInterface(control: control, player: player) { [feed = player.feed] in feed.publish(.video) }
        try bus.export(Video1Export(video), at: RepriseObjects.ownPath)
        announcer.watch(Video1Export.description, at: RepriseObjects.ownPath) { try? video.value(of: $0) }
        videoInterface = video
        controlsInterface.video = control
    }

    /// Offers the audio session through app.reprise.AudioSession1; the interface returned sends its signals.
    public func attachAudioSession(_ control: AudioSessionControl) throws(DBusError) -> AudioSessionInterface {
        let interface = AudioSessionInterface(control: control, signals: AudioSession1Signals(bus: bus, path: RepriseObjects.ownPath),
                                              log: log) { [feed = player.feed] in feed.publish(.audioSession) }
        try bus.export(AudioSession1Export(interface), at: RepriseObjects.ownPath)
        announcer.watch(AudioSession1Export.description, at: RepriseObjects.ownPath) {
            try? interface.value(of: $0)
        }
        return interface
    }

    /// Seeked first, then the track list's signals, then PropertiesChanged on each interface that follows a part
    /// the change names.
    public func didChange(_ change: Change) {
        if let position = change.seekedToMicroseconds { mpris.playerDidSeek(toMicroseconds: position) }
        if !change.queueEdits.isEmpty { mpris.playerTrackListDidChange(change.queueEdits) }
        if change.aspects.contains(.library) { libraryChanged() }
        if change.aspects.contains(.storedPlaylists) { playlistsChanged(edited: change.editedPlaylists) }
        if announcer.announce(change.aspects).contains(MPRIS.playerInterface) {
            log.debug("PropertiesChanged on the Player")
        }
    }
}

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

    private let bus: Bus
    private let player: Player
    private let log: Log
    private let root: RootInterface
    private let playerInterface: PlayerInterface
    private let trackListInterface: TrackListInterface
    private let playlistsInterface: PlaylistsInterface
    private let playlists: PlaylistLibrary
    private let controlsInterface: ControlsInterface
    private let soundInterface: SoundInterface
    private let chaptersInterface: ChaptersInterface
    private let sleepInterface: SleepInterface
    private var announcedChapters = AnnouncedProperties([]) { _ in nil }
    private var libraryInterface: LibraryInterface?
    private var desktopSearch: DesktopSearch?
    private var mediaServer: MediaServerTree?
    private var announcedLibrary = AnnouncedProperties([]) { _ in nil }
    /// The sleep timer last announced: its kind and serial (nil: none).
    private var announcedSleep: String?
    private var videoInterface: VideoInterface?
    private var announcedRoot = AnnouncedProperties([]) { _ in nil }
    private var announcedControls = AnnouncedProperties([]) { _ in nil }
    private var announcedSound = AnnouncedProperties([]) { _ in nil }
    private var announced = AnnouncedProperties([]) { _ in nil }

    public init(bus: Bus, player: Player, playlists: PlaylistLibrary, identity: Identity, log: Log,
                onQuit: @escaping () -> Void) throws(DBusError) {
        self.bus = bus
        self.player = player
        self.log = log
        self.playlists = playlists
        root = RootInterface(identity: identity, onQuit: onQuit)
        playerInterface = PlayerInterface(player: player)
        try bus.export(MPRIS.root, at: MPRIS.objectPath, implementation: root)
        try bus.export(MPRIS.player, at: MPRIS.objectPath, implementation: playerInterface)
        trackListInterface = TrackListInterface(player: player)
        try bus.export(MPRIS.trackList, at: MPRIS.objectPath, implementation: trackListInterface)
        controlsInterface = ControlsInterface(player: player)
        try bus.export(ControlsNames.description, at: MPRIS.repriseObjectPath, implementation: controlsInterface)
        soundInterface = SoundInterface(player: player)
        try bus.export(SoundNames.description, at: MPRIS.repriseObjectPath, implementation: soundInterface)
        chaptersInterface = ChaptersInterface(player: player)
        try bus.export(ChaptersNames.description, at: MPRIS.repriseObjectPath, implementation: chaptersInterface)
        sleepInterface = SleepInterface(player: player)
        try bus.export(SleepNames.description, at: MPRIS.repriseObjectPath, implementation: sleepInterface)
        playlistsInterface = PlaylistsInterface(library: playlists, player: player, log: log)
        try bus.export(MPRIS.playlists, at: MPRIS.objectPath, implementation: playlistsInterface)
        playlistsInterface.announce = { [unowned bus, log] member, arguments in
            do {
                try bus.emitSignal(path: MPRIS.objectPath, interface: MPRIS.playlistsInterface, member: member, arguments)
            } catch {
                log.warning("could not send \(member): \(error)")
            }
        }
        playlistsInterface.announceProperties = { [unowned bus] names in
            try? bus.emitPropertiesChanged(path: MPRIS.objectPath, interface: MPRIS.playlistsInterface, names: names)
        }
        announced = AnnouncedProperties(MPRIS.announcedPlayerProperties) { [playerInterface] in try? playerInterface.currentValue(of: $0) }
        announcedControls = AnnouncedProperties(ControlsInterface.propertyNames) { [controlsInterface] in try? controlsInterface.get($0) }
        announcedSound = AnnouncedProperties(SoundInterface.propertyNames) { [soundInterface] in try? soundInterface.get($0) }
        announcedChapters = AnnouncedProperties(ChaptersInterface.propertyNames) { [chaptersInterface] in try? chaptersInterface.get($0) }
        playerInterface.announced = { [unowned self] name in announced.values[name] }
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
            try bus.export(LibraryNames.description, at: MPRIS.repriseObjectPath, implementation: interface)
        } catch {
            return log.warning("could not export the library: \(error)")
        }
        libraryInterface = interface
        let search = DesktopSearch(library: library, player: player, log: log)
        search.onUserAction = { [unowned self] in onUserAction?($0) }
        desktopSearch = search
        do {
            try bus.export(GnomeSearchProvider.description, at: GnomeSearchProvider.objectPath, implementation: GnomeSearchProvider(search: search))
            try bus.export(KRunnerProvider.description, at: KRunnerProvider.objectPath, implementation: KRunnerProvider(search: search))
        } catch {
            log.warning("could not export the desktop search providers: \(error)")
        }
        // The standard browsing interface, under a name of its own.
        let tree = MediaServerTree(library: library, playlists: playlists) { [playlistsInterface] in playlistsInterface.refresh() }
        do {
            for name in [MediaServerTree.objectInterface, MediaServerTree.containerInterface, MediaServerTree.itemInterface] {
                try bus.exportTree(MediaServerInterface.description(name), under: MediaServerTree.root,
                                   implementation: MediaServerInterface(tree: tree, interface: name))
            }
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
                try? bus.emitSignal(path: path, interface: MediaServerTree.containerInterface, member: "Updated", [])
            }
        }
        announcedLibrary = AnnouncedProperties(LibraryInterface.propertyNames) { [interface] in try? interface.get($0) }
        var lastOutline = library.outline
        library.onChange = { [unowned self] in
            let changed = announcedLibrary.refresh()
            if !changed.isEmpty {
                try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: LibraryNames.interface, names: changed)
            }
            // MediaServer2 clients hear that the top containers changed.
            guard library.outline != lastOutline else { return }
            lastOutline = library.outline
            for path in [MediaServerTree.root] + ["Artists", "Albums", "Genres"].map({ MediaServerTree.root + "/" + $0 }) {
                try? bus.emitSignal(path: path, interface: MediaServerTree.containerInterface, member: "Updated", [])
            }
        }
    }

    /// Offers the video window through the root interface (Fullscreen, Raise) and app.reprise.Video1.
    public func attachVideo(_ control: VideoControl) throws(DBusError) {
        root.video = control
        root.onFullscreenSet = { [unowned self] in announceVideo() }
        videoInterface = try VideoInterface(bus: bus, control: control, player: player)
        announcedRoot = AnnouncedProperties(RootInterface.announcedProperties) { [root] in try? root.get($0) }
    }

    /// Announces what changed on the root and video interfaces (call after the video state changes).
    public func announceVideo() {
        videoInterface?.announceChanges()
        let changed = announcedRoot.refresh()
        guard !changed.isEmpty else { return }
        try? bus.emitPropertiesChanged(path: MPRIS.objectPath, interface: MPRIS.rootInterface, names: changed)
    }

    public func playerDidChange() {
        announceVideo()
        announceControls()
        let changed = announced.refresh()
        guard !changed.isEmpty else { return }
        log.debug("PropertiesChanged \(changed.joined(separator: ","))")
        do {
            try bus.emitPropertiesChanged(path: MPRIS.objectPath, interface: MPRIS.playerInterface, names: changed)
        } catch {
            log.warning("could not announce \(changed): \(error)")
        }
    }

    public func playerDidSeek(toMicroseconds microseconds: Int64) {
        log.debug("Seeked \(microseconds)")
        do {
            try bus.emitSignal(path: MPRIS.objectPath, interface: MPRIS.playerInterface, member: "Seeked", [.int64(microseconds)])
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
            let member: String, arguments: [DBusValue]
            switch change {
            case .added(let id, let after):
                guard let track = player.track(id: id) else { continue }
                member = "TrackAdded"
                arguments = [MetadataEncoding.encode(track), .objectPath(after.map(MPRIS.trackPath) ?? MPRIS.noTrackPath)]
                listChanged = true
            case .removed(let id):
                member = "TrackRemoved"
                arguments = [.objectPath(MPRIS.trackPath(forEntry: id))]
                listChanged = true
            case .replaced:
                member = "TrackListReplaced"
                arguments = [.objectPaths(player.trackIDs.map(MPRIS.trackPath)),
                             .objectPath(player.queue.current.map { MPRIS.trackPath(forEntry: $0.id) } ?? MPRIS.noTrackPath)]
                listChanged = true
            case .metadataChanged(let id):
                guard let track = player.track(id: id) else { continue }
                member = "TrackMetadataChanged"
                arguments = [.objectPath(MPRIS.trackPath(forEntry: id)), MetadataEncoding.encode(track)]
            }
            do {
                try bus.emitSignal(path: MPRIS.objectPath, interface: MPRIS.trackListInterface, member: member, arguments)
            } catch {
                log.warning("could not send \(member): \(error)")
            }
        }
        if listChanged {
            try? bus.emitPropertiesChanged(path: MPRIS.objectPath, interface: MPRIS.trackListInterface, names: ["Tracks"])
        }
    }

    /// One PropertiesChanged on app.reprise.Sound1 when ReplayGain or the gain applied changed, and one on
    /// app.reprise.Controls1 when the actions, layout or history changed.
    private func announceControls() {
        let sound = announcedSound.refresh()
        if !sound.isEmpty { try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: SoundNames.interface, names: sound) }
        let chapters = announcedChapters.refresh()
        if !chapters.isEmpty {
            try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: ChaptersNames.interface, names: chapters)
        }
        let sleep = player.sleepTimer.map { "\($0.kind.rawValue) \($0.serial)" }
        if sleep != announcedSleep {
            announcedSleep = sleep
            try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: SleepNames.interface, names: SleepInterface.propertyNames)
        }
        let changed = announcedControls.refresh()
        guard !changed.isEmpty else { return }
        try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: ControlsNames.interface, names: changed)
    }
}

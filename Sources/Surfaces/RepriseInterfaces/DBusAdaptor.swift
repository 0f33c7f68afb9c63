import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// Everything Reprise offers on the bus for one ``Player``: the MPRIS interfaces (``MPRISExport``) and Reprise's
/// own (app.reprise.*: controls, sound, chapters, lyrics, sleep, and the ``Surfaces`` built before it: the audio
/// session, video, scrobbling, the library, the MPD server). One ``PropertyAnnouncer`` keeps clients told of all of
/// them: one PropertiesChanged per interface per ``Change`` from the feed, carrying exactly what changed; only the
/// properties that follow a part the change names are read again.
public final class DBusAdaptor: ChangeListener {
    public typealias Identity = MPRISExport.Identity

    /// The parts of the service that have an interface of their own, each built before the adaptor; those left
    /// out are not offered.
    public struct Surfaces {
        public var audioSession: AudioSessionInterface?
        public var video: VideoControl?
        public var scrobbling: ScrobbleControl?
        public var library: LibraryExports?
        public var mpdServer: MPDServerStatus?

        public init(audioSession: AudioSessionInterface? = nil, video: VideoControl? = nil, scrobbling: ScrobbleControl? = nil,
                    library: LibraryExports? = nil, mpdServer: MPDServerStatus? = nil) {
            self.audioSession = audioSession
            self.video = video
            self.scrobbling = scrobbling
            self.library = library
            self.mpdServer = mpdServer
        }
    }

    private let log: Log
    private let mpris: MPRISExport
    private let announcer: PropertyAnnouncer

    /// - Parameter remote: carries out every transport or track request from a client (the audio policy told
    ///   first, and asked before a PlayPause).
    public init(bus: any ObjectBus, player: Player, playlists: PlaylistLibrary, identity: Identity, remote: RemoteControl,
                surfaces: Surfaces = .init(), log: Log, onQuit: @escaping () -> Void) throws(DBusError) {
        self.log = log
        announcer = PropertyAnnouncer(bus: bus)
        mpris = try MPRISExport(bus: bus, player: player, playlists: playlists, identity: identity, window: surfaces.video,
                                announcer: announcer, remote: remote, log: log, onQuit: onQuit)
        let path = RepriseObjects.ownPath
        let controls = ControlsInterface(player: player, remote: remote, video: surfaces.video)
        let sound = SoundInterface(player: player), chapters = ChaptersInterface(player: player), sleep = SleepInterface(player: player)
        let lyrics = LyricsInterface(player: player)
        try bus.export(Controls1Export(controls), at: path)
        try bus.export(Sound1Export(sound), at: path)
        try bus.export(Chapters1Export(chapters), at: path)
        try bus.export(Sleep1Export(sleep), at: path)
        try bus.export(Lyrics1Export(lyrics), at: path)
        announcer.watch(Sound1Export.description, at: path) { try? sound.value(of: $0) }
        announcer.watch(Chapters1Export.description, at: path) { try? chapters.value(of: $0) }
        // Lines are announced when other lyrics were found or forgotten (a serial says so), not compared line by
        // line after every event.
        announcer.watch(Lyrics1Export.description, at: path) { [player] name in
            name == "Lines" ? .uint64(UInt64(player.lyricsSerial)) : try? lyrics.value(of: name)
        }
        // A new timer is announced (its kind and serial decide), not the time left as it counts down.
        announcer.watch(Sleep1Export.description, at: path) { _ in .string(sleep.announcementKey ?? "off") }
        announcer.watch(Controls1Export.description, at: path) { try? controls.value(of: $0) }

        if let audioSession = surfaces.audioSession {
            try bus.export(AudioSession1Export(audioSession), at: path)
            announcer.watch(AudioSession1Export.description, at: path) { try? audioSession.value(of: $0) }
        }
        if let control = surfaces.video {
            let video = VideoInterface(control: control, player: player) { [feed = player.feed] in feed.publish(.video) }
            try bus.export(Video1Export(video), at: path)
            announcer.watch(Video1Export.description, at: path) { try? video.value(of: $0) }
        }
        if let library = surfaces.library {
            announcer.watch(Library1Export.description, at: path) { [interface = library.interface] in try? interface.value(of: $0) }
        }
        // Scrobbling and the MPD server's addresses are optional: the rest is offered without them.
        if let control = surfaces.scrobbling {
            let scrobbling = ScrobbleInterface(control: control)
            do throws(DBusError) {
                try bus.export(Scrobble1Export(scrobbling), at: path)
                announcer.watch(Scrobble1Export.description, at: path) { try? scrobbling.value(of: $0) }
            } catch {
                log.warning("could not export scrobbling: \(error)")
            }
        }
        if let status = surfaces.mpdServer {
            do throws(DBusError) { try bus.export(MPDServer1Export(MPDServerInterface(status: status)), at: path) } catch {
                log.warning("could not export the MPD server's interface: \(error)")
            }
        }
    }

    /// Seeked first, then the track list's signals, then PropertiesChanged on each interface with a property that
    /// follows a part the change names.
    public func didChange(_ change: Change) {
        if let position = change.seekedToMicroseconds { mpris.playerDidSeek(toMicroseconds: position) }
        if !change.queueEdits.isEmpty { mpris.playerTrackListDidChange(change.queueEdits) }
        if change.aspects.contains(.storedPlaylists) { mpris.playlistsDidChange(change.playlists) }
        if announcer.announce(change.aspects).contains(MPRIS.playerInterface) {
            log.debug("PropertiesChanged on the Player")
        }
    }
}

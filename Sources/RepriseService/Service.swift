import Dispatch
import Glibc
import GStreamerKit
import LoopKit
import MPRIS
import RepriseInterfaces
import PosixFiles
import PulseKit
import RepriseCore
import SDBus

/// The composition root: builds the components (engine and player, video, the D-Bus export, state, metadata, the
/// audio session, systemd), wires their events, starts them in that order on one event loop and, on Quit, SIGTERM,
/// SIGINT or a lost bus, stops them in reverse, draining what each still has to send.
public enum Service {
    /// Runs the service until it is asked to stop; returns the exit status.
    public static func run(_ options: Options) -> Int32 {
        let log = Log(verbose: options.verbose, write: writeToStandardError)
        guard let loop = EventLoop() else {
            log.warning("could not create the event loop")
            return 1
        }
        // SIGTERM and SIGINT are taken first of all: one that arrives while Reprise is still starting (GStreamer's
        // registry, the state) stops it once it has started, with the final save, instead of killing it.
        var started = false
        var stopRequested: String?
        let lifecycle = Lifecycle(loop: loop, log: log)
        func stop(_ reason: String) {
            guard started else { return stopRequested = stopRequested ?? reason }
            lifecycle.stop(reason: reason) { loop.quit() }
        }
        loop.onSignal(SIGTERM) { stop("SIGTERM") }
        loop.onSignal(SIGINT) { stop("SIGINT") }
        guard let audioSettings = audioSettings(options, log: log) else { return 2 }
        GStreamer.initialize()
        let makePlaybin = { Playbin(role: "music", applicationName: "Reprise", applicationID: "reprise", iconName: "reprise") }
        guard let playbin = makePlaybin() else {
            log.warning("GStreamer's playbin is missing (install gstreamer1.0-plugins-base)")
            return 1
        }
        var exitStatus: Int32 = 0

        // The engine and the player; video (window, sidecar subtitles) is set up before the first stream loads.
        // A second, audio-only pipeline for crossfades, made when the first one is needed.
        let engine = GStreamerEngine(playbin: playbin, timers: loop, log: log, makeSpare: makePlaybin)
        engine.setStreamRole(audioSettings.category.streamRole) // before the first stream opens
        let fileSystem = PosixFileSystem()
        let player = Player(engine: engine, log: log, fileSystem: fileSystem)
        if let work = BackgroundWork(loop: loop, label: "reprise.resolver") {
            player.resolver = BackgroundResolver(work: work, fileSystem: fileSystem)
        }
        engine.player = player
        player.setReplayGain(audioSettings.replayGain)
        player.setCrossfade(audioSettings.crossfade)
        let video = VideoController(playbin: playbin, player: player, speeds: audioSettings.speeds, loop: loop, log: log)
        engine.subtitleFor = { MediaSidecar.subtitleURI(for: $0, in: fileSystem) }
        engine.onLoad = { video.streamWillLoad() }
        engine.onStreamReady = { video.streamReady(subtitleURI: $0) }
        engine.onBuffering = { video.buffering(percent: $0) }
        let store = StateStore.standard()
        let saved = store.load(log: log, fileSystem: fileSystem)
        let media = options.media.isEmpty ? nil
            : MediaLocation.expand(options.media, relativeTo: PosixFileSystem.currentDirectory(), in: fileSystem)
        let playback = PlaybackComponent(player: player, media: media, saved: saved, log: log) { done in
            engine.whenSettled(timeoutMilliseconds: 2000, done) // a pipeline stuck on the sound server never holds up quitting
        }

        // The bus: Reprise's objects, the other players, the audio session's interface.
        let busComponent: BusComponent, service: DBusAdaptor, audioInterface: AudioSessionInterface
        let watcher: PlayerWatcher, audio: AudioSessionController
        do {
            let bus = try Bus.session()
            try bus.attach(toEvent: loop.sdEvent)
            let identity = DBusAdaptor.Identity(name: "Reprise", desktopEntry: "reprise", supportedMimeTypes: {
                SupportedMediaTypes.playable(canDemux: GStreamer.demuxerAccepts, canDecode: GStreamer.decoderAccepts)
            })
            service = try DBusAdaptor(bus: bus, player: player, playlists: playlistLibrary(fileSystem),
                                       identity: identity, log: log) { stop("Quit") }
            busComponent = BusComponent(bus: bus, log: log) {
                exitStatus = 1
                stop("lost the session bus")
            }
            watcher = PlayerWatcher(bus: bus, log: log)
            audio = AudioSessionController(player: player, engine: engine, pulse: PulseClient(applicationName: "Reprise"),
                                           watcher: watcher, settings: audioSettings, changes: ChangedStreamsStore.standard(),
                                           log: log)
            audioInterface = try service.attachAudioSession(audio)
            audio.interface = audioInterface
            try service.attachVideo(video)
            try watcher.start()
            // Screen locks, as GNOME and KDE announce them on the session bus.
            for screenSaver in ["org.gnome.ScreenSaver", "org.freedesktop.ScreenSaver"] {
                try bus.addMatch("type='signal',interface='\(screenSaver)',member='ActiveChanged'") { message in
                    if case .bool(let locked)? = message.arguments.first { audio.sessionLockChanged(locked) }
                }
            }
        } catch {
            log.warning("session bus: \(error)")
            return 1
        }
        let saver = StateSaver(store: store, player: player, loop: loop, log: log, keepsState: { busComponent.ownsPlainName },
                               dirtyAtStart: media != nil)
        let art = ArtCache.standard()
        let library = library(audioSettings, fileSystem: fileSystem, loop: loop, art: art, log: log)
        if let library { service.attachLibrary(library) }
        DispatchQueue.global(qos: .utility).async { art.trim() } // off the loop: it reads the whole cache directory
        let reader = MetadataReader(player: player, art: art, fileSystem: fileSystem, loop: loop, log: log)
        let systemd = SystemdComponent(loop: loop) { "serving \(busComponent.ownedName)" }
        let listening = ListeningClock(player: player, timers: loop, work: BackgroundWork(loop: loop, label: "reprise.chapters"),
                                       log: log)

        // Events between them: a request's audio-policy side, and what follows every player change.
        video.onUserAction = { audio.userActed($0) }
        video.onChange = { service.announceVideo() }
        service.onUserAction = { audio.userActed($0) }
        service.allowsPlayPause = { audio.allowsPlayPause() }
        let followers: [PlayerFollower] = [SavedStateFollower(player: player, saver: saver), reader, audio, video, listening]
        player.onChange = { for follower in followers { follower.playerChanged() } }
        let playlists = PeriodicComponent(name: "playlists", loop: loop, everyMilliseconds: 5000) { service.refreshPlaylists() }
        // The library after the bus: its first pass runs in the background once the name is owned.
        let libraryComponent: [ServiceComponent] = library.map { [LibraryComponent(library: $0, service: service)] } ?? []

        // Playback first: the pipeline prerolls on GStreamer's threads while the rest starts.
        do {
            try lifecycle.start([playback, video, busComponent, saver, reader, audio, listening, playlists] + libraryComponent + [systemd])
        } catch {
            return 1
        }
        audio.playerChanged()
        log.info("ready as \(busComponent.ownedName) with \(player.queue.count) queued")
        started = true
        if let reason = stopRequested { loop.once(afterMilliseconds: 0) { stop(reason) } }
        loop.run()
        withExtendedLifetime((service, audioInterface)) {}
        return exitStatus
    }

    /// The config file's audio settings with the command line's over them; nil (after logging why) when invalid.
    private static func audioSettings(_ options: Options, log: Log) -> AudioSettings? {
        let path = XDGDirectories.configHome + "/reprise/config"
        var settings = AudioSettings()
        do throws(PlayerError) {
            let files = PosixFileSystem()
            if let bytes = files.contents(of: path, limit: 1 << 20) {
                settings = try AudioSettings(config: String(decoding: bytes, as: UTF8.self))
            } else if files.kind(of: path) != .missing {
                log.warning("\(path): not a regular file of at most 1 MiB; using the defaults")
            }
        } catch {
            log.warning("\(path): \(error.message); using the defaults")
        }
        do throws(PlayerError) {
            for (key, value) in options.audio { try settings.set(key, value) }
        } catch {
            log.warning(error.message)
            return nil
        }
        return settings
    }

    /// Playlist files in `$XDG_MUSIC_DIR/Playlists` and `$XDG_DATA_HOME/reprise/playlists`.
    private static func playlistLibrary(_ fileSystem: FileSystem) -> PlaylistLibrary {
        PlaylistLibrary(directories: [musicDirectory(fileSystem) + "/Playlists", XDGDirectories.dataHome + "/reprise/playlists"],
                        fileSystem: fileSystem)
    }

    /// The user's music folder (`$XDG_MUSIC_DIR`, else `user-dirs.dirs`, else ~/Music).
    private static func musicDirectory(_ fileSystem: FileSystem) -> String {
        let userDirs = fileSystem.contents(of: XDGDirectories.configHome + "/user-dirs.dirs", limit: 1 << 16)
        return XDGDirectories.variable("XDG_MUSIC_DIR")
            ?? UserDirectories.musicDirectory(userDirs: userDirs.map { String(decoding: $0, as: UTF8.self) }, home: XDGDirectories.home)
    }

    /// The library over the configured music folders (`~` expanded), or the user's music folder.
    private static func library(_ settings: AudioSettings, fileSystem: FileSystem, loop: EventLoop, art: ArtCache, log: Log) -> LibraryService? {
        let folders = (settings.libraryFolders ?? [musicDirectory(fileSystem)]).map { folder in
            folder == "~" ? XDGDirectories.home : folder.hasPrefix("~/") ? XDGDirectories.home + folder.dropFirst() : folder
        }.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        return LibraryService(folders: folders, databasePath: XDGDirectories.dataHome + "/reprise/library.db", art: art,
                              fileSystem: fileSystem, loop: loop, log: log)
    }
}

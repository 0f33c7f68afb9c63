import Glibc
import GStreamerKit
import MPRIS
import PosixFiles
import RepriseCore
import SDBus

/// Wires the layers together: GStreamer engine → player core → MPRIS adaptor on the session bus, all on one event loop.
enum Service {
    static let wellKnownName = MPRIS.busNamePrefix + "reprise"

    static func run(_ options: Options) -> Int32 {
        let log = Log(verbose: options.verbose, write: writeToStandardError)
        guard let audioSettings = audioSettings(options, log: log) else { return 2 }
        GStreamer.initialize()
        guard let playbin = Playbin(role: "music", applicationName: "Reprise", iconName: "reprise") else {
            log.warning("GStreamer's playbin is missing (install gstreamer1.0-plugins-base)")
            return 1
        }
        let engine = GStreamerEngine(playbin: playbin, log: log)
        // The category's stream role, before the first stream opens (the audio session comes up later).
        engine.setStreamRole(audioSettings.category.streamRole)
        let fileSystem = PosixFileSystem()
        let player = Player(engine: engine, log: log, fileSystem: fileSystem)
        engine.player = player
        // Video (window, sidecar subtitles) is set up before the first stream loads.
        let video = VideoController(playbin: playbin, player: player, speeds: audioSettings.speeds, log: log)
        engine.subtitleFor = { MediaSidecar.subtitleURI(for: $0, in: fileSystem) }
        engine.onLoad = { video.streamWillLoad() }

        let expanded = MediaLocation.expand(options.media, relativeTo: PosixFileSystem.currentDirectory(), in: fileSystem)
        expanded.problems.forEach { log.warning("skipping \($0)") }
        let store = StateStore.standard()
        let saved = store.load(log: log)
        if options.media.isEmpty {
            if let saved, !saved.uris.isEmpty {
                log.info("restoring \(saved.uris.count) queued, paused at \(saved.positionMicroseconds / 1_000_000) s")
                player.restore(saved)
            }
        } else {
            // New media replaces the saved queue, but long files still resume where they were left.
            if let saved { player.restoreResumePositions(saved.resumePositions) }
            player.enqueue(expanded.uris, directoryGroups: expanded.directoryGroups)
            // Start the pipeline first: it prerolls on GStreamer's threads while we connect to the bus.
            if !player.queue.isEmpty { player.play() }
        }

        guard let loop = EventLoop() else {
            log.warning("could not create the event loop")
            return 1
        }
        let bus: Bus
        let service: MPRISService
        let name: String
        var lostBus = false
        // Quit, SIGTERM, SIGINT and a lost bus all stop the same way (set up once everything exists, below).
        var stop: (String) -> Void = { _ in loop.quit() }
        do {
            bus = try Bus.session()
            try bus.attach(toEvent: loop.sdEvent)
            let identity = MPRISService.Identity(name: "Reprise", desktopEntry: "reprise",
                                                 supportedMimeTypes: {
                SupportedMediaTypes.playable(canDemux: GStreamer.demuxerAccepts, canDecode: GStreamer.decoderAccepts)
            })
            service = try MPRISService(bus: bus, player: player, playlists: playlistLibrary(fileSystem), fileSystem: fileSystem,
                                       identity: identity, log: log) { stop("Quit") }
            name = try claimName(on: bus)
            try bus.onDisconnect {
                lostBus = true
                stop("lost the session bus")
            }
        } catch {
            log.warning("session bus: \(error)")
            return 1
        }
        log.info("ready as \(name) with \(player.queue.count) queued")
        let systemd = SystemdNotifier()
        systemd.ready(status: "serving \(name)")
        systemd.startWatchdog(on: loop)
        // Only the instance that owns the plain name keeps the saved state.
        let keepsState = name == wellKnownName
        let saver = keepsState ? StateSaver(store: store, player: player, loop: loop, log: log) : nil
        saver?.start()
        if !options.media.isEmpty { saver?.markDirty() }
        let reader = MetadataReader(player: player, art: ArtCache.standard(), fileSystem: fileSystem, log: log)
        let audio = AudioSessionController(player: player, engine: engine, settings: audioSettings,
                                           changes: ChangedStreamsStore.standard(), log: log)
        do {
            let watcher = PlayerWatcher(bus: bus, log: log)
            try watcher.start()
            audio.watcher = watcher
            audio.interface = try AudioSessionInterface(bus: bus, control: audio, log: log)
            // Screen locks, as GNOME and KDE announce them on the session bus.
            for screenSaver in ["org.gnome.ScreenSaver", "org.freedesktop.ScreenSaver"] {
                try bus.addMatch("type='signal',interface='\(screenSaver)',member='ActiveChanged'") { message in
                    if case .bool(let locked)? = message.arguments.first { audio.sessionLockChanged(locked) }
                }
            }
        } catch {
            log.warning("audio session interface: \(error)")
        }
        video.start(on: loop)
        engine.onStreamReady = { video.streamReady(subtitleURI: $0) }
        engine.onBuffering = { video.buffering(percent: $0) }
        video.onUserAction = { audio.userActed($0) }
        video.onChange = { service.announceVideo() }
        do {
            try service.attachVideo(video)
        } catch {
            log.warning("video interface: \(error)")
        }
        service.onUserAction = { audio.userActed($0) }
        service.allowsPlayPause = { audio.allowsPlayPause() }
        player.onChange = {
            if player.lastChangeAffectsSavedState { saver?.markDirty() }
            reader.pump()
            audio.playerChanged()
            video.playerChanged()
        }
        audio.start()
        audio.playerChanged()
        reader.pump()
        loop.every(milliseconds: 5000) { service.refreshPlaylists() }
        // Stopping drains: the state is taken as it is, playback stops (the policy puts back what it changed in other
        // apps), and the loop keeps running until the sound server has applied that, for two seconds at most.
        var finalState: SavedState?
        stop = { reason in
            guard finalState == nil else { return }
            log.info("\(reason): stopping")
            systemd.stopping()
            finalState = player.savedState
            player.stop()
            audio.stop { loop.quit() }
            loop.once(afterMilliseconds: 2000) {
                log.warning("the sound server did not confirm in time; quitting anyway")
                loop.quit()
            }
        }
        loop.onSignal(SIGTERM) { stop("SIGTERM") }
        loop.onSignal(SIGINT) { stop("SIGINT") }
        loop.run()

        if let saver, !saver.finish(with: finalState ?? player.savedState) {
            log.warning("could not save the state to \(store.path)")
        }
        withExtendedLifetime(service) {}
        if lostBus { return 1 }
        bus.releaseName(name)
        bus.flush()
        log.info("released \(name)")
        return 0
    }

    /// The config file's audio settings with the command line's over them; nil (after logging why) when invalid.
    private static func audioSettings(_ options: Options, log: Log) -> AudioSettings? {
        let path = XDGDirectories.configHome + "/reprise/config"
        var settings = AudioSettings()
        do throws(PlayerError) {
            if let bytes = PosixFileSystem().contents(of: path, limit: 1 << 16) {
                settings = try AudioSettings(config: String(decoding: bytes, as: UTF8.self))
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
        let userDirs = fileSystem.contents(of: XDGDirectories.configHome + "/user-dirs.dirs", limit: 1 << 16)
        let music = XDGDirectories.variable("XDG_MUSIC_DIR")
            ?? UserDirectories.musicDirectory(userDirs: userDirs.map { String(decoding: $0, as: UTF8.self) }, home: XDGDirectories.home)
        return PlaylistLibrary(directories: [music + "/Playlists", XDGDirectories.dataHome + "/reprise/playlists"],
                               fileSystem: fileSystem)
    }

    /// Owns the plain name, or the per-process instance name when another player holds it.
    private static func claimName(on bus: Bus) throws(DBusError) -> String {
        if try bus.requestName(wellKnownName) { return wellKnownName }
        let instance = wellKnownName + ".instance\(getpid())"
        guard try bus.requestName(instance) else { throw DBusError.failed("\(instance) is taken") }
        return instance
    }
}

/// Writes `line` and a newline to file descriptor 2 in one call, so lines from one process never interleave.
@Sendable func writeToStandardError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

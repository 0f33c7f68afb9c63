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
        do {
            bus = try Bus.session()
            try bus.attach(toEvent: loop.sdEvent)
            let identity = MPRISService.Identity(name: "Reprise", desktopEntry: "reprise",
                                                 supportedMimeTypes: {
                SupportedMediaTypes.playable(canDemux: GStreamer.demuxerAccepts, canDecode: GStreamer.decoderAccepts)
            })
            service = try MPRISService(bus: bus, player: player, playlists: playlistLibrary(fileSystem), fileSystem: fileSystem,
                                       identity: identity, log: log) { loop.quit() }
            name = try claimName(on: bus)
            try bus.onDisconnect {
                log.warning("lost the session bus: quitting")
                lostBus = true
                loop.quit()
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
        let saver = keepsState ? StateSaver(store: store, player: player, log: log) : nil
        saver?.start(on: loop)
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
        loop.onSignal(SIGTERM) { log.info("SIGTERM: quitting"); loop.quit() }
        loop.onSignal(SIGINT) { log.info("SIGINT: quitting"); loop.quit() }
        loop.run()

        systemd.stopping()
        if keepsState && !store.save(player.savedState) { log.warning("could not save the state to \(store.path)") }
        player.stop()
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

/// Saves the state a second after anything changes (see ``markDirty()``), and every ten seconds while playing (the position).
final class StateSaver {
    private let store: StateStore
    private let player: Player
    private let log: Log
    private var dirty = false
    private var secondsSinceSave = 0
    private var lastSaveAt = -1.0

    init(store: StateStore, player: Player, log: Log) {
        self.store = store
        self.player = player
        self.log = log
    }

    func start(on loop: EventLoop) {
        loop.every(milliseconds: 1000) { [self] in tick() }
    }

    /// Something changed: saved at once when nothing was saved in the last second (a burst of changes then
    /// waits for the next tick), so a queue given at start-up is on disk right away.
    func markDirty() {
        dirty = true
        if monotonicSeconds() - lastSaveAt >= 1 { save() }
    }

    private func tick() {
        secondsSinceSave += 1
        guard dirty || (player.status == .playing && secondsSinceSave >= 10) else { return }
        save()
    }

    private func save() {
        lastSaveAt = monotonicSeconds()
        if store.save(player.savedState) {
            dirty = false
            secondsSinceSave = 0
        } else {
            log.warning("could not save the state to \(store.path)")
        }
    }
}

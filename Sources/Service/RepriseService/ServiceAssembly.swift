import GStreamerKit
import LoopKit
import MPRIS
import PosixFiles
import PulseKit
import RepriseCore
import RepriseLibrary
import RepriseInterfaces
import SDBus

/// The composition: every part of the service built and wired, and the components among them in start order —
/// playback first (the pipeline prerolls on GStreamer's threads while the rest starts), the bus, what follows the
/// player, the library once the name is owned, systemd last. Everything with a resource is a component, so
/// ``Lifecycle`` stops it: names released, matches removed, timers cancelled.
final class ServiceAssembly {
    struct Failure: Error { let message: String }

    let components: [ServiceComponent]
    let player: Player
    private let bus: BusComponent
    private let audio: AudioSessionController
    private let audioInterface: AudioSessionInterface

    /// The bus name owned, once started.
    var busName: String { bus.ownedName }

    /// - Parameter stop: asks the service to stop (a Quit, a lost bus with exit status 1).
    init(_ options: Options, settings: AudioSettings, loop: EventLoop, log: Log,
         stop: @escaping (_ reason: String, _ status: Int32) -> Void) throws(Failure) {
        GStreamer.initialize()
        let makePlaybin = { Playbin(role: "music", applicationName: "Reprise", applicationID: "reprise", iconName: "reprise") }
        guard let playbin = makePlaybin() else { throw Failure(message: "GStreamer's playbin is missing (install gstreamer1.0-plugins-base)") }

        // The engine and the player; video (window, sidecar subtitles) is set up before the first stream loads.
        // A second, audio-only pipeline for crossfades, made when the first one is needed.
        let fileSystem = PosixFileSystem()
        let engine = GStreamerEngine(playbin: playbin, timers: loop, events: StreamEvents(), log: log,
                                     subtitleFor: { MediaSidecar.subtitleURI(for: $0, in: fileSystem) }, makeSpare: makePlaybin)
        engine.setStreamRole(settings.category.streamRole) // before the first stream opens
        let feed = ChangeFeed()
        let resolver = BackgroundWork(loop: loop, label: "reprise.resolver").map { BackgroundResolver(work: $0, fileSystem: fileSystem) }
        let player = Player(engine: engine, log: log, fileSystem: fileSystem, feed: feed, resolver: resolver)
        engine.player = player
        player.setReplayGain(settings.replayGain)
        player.setCrossfade(settings.crossfade)
        player.setChapterSkip(settings.chapterSkip)
        player.setEqualizer(settings.equalizer)
        player.rendererPushRules = RendererPushRules(musicFolders: Self.musicFolders(settings, fileSystem: fileSystem),
                                                     allowsLocalAddresses: settings.rendererAllowsLocalAddresses,
                                                     lookUp: HostAddresses.lookUp)
        let store = StateStore.standard()
        let saved = store.load(log: log, fileSystem: fileSystem)
        let media = options.media.isEmpty ? nil
            : MediaLocation.expand(options.media, relativeTo: PosixFileSystem.currentDirectory(), in: fileSystem)
        let playback = PlaybackComponent(player: player, media: media, saved: saved, log: log) { done in
            engine.whenSettled(timeoutMilliseconds: 2000, done) // a pipeline stuck on the sound server never holds up quitting
        }

        // The bus; the audio policy, which every surface people act through tells of their requests.
        let bus: Bus
        do throws(DBusError) {
            bus = try Bus.session()
            try bus.attach(toEvent: loop.sdEvent)
        } catch {
            throw Failure(message: "session bus: \(error)")
        }
        let busComponent = BusComponent(bus: bus, log: log) { stop("lost the session bus", 1) }
        let watcher = PlayerWatcher(bus: bus, log: log)
        let audio = AudioSessionController(player: player, engine: engine, pulse: PulseClient(applicationName: "Reprise"),
                                           watcher: watcher, settings: settings, changes: ChangedStreamsStore.standard(), log: log)
        let audioInterface = AudioSessionInterface(control: audio, bus: bus, log: log) { feed.publish(.audioSession) }
        audio.interface = audioInterface
        audio.positionWatch = HeardPositionWatch(player: player, loop: loop, log: log)
        if let pipe = settings.snapcast.pipe {
            audio.stallWatch = OutputStallWatch(player: player, loop: loop, log: log, pipe: pipe) { _ in
                audioInterface.announceChanges()
                feed.publish(.audioSession)
            }
        }
        let screenLock = ScreenLockWatch(bus: bus) { audio.sessionLockChanged($0) }
        // What people ask, from every surface: the audio policy told first, then the player.
        let remote = RemoteControl(player: player, policy: audio)

        // What follows the player, and the optional surfaces, each before what offers it.
        let video = VideoController(playbin: playbin, player: player, remote: remote, streamEvents: engine.events,
                                    speeds: settings.speeds, loop: loop, log: log)
        let saver = StateSaver(store: store, player: player, loop: loop, log: log, keepsState: { busComponent.ownsPlainName },
                               dirtyAtStart: media != nil)
        let art = ArtCache.standard()
        let library = Self.library(settings, fileSystem: fileSystem, loop: loop, art: art, feed: feed, log: log)
        let reader = MetadataReader(player: player, art: art, fileSystem: fileSystem, loop: loop, log: log, index: library,
                                    work: BackgroundWork(loop: loop, label: "reprise.tags"))
        let systemd = SystemdComponent(loop: loop) { "serving \(busComponent.ownedName)" }
        let listening = ListeningClock(player: player, timers: loop, work: BackgroundWork(loop: loop, label: "reprise.chapters"),
                                       log: log)
        let scrobbler = Scrobbler(player: player, settings: settings.scrobble, timers: loop, loop: loop, log: log)
        let lyrics = LyricsReader(player: player, timers: loop, work: BackgroundWork(loop: loop, label: "reprise.lyrics", background: true),
                                  fileSystem: fileSystem, log: log)
        let playlistLibrary = Self.playlistLibrary(fileSystem, feed: feed)
        let storedPlaylists = MPDPlaylistFolder(library: playlistLibrary, fileSystem: fileSystem,
                                                work: BackgroundWork(loop: loop, label: "reprise.playlists"),
                                                newPlaylists: Self.ownPlaylistFolder)
        let mpd = MPDComponent(player: player, remote: remote, library: library, outputs: audio,
                               playlists: storedPlaylists,
                               files: MPDMusicFolderFiles(work: BackgroundWork(loop: loop, label: "reprise.covers", background: true),
                                                          fingerprintWork: BackgroundWork(loop: loop, label: "reprise.fingerprints", background: true)),
                               settings: settings.mpd,
                               musicFolder: Self.musicFolders(settings, fileSystem: fileSystem).first ?? XDGDirectories.home,
                               loop: loop, log: log) { stop("kill (MPD)", 0) }
        let libraryExports = library.flatMap { library -> LibraryExports? in
            do throws(DBusError) {
                return try LibraryExports(bus: bus, library: library, playlists: playlistLibrary, player: player, remote: remote, log: log)
            } catch {
                log.warning("could not export the library: \(error)")
                return nil
            }
        }

        // Reprise's objects on the bus, over all of the above.
        let adaptor: DBusAdaptor
        do throws(DBusError) {
            let identity = DBusAdaptor.Identity(name: "Reprise", desktopEntry: "reprise", supportedMimeTypes: {
                SupportedMediaTypes.playable(canDemux: GStreamer.demuxerAccepts, canDecode: GStreamer.decoderAccepts,
                                             aliases: SharedMIMEInfo.installedAliases(fileSystem: PosixFileSystem()))
            })
            let surfaces = DBusAdaptor.Surfaces(audioSession: audioInterface, video: video, scrobbling: scrobbler,
                                                library: libraryExports, mpdServer: mpd.isOn ? mpd : nil)
            adaptor = try DBusAdaptor(bus: bus, player: player, playlists: playlistLibrary, identity: identity, remote: remote,
                                      surfaces: surfaces, log: log) { stop("Quit", 0) }
        } catch {
            throw Failure(message: "session bus: \(error)")
        }

        // Every listener of the feed, in the order each change reaches them: the clients first (they hear a change
        // before anything follows up on it) — the MPD server's, whose idle clients are woken by writing a line, then
        // the bus's interfaces, whose signals take longer to build —, then the service's followers.
        let listeners: [ChangeListener?] = [
            mpd.changeListener, adaptor, libraryExports, SavedStateFollower(saver: saver), reader, audio, video, listening,
            lyrics, scrobbler, library.map { MeasuredGainLookup(player: player, library: $0) },
        ]
        for listener in listeners.compactMap({ $0 }) { feed.listen(listener) }
        let playlists = PeriodicComponent(name: "playlists", loop: loop, everyMilliseconds: 5000) { playlistLibrary.refresh() }
        // The library after the bus: its first pass runs in the background once the name is owned.
        let libraryComponent: [ServiceComponent] = library.map { [LibraryComponent(library: $0, exports: libraryExports)] } ?? []

        // Before playback, so it stops after it (unloading the sink under a playing stream would move it to the speakers).
        let snapcast: [ServiceComponent] = settings.snapcast.pipe.map {
            [SnapcastFeed(settings: settings.snapcast, path: $0.hasPrefix("~/") ? XDGDirectories.home + $0.dropFirst() : $0,
                          loop: loop, log: log)]
        } ?? []
        components = snapcast + [playback, video, busComponent, watcher, screenLock, saver, reader, audio, listening, lyrics, scrobbler, playlists]
            + libraryComponent + [mpd, ArtTrim(art: art), systemd]
        self.player = player
        self.bus = busComponent
        self.audio = audio
        self.audioInterface = audioInterface
    }

    /// After every component started: the audio session looks at the player once.
    func didStart() { audio.lookAtPlaybackStatus() }

    /// Reprise's own playlist folder: where a playlist saved from a client goes.
    private static var ownPlaylistFolder: String { XDGDirectories.dataHome + "/reprise/playlists" }

    /// Playlist files in `$XDG_MUSIC_DIR/Playlists` and `$XDG_DATA_HOME/reprise/playlists`.
    private static func playlistLibrary(_ fileSystem: FileSystem, feed: ChangeFeed) -> PlaylistLibrary {
        PlaylistLibrary(directories: [musicDirectory(fileSystem) + "/Playlists", ownPlaylistFolder],
                        fileSystem: fileSystem, feed: feed)
    }

    /// The user's music folder (`$XDG_MUSIC_DIR`, else `user-dirs.dirs`, else ~/Music).
    private static func musicDirectory(_ fileSystem: FileSystem) -> String {
        let userDirs = fileSystem.contents(of: XDGDirectories.configHome + "/user-dirs.dirs", limit: 1 << 16)
        return XDGDirectories.variable("XDG_MUSIC_DIR")
            ?? UserDirectories.musicDirectory(userDirs: userDirs.map { String(decoding: $0, as: UTF8.self) }, home: XDGDirectories.home)
    }

    /// The configured music folders (`~` expanded), or the user's music folder.
    private static func musicFolders(_ settings: AudioSettings, fileSystem: FileSystem) -> [String] {
        (settings.libraryFolders ?? [musicDirectory(fileSystem)]).map { folder in
            folder == "~" ? XDGDirectories.home : folder.hasPrefix("~/") ? XDGDirectories.home + folder.dropFirst() : folder
        }.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// The library over the music folders.
    private static func library(_ settings: AudioSettings, fileSystem: FileSystem, loop: EventLoop, art: ArtCache, feed: ChangeFeed,
                                log: Log) -> LibraryService? {
        let folders = musicFolders(settings, fileSystem: fileSystem)
        let database = FilePath(escaped: XDGDirectories.dataHome + "/reprise/library.db")
        return LibraryService(folders: folders.map(FilePath.init(escaped:)), database: database, art: art,
                              fileSystem: fileSystem, loop: loop, log: log, feed: feed,
                              measuresLoudness: settings.measureLoudness)
    }
}

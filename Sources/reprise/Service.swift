import Glibc
import GStreamerKit
import MPRIS
import RepriseCore
import SDBus

/// Wires the layers together: GStreamer engine → player core → MPRIS adaptor on the session bus, all on one event loop.
enum Service {
    static let wellKnownName = MPRIS.busNamePrefix + "reprise"

    static func run(_ options: Options) -> Int32 {
        let log = Log(verbose: options.verbose, write: writeToStandardError)
        GStreamer.initialize()
        guard let playbin = Playbin(role: "music", applicationName: "Reprise", iconName: "reprise") else {
            log.warning("GStreamer's playbin is missing (install gstreamer1.0-plugins-base)")
            return 1
        }
        let engine = GStreamerEngine(playbin: playbin, log: log)
        let fileSystem = PosixFileSystem()
        let player = Player(engine: engine, log: log, fileSystem: fileSystem)
        engine.player = player

        let expanded = MediaLocation.expand(options.media, relativeTo: PosixFileSystem.currentDirectory(), in: fileSystem)
        expanded.problems.forEach { log.warning("skipping \($0)") }
        player.enqueue(expanded.uris)
        // Start the pipeline first: it prerolls on GStreamer's threads while we connect to the bus.
        if !player.queue.isEmpty { player.play() }

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
                                                 supportedMimeTypes: GStreamer.decodableMimeTypes)
            service = try MPRISService(bus: bus, player: player, identity: identity, log: log) { loop.quit() }
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
        loop.onSignal(SIGTERM) { log.info("SIGTERM: quitting"); loop.quit() }
        loop.onSignal(SIGINT) { log.info("SIGINT: quitting"); loop.quit() }
        loop.run()

        systemd.stopping()
        player.stop()
        withExtendedLifetime(service) {}
        if lostBus { return 1 }
        bus.releaseName(name)
        bus.flush()
        log.info("released \(name)")
        return 0
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

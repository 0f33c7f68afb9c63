import Glibc
import LoopKit
import PosixFiles
import RepriseCore

/// Runs the service: one event loop, the components ``ServiceAssembly`` builds, started in order by ``Lifecycle``
/// and, on Quit, SIGTERM, SIGINT or a lost bus, stopped in reverse, draining what each still has to send.
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
        var exitStatus: Int32 = 0
        let lifecycle = Lifecycle(loop: loop, log: log)
        func stop(_ reason: String, status: Int32 = 0) {
            if status != 0 { exitStatus = status }
            guard started else { return stopRequested = stopRequested ?? reason }
            lifecycle.stop(reason: reason) { loop.quit() }
        }
        loop.onSignal(SIGTERM) { stop("SIGTERM") }
        loop.onSignal(SIGINT) { stop("SIGINT") }
        guard let settings = audioSettings(options, log: log) else { return 2 }
        let assembly: ServiceAssembly
        do {
            assembly = try ServiceAssembly(options, settings: settings, loop: loop, log: log, stop: stop)
        } catch {
            log.warning(error.message)
            return 1
        }
        do {
            try lifecycle.start(assembly.components)
        } catch {
            return 1
        }
        assembly.didStart()
        log.info("ready as \(assembly.busName) with \(assembly.player.queue.count) queued")
        started = true
        if let reason = stopRequested { loop.once(afterMilliseconds: 0) { stop(reason) } }
        loop.run()
        withExtendedLifetime(assembly) {}
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
}

import Foundation
import Glibc
import SDBus
import TestSupport

/// Reprise raced: `reprise --library FOLDER`, polled over D-Bus (Library1).
final class RacedReprise: RacedLibrary {
    private var child: Child
    private let bench: Bench
    private let binary: String
    let name = "org.mpris.MediaPlayer2.reprise", path = "/app/reprise/Reprise", library = "app.reprise.Library1"
    var pid: pid_t { child.pid }
    var mpdSocket: String { bench.desktop.environment["XDG_RUNTIME_DIR"]! + "/reprise/mpd.socket" }

    /// `measuringLoudness` false: MPD measures no loudness, and the race is of indexing, so Reprise's measuring after
    /// the pass is off unless a figure is of what clients meet while it runs.
    init(bench: Bench, binary: String, folder: String, measuringLoudness: Bool = false) throws {
        self.bench = bench
        self.binary = binary
        let environment = measuringLoudness ? bench.desktop.environment
            : bench.desktop.environment.merging(try bench.configuredEnvironment("measure-loudness = off", named: "no-loudness")) { $1 }
        child = try Child.spawn(binary, ["--library", folder], environment: environment,
                                stdout: bench.workDirectory + "/race-reprise.log", stderr: bench.workDirectory + "/race-reprise.log")
    }

    private func property(_ name: String) -> DBusValue? {
        try? bench.bus.getProperty(destination: self.name, path: path, interface: library, name: name)
    }

    func hasIndexed(_ count: Int) -> Bool {
        guard case .uint32(let tracks)? = property("Tracks"), tracks == UInt32(count) else { return false }
        return !scanning
    }

    var scanning: Bool { property("Scanning") == .bool(true) }

    /// Loudness is being measured (Library1.Measuring).
    var measuring: Bool { property("Measuring") == .bool(true) }

    func startRescan() -> Bool { (try? bench.bus.call(destination: name, path: path, interface: library, member: "Rescan")) != nil }

    func search(_ word: String) -> Double {
        let start = monotonicSeconds()
        _ = try? bench.bus.call(destination: name, path: path, interface: library, member: "Search", [.string(word), .uint32(50)])
        return monotonicSeconds() - start
    }

    func searchFromTheCommandLine(_ word: String) throws -> Double {
        let start = monotonicSeconds()
        _ = try runCommand(binary, ["search", word], environment: bench.desktop.environment)
        return monotonicSeconds() - start
    }

    /// Handed to the running service as a user would, looping it.
    func play(_ file: String) throws {
        _ = try runCommand(binary, [file], environment: bench.desktop.environment)
        _ = try runCommand(binary, ["loop", "track"], environment: bench.desktop.environment)
    }

    func titles(matching word: String) -> Int {
        let reply = try? bench.bus.call(destination: name, path: path, interface: library, member: "Search", [.string(word), .uint32(500)])
        if case .array(_, let hits)? = reply?.last { return hits.count }
        return 0
    }

    func stop() {
        kill(child.pid, SIGTERM)
        if !eventually(5, { !child.isRunning() }) { kill(child.pid, SIGKILL) }
        _ = child.wait()
    }
}

/// MPD raced: `mpd --no-daemon` on a private configuration and socket, its database made anew at start (MPD builds
/// one when its database file does not exist), polled over its socket.
final class RacedMPD: RacedLibrary {
    private var child: Child
    private let client: MPDClient
    private let socket: String
    var mpdSocket: String { socket }
    private let folder: String
    private let environment: [String: String]
    var pid: pid_t { child.pid }

    init(bench: Bench, folder: String, directory: String) throws {
        self.folder = folder
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/socket"
        try """
            music_directory "\(folder)"
            db_file "\(directory)/database"
            log_file "\(directory)/log"
            bind_to_address "\(socket)"
            auto_update "no"
            max_connections "128"
            audio_output {
                type "pulse"
                name "bench"
            }
            """.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        child = try Child.spawn("mpd", ["--no-daemon", directory + "/mpd.conf"], environment: bench.desktop.environment,
                                stdout: directory + "/stdout", stderr: directory + "/stdout")
        var connected: MPDClient?
        let socket = socket
        guard eventually(30, pollEvery: 0.002, { connected = MPDClient(socket: socket); return connected != nil }), let client = connected else {
            kill(child.pid, SIGKILL)
            throw HarnessError(message: "MPD did not start; see \(directory)")
        }
        self.client = client
        var environment = bench.desktop.environment
        environment["MPD_HOST"] = socket
        self.environment = environment
    }

    func hasIndexed(_ count: Int) -> Bool {
        let songs = client.send("stats").flatMap { MPDClient.value("songs", in: $0) }.flatMap { Int($0) }
        return songs == count && !scanning
    }

    var scanning: Bool { client.send("status").map { MPDClient.value("updating_db", in: $0) != nil } ?? true }

    func startRescan() -> Bool { client.send("update") != nil }

    func search(_ word: String) -> Double {
        let start = monotonicSeconds()
        _ = client.send("search any \"\(word)\" window 0:50")
        return monotonicSeconds() - start
    }

    func searchFromTheCommandLine(_ word: String) throws -> Double {
        let start = monotonicSeconds()
        _ = try runCommand("mpc", ["search", "any", word], environment: environment)
        return monotonicSeconds() - start
    }

    func play(_ file: String) throws {
        _ = client.send("add \"\(String(file.dropFirst(folder.count + 1)))\"")
        _ = client.send("repeat 1")
        _ = client.send("single 1")
        _ = client.send("play")
    }

    func titles(matching word: String) -> Int {
        client.send("search title \"\(word)\"")?.filter { $0.hasPrefix("file: ") }.count ?? 0
    }

    func stop() {
        kill(child.pid, SIGTERM)
        if !eventually(5, { !child.isRunning() }) { kill(child.pid, SIGKILL) }
        _ = child.wait()
    }
}

import Foundation
import Glibc
import TestSupport

/// Section 12: the command line bound to a key, end to end (exec to exit), 25 runs each in turn: `reprise status` /
/// `toggle` / `next` against `playerctl` doing the same to the same playing Reprise (the floor column), and `mpc`
/// doing it to MPD (its column), both playing the same three files in a loop.
func commandLineRows(_ bench: Bench, binary: String, _ file: String, runs: Int, reprise: String) throws -> [Row] {
    say("12/12 the command line: reprise, playerctl and mpc (\(runs) runs each, in turn)")
    // Both play the same three copies of the file, looping, so that Next always has somewhere to go.
    let mpd = try? bench.startIdleMPD(playing: file)
    defer { if let mpd { kill(mpd.pid, SIGTERM) } }
    var running = try bench.startPlaying(.reprise(binary: binary), bench.workDirectory + "/mpd-cli/music")
    defer { bench.stop(&running) }
    _ = try runCommand(binary, ["loop", "playlist"], environment: bench.desktop.environment)
    var mpcEnvironment = bench.desktop.environment
    mpcEnvironment["MPD_HOST"] = mpd?.socket
    func timed(_ tool: String, _ arguments: [String], environment: [String: String]) -> Double? {
        let start = monotonicSeconds()
        guard let result = try? runCommand(tool, arguments, environment: environment), result.status == 0 else { return nil }
        return (monotonicSeconds() - start) * 1000
    }
    var rows: [Row] = []
    for (verb, playerctl, mpc) in [("status", ["-p", "reprise", "status"], ["status"]),
                                   ("toggle", ["-p", "reprise", "play-pause"], ["toggle"]),
                                   ("next", ["-p", "reprise", "next"], ["next"])] {
        var samples: [String: [Double]] = [:]
        for _ in 0..<runs {
            samples[reprise, default: []] += [timed(binary, [verb], environment: bench.desktop.environment)].compactMap { $0 }
            samples["floor", default: []] += [timed("playerctl", playerctl, environment: bench.desktop.environment)].compactMap { $0 }
            if mpd != nil { samples["MPD", default: []] += [timed("mpc", mpc, environment: mpcEnvironment)].compactMap { $0 } }
        }
        var row = Row(figure: "`reprise \(verb)`, exec → exit (floor: `playerctl \(playerctl.last!)`; MPD: `mpc \(mpc[0])`)",
                      unit: "ms", floorKey: "floor", target: "≤ playerctl")
        for (name, values) in samples { (row.values[name], row.spreads[name]) = (Statistics.median(values), Statistics.spread(values)) }
        rows.append(row)
    }
    return rows
}

extension Bench {
    /// An MPD of its own with an empty library playing `file` (a playlist of it, repeating), for the `mpc` rows.
    func startIdleMPD(playing file: String) throws -> (pid: pid_t, socket: String) {
        let directory = workDirectory + "/mpd-cli"
        try? FileManager.default.removeItem(atPath: directory)
        let music = directory + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        for index in 0..<3 { link(file, music + "/\(index).ogg") }
        _ = try runCommand("chmod", ["-R", "a+rX", directory])
        let socket = directory + "/socket"
        try """
            music_directory "\(music)"
            db_file "\(directory)/database"
            log_file "\(directory)/log"
            bind_to_address "\(socket)"
            audio_output {
                type "pulse"
                name "bench"
            }
            """.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        let child = try Child.spawn("mpd", ["--no-daemon", directory + "/mpd.conf"], environment: desktop.environment,
                                    stdout: directory + "/stdout", stderr: directory + "/stdout")
        var client: MPDClient?
        guard eventually(30, pollEvery: 0.01, { client = MPDClient(socket: socket); return client != nil }), let mpd = client,
              eventually(30, pollEvery: 0.01, { mpd.send("stats").flatMap { MPDClient.value("songs", in: $0) } == "3" }) else {
            kill(child.pid, SIGKILL)
            throw HarnessError(message: "MPD did not start; see \(directory)")
        }
        _ = mpd.send("add \"\"")
        _ = mpd.send("repeat 1")
        _ = mpd.send("play")
        return (child.pid, socket)
    }
}

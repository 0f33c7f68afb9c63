import Foundation
import Glibc
import SDBus
import TestSupport

extension Bench {
    /// An environment whose `XDG_CONFIG_HOME` holds a Reprise config of `text` (kept under the work directory as
    /// `named`): what a contender adds to the desktop's environment.
    func configuredEnvironment(_ text: String, named name: String) throws -> [String: String] {
        let config = workDirectory + "/config-" + name
        try FileManager.default.createDirectory(atPath: config + "/reprise", withIntermediateDirectories: true)
        try (text + "\n").write(toFile: config + "/reprise/config", atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": config]
    }
}

/// Loudness measured for untagged library tracks: a folder of `count` untagged 10 s FLAC tones indexed while a
/// file plays; from the end of the pass to the last track measured, the tracks (and seconds of sound) measured per
/// second and the process's CPU meanwhile (playing and measuring).
func loudnessRows(_ bench: Bench, binary: String, playing file: String, count: Int, contender: Contender) throws -> [Row] {
    say("loudness: \(count) untagged 10 s tracks measured while playing")
    let folder = bench.workDirectory + "/loudness-music"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let first = folder + "/000.flac"
    try generateTone(at: first, seconds: 10, frequency: 500, tags: nil, encoder: ["flacenc"])
    for index in 1..<count { try FileManager.default.copyItem(atPath: first, toPath: folder + String(format: "/%03d.flac", index)) }
    try? FileManager.default.removeItem(atPath: bench.desktop.environment["HOME", default: "/nonexistent"] + "/.local/share/reprise")
    var running = try bench.startPlaying(.reprise(binary: binary, arguments: ["--library", folder]), file)
    defer { bench.stop(&running) }
    let pid = running.child.pid
    let name = "org.mpris.MediaPlayer2.reprise", path = "/app/reprise/Reprise", interface = "app.reprise.Library1"
    func number(_ property: String) -> Int64 {
        (try? bench.bus.getProperty(destination: name, path: path, interface: interface, name: property))?.int64Value ?? -1
    }
    guard eventually(300, pollEvery: 0.01, { number("Tracks") == Int64(count) }) else { throw HarnessError(message: "the library did not index \(count) files") }
    let start = monotonicSeconds(), cpuBefore = processCPUSeconds(pid)
    guard eventually(900, pollEvery: 0.05, { number("LoudnessMeasured") == Int64(count) }) else {
        throw HarnessError(message: "loudness: \(number("LoudnessMeasured")) of \(count) measured")
    }
    let elapsed = monotonicSeconds() - start, cpu = (processCPUSeconds(pid) - cpuBefore) / elapsed * 100
    var perSecond = Row(figure: "loudness: untagged tracks measured per second (10 s each, while playing)", unit: "tracks/s")
    perSecond.values[contender.name] = Double(count) / elapsed
    var soundPerSecond = Row(figure: "loudness: seconds of sound measured per second", unit: "×")
    soundPerSecond.values[contender.name] = Double(count) * 10 / elapsed
    var cpuRow = Row(figure: "loudness: CPU while measuring and playing", unit: "%", note: "one idle-priority thread; two cores")
    cpuRow.values[contender.name] = cpu
    return [perSecond, soundPerSecond, cpuRow]
}

import BusInterfaces
import Foundation
import Glibc
import SDBus
import TestSupport

/// `reprise-soak`: runs Reprise on a private bus and PulseAudio under a mixed random workload for a set time —
/// transport calls, seeks, property reads and writes, queue edits, calls (phone streams) that interrupt it and
/// outputs plugged and unplugged — then reports calls per second, reply latency, errors and RSS over time.
/// Exit status 0 when every call was answered, the service lived, still plays, saved whole state, and its RSS
/// stayed flat. `make soak` runs it (SECONDS, default 60).
func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let seconds = max(5, Double(option("--seconds", "60")) ?? 60)
let sampleEvery = max(1, Double(option("--sample-every", "5")) ?? 5)
let seed = UInt64(option("--seed", String(UInt64.random(in: 0...UInt64(UInt32.max))))) ?? 1
let binary = option("--binary", ".build/debug/reprise")
let outputPath = option("--output", "")
/// Where Reprise's own log goes (default: the private desktop's directory, removed afterwards).
let logPath = option("--log", "")
let maximumGrowthMiB = Double(option("--max-rss-growth", "6")) ?? 6

func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

/// Calls and unplugged outputs injected on a timetable while the workload runs.
struct Faults {
    let desktop: PrivateDesktop
    var call: Child?
    var callEnds = 0.0
    var headphonesModule: String?
    var unplugAt = 0.0
    var interruptions = 0
    var routeChanges = 0

    /// Every 6 s a phone stream starts and lasts 1.5 s; every 10 s headphones are plugged in (the new default)
    /// and pulled out 4 s later.
    mutating func tick(at time: Double) {
        if var active = call, time >= callEnds {
            kill(active.pid, SIGKILL)
            _ = active.wait()
            call = nil
        } else if call == nil, Int(time) % 6 == 3, time - callEnds > 2 {
            call = try? Child.spawn("pacat", ["--playback", "--raw", "--property=media.role=phone", "/dev/zero"],
                                    environment: desktop.environment, stdout: "/dev/null", stderr: "/dev/null")
            callEnds = time + 1.5
            interruptions += 1
        }
        if let module = headphonesModule, time >= unplugAt {
            _ = try? runCommand("pactl", ["unload-module", module], environment: desktop.environment)
            headphonesModule = nil
            routeChanges += 1
        } else if headphonesModule == nil, Int(time) % 10 == 7, time - unplugAt > 2 {
            let loaded = try? runCommand("pactl", ["load-module", "module-null-sink", "sink_name=headphones"],
                                         environment: desktop.environment)
            if let module = loaded?.trimmed, !module.isEmpty, loaded?.status == 0 {
                _ = try? runCommand("pactl", ["set-default-sink", "headphones"], environment: desktop.environment)
                headphonesModule = module
                unplugAt = time + 4
                routeChanges += 1
            }
        }
    }

    /// Ends the call and unplugs the headphones, if either is under way.
    mutating func stop() {
        if var active = call { kill(active.pid, SIGKILL); _ = active.wait() }
        call = nil
        if let module = headphonesModule {
            _ = try? runCommand("pactl", ["unload-module", module], environment: desktop.environment)
            headphonesModule = nil
        }
    }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

func run() throws -> Bool {
    let desktop = try PrivateDesktop()
    defer { desktop.stop() }
    var files: [String] = []
    for (index, frequency) in [440, 550, 660, 770].enumerated() {
        let path = desktop.directory + "/soak-\(index).ogg"
        try generateTone(at: path, seconds: 30, frequency: frequency, tags: "title=\\\"Soak \(index)\\\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        files.append(path)
    }
    let log = logPath.isEmpty ? desktop.directory + "/reprise.log" : logPath
    var service = try Child.spawn(binary, ["--verbose"] + files, environment: desktop.environment, stdout: log, stderr: log)
    defer { if service.isRunning() { kill(service.pid, SIGKILL); _ = service.wait() } }
    let bus = try Bus.connect(address: desktop.busAddress)
    let name = Workload.name
    func owned() -> Bool {
        (try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                       member: "NameHasOwner", [.string(name)]))?.first == .bool(true)
    }
    guard eventually(20, { owned() }) else { say("reprise did not start; see \(log)"); return false }

    // What Reprise itself reports of the injected faults.
    var announced: [String: Int] = [:]
    try bus.addMatch(AudioSession1Signals.allMatch(path: RepriseObjects.ownPath)) { message in
        announced[message.member, default: 0] += 1
    }
    say("soaking \(name) for \(Int(seconds)) s (seed \(seed))")
    var workload = Workload(bus: bus, media: files.map { "file://" + $0 }, seed: seed)
    var faults = Faults(desktop: desktop)
    var samples: [(time: Double, mebibytes: Double, anonymous: Double)] = [(0, residentMiB(of: service.pid), anonymousResidentMiB(of: service.pid))]
    let started = monotonicSeconds()
    var now = 0.0
    while now < seconds, service.isRunning() {
        workload.step()
        bus.processPending(waitingUpTo: 0)
        now = monotonicSeconds() - started
        faults.tick(at: now)
        if now >= Double(samples.count) * sampleEvery {
            samples.append((now, residentMiB(of: service.pid), anonymousResidentMiB(of: service.pid)))
        }
    }
    faults.stop()
    let elapsed = monotonicSeconds() - started
    let alive = service.isRunning()
    samples.append((elapsed, alive ? residentMiB(of: service.pid) : 0, alive ? anonymousResidentMiB(of: service.pid) : 0))

    // Afterwards it still plays, and what it saved on quitting is whole. (Once the last call has ended: while
    // one goes on, the policy rightly keeps Reprise paused.)
    var plays = false
    if alive {
        _ = eventually(10) {
            (try? bus.getProperty(destination: name, path: RepriseObjects.ownPath, interface: "app.reprise.AudioSession1",
                                  name: "Interrupted")) == .bool(false)
        }
        _ = try? bus.call(destination: name, path: Workload.path, interface: Workload.player, member: "OpenUri",
                          [.string("file://" + files[0])])
        plays = eventually(10) {
            (try? bus.getProperty(destination: name, path: Workload.path, interface: Workload.player,
                                  name: "PlaybackStatus")) == .string("Playing")
        }
        _ = try? bus.call(destination: name, path: Workload.path, interface: "org.mpris.MediaPlayer2", member: "Quit")
        _ = service.wait()
    }
    let state = (try? String(contentsOfFile: desktop.environment["HOME"]! + "/.local/state/reprise/state", encoding: .utf8)) ?? ""
    let stateWhole = SavedStateFile.isWhole(state)

    // Flat: the last sample against the one a quarter of the way in (start-up and first loads are over by then), in
    // anonymous memory (what a leak grows; a library GStreamer maps once for a format met late is no leak).
    let baseline = samples.first { $0.time >= elapsed / 4 } ?? samples[0]
    let growth = (samples.last?.anonymous ?? 0) - baseline.anonymous
    let growthAll = (samples.last?.mebibytes ?? 0) - baseline.mebibytes
    let flat = growth <= maximumGrowthMiB
    let sorted = workload.latencies.sorted()
    let calls = workload.latencies.count
    let errorCount = workload.errors.values.reduce(0, +)
    let passed = alive && plays && stateWhole && workload.unanswered == 0 && flat

    var report = """
        # Soak: \(passed ? "passed" : "FAILED")

        | figure | value |
        |---|---|
        | duration | \(String(format: "%.0f", elapsed)) s (seed \(seed)) |
        | calls | \(calls) (\(String(format: "%.0f", Double(calls) / max(elapsed, 0.001))) per second) |
        | reply latency | p50 \(String(format: "%.2f", percentile(sorted, 0.5) * 1000)) ms, p99 \(String(format: "%.2f", percentile(sorted, 0.99) * 1000)) ms, max \(String(format: "%.1f", (sorted.last ?? 0) * 1000)) ms |
        | D-Bus errors | \(errorCount) (answered refusals: \(workload.errors.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) \($0.value)" }.joined(separator: ", "))) |
        | unanswered calls | \(workload.unanswered) |
        | interruptions (phone streams) | \(faults.interruptions) injected; Reprise announced \(announced["InterruptionBegan", default: 0]) began, \(announced["InterruptionEnded", default: 0]) ended |
        | route changes (plug, unplug) | \(faults.routeChanges) injected; Reprise announced \(announced["RouteChanged", default: 0]) |
        | service alive / plays after / state whole | \(alive) / \(plays) / \(stateWhole) |
        | anonymous memory growth after the first quarter | \(String(format: "%+.1f", growth)) MiB (bound \(String(format: "%.0f", maximumGrowthMiB)) MiB; all RSS \(String(format: "%+.1f", growthAll))) |

        RSS over time (MiB, anonymous in brackets): \(samples.map { String(format: "%.0fs %.1f (%.1f)", $0.time, $0.mebibytes, $0.anonymous) }.joined(separator: " · "))

        """
    if alive && !plays {
        let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(30).joined(separator: "\n")
        report += "\nNot playing after the run; the end of its log:\n```\n\(tail)\n```\n"
    }
    if !alive { report += "\nreprise died; the end of its log:\n```\n\((try? String(contentsOfFile: log, encoding: .utf8))?.suffix(2000) ?? "")\n```\n" }
    print(report)
    if !outputPath.isEmpty {
        try? FileManager.default.createDirectory(atPath: (outputPath as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try? report.write(toFile: outputPath, atomically: true, encoding: .utf8)
    }
    return passed
}

do {
    exit(try run() ? 0 : 1)
} catch {
    say("reprise-soak: \(error)")
    exit(2)
}

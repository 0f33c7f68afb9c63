import Foundation
import Glibc
import SDBus
import TestSupport

/// Runs the players one at a time on a private bus and PulseAudio and takes the figures of BENCHMARKS.md.
final class Bench {
    /// A contender while it plays.
    struct Running {
        var child: Child
        let startedAt: Double
        let nameOwnedAt: Double?
        let firstAudioAt: Double
        let sinkInput: Int
    }

    let desktop: PrivateDesktop
    let bus: Bus
    let pulse: PulseEvents
    let workDirectory: String
    private(set) var events: [PulseEvents.Event] = []
    private var nameOwnedAt: [String: Double] = [:]
    private var watchedSender = ""
    private var watchedName = ""
    /// The status a timed toggle waits for: a change counts only when it announces this value (a player that first
    /// sends its old status again, as VLC does, is timed to the new one).
    private var expectedStatus = ""
    private var statusChangedAt: Double?
    private var logCount = 0
    /// Every PlaybackStatus announced on the MPRIS path, with its value, stamped when seen.
    private(set) var statusChanges: [(time: Double, status: String)] = []

    /// - Parameter soundServer: the sound server of the private desktop (the minimal PulseAudio is open to other
    ///   users, for the peers that refuse to run as root).
    init(soundServer: SoundServerKind = .minimalPulseAudio) throws {
        desktop = try PrivateDesktop(openToOtherUsers: soundServer == .minimalPulseAudio, soundServer: soundServer)
        workDirectory = desktop.directory + "/bench"
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        chmod(workDirectory, 0o755)
        bus = try Bus.connect(address: desktop.busAddress)
        pulse = try PulseEvents(desktop: desktop)
        try bus.addMatch(.nameOwnerChanged()) {
            [unowned self] message in
            if message.arguments.count == 3, case .string(let name) = message.arguments[0],
               case .string(let owner) = message.arguments[2], !owner.isEmpty {
                nameOwnedAt[name] = monotonicSeconds()
            }
        }
        try bus.addMatch(.propertiesChanged(path: "/org/mpris/MediaPlayer2")) {
            [unowned self] message in
            let now = monotonicSeconds()
            if message.arguments.count >= 2, let status = message.arguments[1].dictionary?["PlaybackStatus"]?.stringValue {
                statusChanges.append((now, status))
            }
            if message.sender == watchedSender, message.arguments.count >= 2,
               message.arguments[1].dictionary?["PlaybackStatus"]?.stringValue == expectedStatus, statusChangedAt == nil {
                statusChangedAt = now
            }
        }
    }

    func stop() {
        pulse.stop()
        desktop.stop()
    }

    // MARK: Driving

    private func pump() {
        bus.processPending(waitingUpTo: 500)
        events += pulse.poll()
    }

    @discardableResult
    func pump(for seconds: Double, until condition: () -> Bool = { false }) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            pump()
            if condition() { return true }
        }
        return condition()
    }

    func firstEvent(_ kind: String, on facility: String, after time: Double, index: Int? = nil,
                            excluding excluded: Int? = nil) -> PulseEvents.Event? {
        events.first { $0.kind == kind && $0.facility == facility && $0.time >= time
            && (index == nil || $0.index == index) && (excluded == nil || $0.index != excluded) }
    }

    /// Caches GStreamer's plugin registry in this fresh home, as on any desktop after its first GStreamer program:
    /// otherwise the first player started here scans every plugin (~0.5 s), which is not what a figure measures.
    func cachePluginRegistry() throws {
        _ = try runCommand("gst-inspect-1.0", ["playbin"], environment: desktop.environment)
    }

    /// Starts `contender` on `file` and waits until it owns its name (if it has one) and its stream exists.
    func startPlaying(_ contender: Contender, _ file: String) throws -> Running {
        events.removeAll()
        nameOwnedAt.removeAll()
        logCount += 1
        let startedAt = monotonicSeconds()
        let child = try contender.start(file, on: desktop, log: workDirectory + "/player-\(logCount).log")
        let ready = pump(for: 20) {
            (contender.busName.map { nameOwnedAt[$0] != nil } ?? true)
                && firstEvent("new", on: "sink-input", after: startedAt) != nil
        }
        guard ready, let audio = firstEvent("new", on: "sink-input", after: startedAt) else {
            kill(child.pid, SIGKILL)
            let log = (try? String(contentsOfFile: workDirectory + "/player-\(logCount).log", encoding: .utf8)) ?? ""
            throw HarnessError(message: "\(contender.name) did not start playing within 20 s (its bus name \(contender.busName.map { nameOwnedAt[$0] != nil ? "owned" : "not owned" } ?? "none"), "
                               + "\(firstEvent("new", on: "sink-input", after: startedAt) == nil ? "no" : "a") stream); its log ends:\n\(log.suffix(2000))")
        }
        // pulsesink opens a short-lived probe stream first: the playing stream is the one that stays.
        pump(for: 0.3)
        let created = events.filter { $0.facility == "sink-input" && $0.kind == "new" && $0.time >= startedAt }
        let removed = Set(events.filter { $0.facility == "sink-input" && $0.kind == "remove" && $0.time >= startedAt }.map(\.index))
        let stream = created.last { !removed.contains($0.index) }?.index ?? audio.index
        return Running(child: child, startedAt: startedAt, nameOwnedAt: contender.busName.flatMap { nameOwnedAt[$0] },
                       firstAudioAt: audio.time, sinkInput: stream)
    }

    /// SIGTERM, then SIGKILL if needed, and waits for its stream to go.
    func stop(_ running: inout Running) {
        kill(running.child.pid, SIGTERM)
        if !eventually(5, pollEvery: 0.01, { !running.child.isRunning() }) {
            kill(running.child.pid, SIGKILL)
            _ = running.child.wait()
        }
        let since = running.startedAt
        pump(for: 3) { firstEvent("remove", on: "sink-input", after: since, index: running.sinkInput) != nil }
        pump(for: 0.2)
    }

    // MARK: Figures

    /// Median round trips (µs) of Peer.Ping, Get(PlaybackStatus), GetAll(Player), and PlayPause → PropertiesChanged.
    func controlLatency(_ contender: Contender, _ file: String, samples: Int) throws -> [String: Double] {
        guard let name = contender.busName else { return [:] }
        var running = try startPlaying(contender, file)
        defer { stop(&running) }
        pump(for: 1)
        let path = "/org/mpris/MediaPlayer2", player = "org.mpris.MediaPlayer2.Player"
        let properties = "org.freedesktop.DBus.Properties"
        var result: [String: Double] = [:]
        /// The median under `key`, and the quartiles under `key.low` and `key.high`.
        func record(_ key: String, _ values: [Double]) {
            result[key] = Statistics.median(values)
            if let spread = Statistics.spread(values) { (result[key + ".low"], result[key + ".high"]) = spread }
        }
        // Where a round trip goes: the CPU time the player, dbus-daemon and this client (the calling thread: sending,
        // waiting, reading the reply into values) spend per call, in µs, under `key.player`, `key.bus`, `key.client`.
        let playerPID = running.child.pid, busPID = desktop.busPID
        func threadCPUNanoseconds() -> Int {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return now.tv_sec * 1_000_000_000 + now.tv_nsec
        }
        func timed(_ key: String, _ body: () throws -> Void) rethrows {
            var values: [Double] = []
            let playerBefore = ProcFS.cpuNanoseconds(playerPID), busBefore = ProcFS.cpuNanoseconds(busPID)
            let clientBefore = threadCPUNanoseconds()
            for _ in 0..<samples {
                let start = monotonicSeconds()
                try body()
                values.append((monotonicSeconds() - start) * 1_000_000)
            }
            result[key + ".client"] = Double(threadCPUNanoseconds() - clientBefore) / Double(samples) / 1000
            result[key + ".player"] = Double(ProcFS.cpuNanoseconds(playerPID) - playerBefore) / Double(samples) / 1000
            result[key + ".bus"] = Double(ProcFS.cpuNanoseconds(busPID) - busBefore) / Double(samples) / 1000
            record(key, values)
        }
        try timed("ping") { _ = try bus.call(destination: name, path: path, interface: "org.freedesktop.DBus.Peer", member: "Ping") }
        try timed("get") { _ = try bus.call(destination: name, path: path, interface: properties, member: "Get",
                                            [.string(player), .string("PlaybackStatus")]) }
        try timed("getAll") { _ = try bus.call(destination: name, path: path, interface: properties, member: "GetAll",
                                               [.string(player)]) }
        try watchStatusChanges(of: contender)
        var toggles: [Double] = []
        for _ in 0..<max(10, samples / 10) {
            pump(for: 0.25)
            if let changed = try timeStatusChange({ try bus.send(destination: name, path: path, interface: player, member: "PlayPause") }) {
                toggles.append(changed * 1_000_000)
            }
        }
        record("playPause", toggles)
        // The same figure from an independent client (python-dbus on GLib, its own connection), in the same run.
        if let independent = try? runCommand("/usr/bin/python3", ["scripts/bench/toggle-latency.py", name, "40"],
                                             environment: desktop.environment),
           independent.status == 0 {
            let numbers = independent.output.split(separator: " ").compactMap { Double($0.trimmingWhitespace()) }
            if numbers.count >= 3 { (result["playPauseIndependent"], result["playPauseIndependent.low"], result["playPauseIndependent.high"]) = (numbers[0], numbers[1], numbers[2]) }
        }
        return result
    }

    /// From now on PlaybackStatus changes of `contender` (by its unique name) are timed.
    func watchStatusChanges(of contender: Contender) throws {
        guard let name = contender.busName else { return }
        watchedName = name
        watchedSender = try bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "GetNameOwner", [.string(name)]).first?.stringValue ?? ""
    }

    /// Seconds from the start of `action` (a play/pause toggle) to the PropertiesChanged that announces the new
    /// PlaybackStatus — the opposite of the status read just before (nil: none within 3 s).
    func timeStatusChange(_ action: () throws -> Void) rethrows -> Double? {
        let before = (try? bus.getProperty(destination: watchedName, path: "/org/mpris/MediaPlayer2",
                                           interface: "org.mpris.MediaPlayer2.Player", name: "PlaybackStatus"))?.stringValue
        expectedStatus = before == "Playing" ? "Paused" : "Playing"
        statusChangedAt = nil
        let start = monotonicSeconds()
        try action()
        guard pump(for: 3, until: { statusChangedAt != nil }), let changed = statusChangedAt else { return nil }
        return changed - start
    }

    /// Seconds from exec to the bus name being owned and to the first sink input, one per run.
    func coldStartRuns(_ contender: Contender, _ file: String, runs: Int) throws -> (names: [Double], audio: [Double]) {
        var names: [Double] = [], audio: [Double] = []
        for _ in 0..<runs {
            var running = try startPlaying(contender, file)
            if let owned = running.nameOwnedAt { names.append(owned - running.startedAt) }
            audio.append(running.firstAudioAt - running.startedAt)
            stop(&running)
        }
        return (names, audio)
    }

    /// RSS (MiB) after `seconds` of playing, and CPU% over those seconds (after a settling second); `prepare` runs
    /// once it plays, before that second (to make a window fullscreen, say).
    func footprint(_ contender: Contender, _ file: String, seconds: Double,
                   prepare: () throws -> Void = {}) throws -> (rss: Double, cpu: Double, executableText: Double) {
        var running = try startPlaying(contender, file)
        defer { stop(&running) }
        try prepare()
        pump(for: 1)
        let pid = running.child.pid
        let cpuBefore = ProcFS.cpuNanoseconds(pid), start = monotonicSeconds()
        Thread.sleep(forTimeInterval: seconds)
        let used = ProcFS.cpuNanoseconds(pid) - cpuBefore, elapsed = monotonicSeconds() - start
        let cpu = Double(used) / 1_000_000_000 / elapsed * 100
        return (Double(ProcFS.residentKilobytes(pid)) / 1024, cpu, Double(ProcFS.residentExecutableTextKilobytes(pid)) / 1024)
    }

    /// RSS (MiB) of a program that plays nothing, `seconds` after it started (an idle reference process).
    func idleResident(_ command: [String], seconds: Double) throws -> Double {
        var child = try Child.spawn(command[0], Array(command.dropFirst()), environment: desktop.environment,
                                    stdout: workDirectory + "/idle.log", stderr: workDirectory + "/idle.log")
        defer {
            kill(child.pid, SIGTERM)
            _ = child.wait()
        }
        Thread.sleep(forTimeInterval: seconds)
        return Double(ProcFS.residentKilobytes(child.pid)) / 1024
    }

    /// Queue scale: start-up with `count` entries (a directory of links) against one entry; memory per entry.
    struct QueueScale {
        var startup: Double?
        var startupOne: Double?
        var bytesPerEntry: Double
        /// Median seconds to read `Tracks`, and to get the metadata of 1,000 of them.
        var readTracks: Double?
        var metadataOf1000: Double?
    }

    func queueScale(binary: String, shortFile: String, count: Int) throws -> QueueScale {
        let directory = workDirectory + "/queue-\(count)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for index in 0..<count {
            try FileManager.default.createSymbolicLink(atPath: directory + String(format: "/%05d.ogg", index),
                                                       withDestinationPath: shortFile)
        }
        let reprise = Contender.reprise(binary: binary)
        let name = reprise.busName!, path = "/org/mpris/MediaPlayer2", trackList = "org.mpris.MediaPlayer2.TrackList"
        var readTracks: Double?, metadataOf1000: Double?
        func measure(_ argument: String, timingTrackList: Bool) throws -> (Double?, Double) {
            var running = try startPlaying(reprise, argument)
            defer { stop(&running) }
            pump(for: 1.5)
            let rss = Double(ProcFS.residentKilobytes(running.child.pid)) * 1024
            if timingTrackList {
                var reads: [Double] = [], lookups: [Double] = []
                var ids: [DBusValue] = []
                for _ in 0..<20 {
                    let start = monotonicSeconds()
                    let value = try bus.getProperty(destination: name, path: path, interface: trackList, name: "Tracks")
                    reads.append(monotonicSeconds() - start)
                    if case .array(_, let items) = value { ids = Array(items.prefix(1000)) }
                }
                for _ in 0..<20 {
                    let start = monotonicSeconds()
                    _ = try bus.call(destination: name, path: path, interface: trackList, member: "GetTracksMetadata",
                                     [.array(elementSignature: "o", ids)])
                    lookups.append(monotonicSeconds() - start)
                }
                readTracks = Statistics.median(reads)
                metadataOf1000 = ids.count == 1000 ? Statistics.median(lookups) : nil
            }
            return (running.nameOwnedAt.map { $0 - running.startedAt }, rss)
        }
        let (startupOne, rssOne) = try measure(shortFile, timingTrackList: false)
        let (startup, rssMany) = try measure(directory, timingTrackList: true)
        return QueueScale(startup: startup, startupOne: startupOne, bytesPerEntry: (rssMany - rssOne) / Double(count - 1),
                          readTracks: readTracks, metadataOf1000: metadataOf1000)
    }

    /// Median seconds from the end of a phone-role stream (which makes role-cork mute and cork-request the
    /// music) to the music's stream last changing back (unmuted, uncorked). PulseAudio restores the music in
    /// the phone stream's unlink hook, which can come before the phone's own `remove` event: that counts as 0.
    func resumeAfterInterruption(binary: String, _ file: String, runs: Int) throws -> Double? {
        var running = try startPlaying(.reprise(binary: binary), file)
        defer { stop(&running) }
        pump(for: 1)
        var delays: [Double] = []
        for _ in 0..<runs {
            let start = monotonicSeconds()
            var phone = try Child.spawn("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=40", "!", "audio/x-raw,rate=44100",
                                                          "!", "pulsesink", "stream-properties=props,media.role=phone"],
                                        environment: desktop.environment, stdout: "/dev/null", stderr: "/dev/null")
            _ = phone.wait()
            pump(for: 1)
            let streamEvents = events.filter { $0.facility == "sink-input" && $0.time >= start }
            guard let ended = streamEvents.last(where: { $0.kind == "remove" && $0.index != running.sinkInput }),
                  let restored = streamEvents.last(where: { $0.kind == "change" && $0.index == running.sinkInput }),
                  let music = try desktop.sinkInputs().first(where: { $0.index == running.sinkInput }),
                  !music.corked, !music.muted else { continue }
            delays.append(max(0, restored.time - ended.time))
        }
        return Statistics.median(delays)
    }
}

/// Reading a process's CPU time and memory from /proc.
enum ProcFS {
    /// CPU time of all the process's threads so far, in nanoseconds (from schedstat: exact, unlike clock ticks).
    /// Threads that ended before the call are not counted, which is why it is read over a steady interval.
    static func cpuNanoseconds(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { total, task in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return total + (Int(stat.split(separator: " ").first ?? "0") ?? 0)
        }
    }

    static func residentKilobytes(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// The resident part (KiB) of the process's own executable's code: what the hot-function order keeps small.
    static func residentExecutableTextKilobytes(_ pid: pid_t) -> Int {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
              let smaps = try? String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8) else { return 0 }
        var inText = false, total = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5, first.first?.isHexDigit == true {
                inText = fields[1].contains("x") && fields.last.map(String.init) == executable
            } else if inText, fields.first == "Rss:", fields.count >= 2 {
                total += Int(fields[1]) ?? 0
            }
        }
        return total
    }
}

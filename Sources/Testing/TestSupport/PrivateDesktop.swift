import Foundation
import Glibc

/// The sound servers Reprise is tested on.
public enum SoundServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PulseAudio started with `-n` and only the modules the tests need (native protocol, a null sink, role-cork
    /// unless asked not to): quick, but a clean room.
    case minimalPulseAudio = "minimal PulseAudio"
    /// PulseAudio with its distribution's own default.pa (stream-restore, device-restore, role-cork…), as users run it.
    case stockPulseAudio = "stock PulseAudio"
    /// PipeWire with WirePlumber and pipewire-pulse, headless, as Debian 12's GNOME runs it.
    case pipeWire = "PipeWire"

    public var description: String { rawValue }
}

/// A private session bus and a private sound server (a null sink `speakers` as the default output) for tests and
/// benchmarks, with the environment a client needs to use them. ``stop()`` kills everything by PID.
public final class PrivateDesktop {
    public let directory: String
    public let busAddress: String
    /// The caller's environment plus DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR, PULSE_SERVER and HOME.
    public let environment: [String: String]
    private var pids: [pid_t] = []

    /// - Parameters:
    ///   - serviceDirectory: a D-Bus activation directory the bus also reads.
    ///   - openToOtherUsers: lets other local users connect to both daemons (for players that refuse root).
    ///   - roleCork: load `module-role-cork` (off: like PipeWire's PulseAudio server, which sends no cork requests).
    ///   - soundServer: which server plays (``SoundServerKind``).
    public init(serviceDirectory: String? = nil, openToOtherUsers: Bool = false, roleCork: Bool = true,
                soundServer: SoundServerKind = .minimalPulseAudio) throws {
        self.soundServer = soundServer
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-desk-\(UUID().uuidString)").path
        let runtime = directory + "/xdg", home = directory + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: openToOtherUsers ? 0o755 : 0o700])
        if openToOtherUsers { chmod(directory, 0o755) }
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["HOME"] = home
        env["PULSE_SERVER"] = "unix:\(runtime)/pulse/native"
        env["PIPEWIRE_RUNTIME_DIR"] = runtime
        // Everything the player reads and writes stays under the private home (XDG defaults).
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "XDG_STATE_HOME",
                     "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_MUSIC_DIR"] {
            env.removeValue(forKey: name)
        }

        var extraConfig = ""
        if let serviceDirectory { extraConfig += "<servicedir>\(serviceDirectory)</servicedir>\n" }
        if openToOtherUsers { extraConfig += "<policy context=\"default\"><allow user=\"*\"/></policy>\n" }
        let config = directory + "/bus.conf"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <include>/usr/share/dbus-1/session.conf</include>
              <listen>unix:path=\(directory)/bus</listen>
              \(extraConfig)
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let dbus = try runCommand("dbus-daemon", ["--config-file=\(config)", "--fork", "--print-address=1", "--print-pid=1"],
                                  environment: env)
        let lines = dbus.output.split(separator: "\n").map(String.init)
        guard dbus.status == 0, lines.count >= 2, let pid = pid_t(lines[1]) else {
            throw HarnessError(message: "dbus-daemon failed: \(dbus.errors)")
        }
        busAddress = lines[0]
        pids.append(pid)
        if openToOtherUsers { chmod(directory + "/bus", 0o777) }
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment = env

        let native = "--load=module-native-protocol-unix" + (openToOtherUsers ? " auth-anonymous=1" : "")
        switch soundServer {
        case .minimalPulseAudio:
            pulseArguments = ["--daemonize=yes", "--exit-idle-time=-1", "-n", native, "--load=module-null-sink sink_name=speakers"]
                + (roleCork ? ["--load=module-role-cork"] : []) + ["--log-target=stderr"]
        case .stockPulseAudio:
            // Its log (info: module-stream-restore says what it stores) stays in the desktop's directory.
            pulseArguments = ["--daemonize=yes", "--exit-idle-time=-1", "--log-level=info", "--log-target=file:" + directory + "/pulse.log"]
        case .pipeWire:
            break
        }
        do {
            if soundServer == .pipeWire {
                try startPipeWire(home: home)
            } else {
                pids.append(try startPulse())
                if soundServer == .stockPulseAudio { try addSpeakers() }
            }
        } catch {
            stop()
            throw error
        }
        if openToOtherUsers {
            chmod(runtime + "/pulse", 0o755)
            chmod(runtime + "/pulse/native", 0o777)
        }
    }

    public var busPID: pid_t { pids[0] }
    public let soundServer: SoundServerKind
    private var pulseArguments: [String] = []
    /// pipewire-pulse's PID (PipeWire): what ``restartPulse()`` restarts.
    private var pipeWirePulse: Child?

    private func startPulse() throws -> pid_t {
        let pulse = try runCommand("pulseaudio", pulseArguments, environment: environment)
        let pidFile = environment["XDG_RUNTIME_DIR"]! + "/pulse/pid"
        guard pulse.status == 0, eventually(10, { FileManager.default.fileExists(atPath: pidFile) }),
              let pulsePID = pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else {
            throw HarnessError(message: "pulseaudio failed: \(pulse.errors)")
        }
        return pulsePID
    }

    /// The stock server starts with `auto_null`: a null sink named `speakers` becomes the default, as in the others.
    private func addSpeakers() throws {
        _ = try runCommand("pactl", ["load-module", "module-null-sink", "sink_name=speakers"], environment: environment)
        _ = try runCommand("pactl", ["set-default-sink", "speakers"], environment: environment)
    }

    /// PipeWire, WirePlumber and pipewire-pulse on the private bus, with a null sink `speakers` from the
    /// configuration; each on normal scheduling (as root, PipeWire's module-rt would put its threads on SCHED_FIFO).
    private func startPipeWire(home: String) throws {
        let confDirectory = home + "/.config/pipewire/pipewire.conf.d"
        try FileManager.default.createDirectory(atPath: confDirectory, withIntermediateDirectories: true)
        try """
            context.objects = [
              { factory = adapter
                args = { factory.name = support.null-audio-sink node.name = speakers node.description = Speakers
                         media.class = Audio/Sink audio.position = [ FL FR ] priority.session = 1000 priority.driver = 1000
                         object.linger = true } }
            ]
            """.write(toFile: confDirectory + "/10-null-sink.conf", atomically: true, encoding: .utf8)
        let runtime = environment["XDG_RUNTIME_DIR"]!
        func daemon(_ tool: String) throws -> Child {
            try Child.spawn("setpriv", ["--bounding-set=-sys_nice", "--inh-caps=-sys_nice", tool], environment: environment,
                            stdout: directory + "/\(tool).log", stderr: directory + "/\(tool).log")
        }
        let pipewire = try daemon("pipewire")
        pids.append(pipewire.pid)
        guard eventually(10, { FileManager.default.fileExists(atPath: runtime + "/pipewire-0") }) else {
            throw HarnessError(message: "pipewire did not start: \(log("pipewire"))")
        }
        pids.append(try daemon("wireplumber").pid)
        let pulse = try daemon("pipewire-pulse")
        pids.append(pulse.pid)
        pipeWirePulse = pulse
        guard eventually(15, {
            FileManager.default.fileExists(atPath: runtime + "/pulse/native")
                && (try? runCommand("pactl", ["get-default-sink"], environment: environment))?.output
                    .trimmingCharacters(in: .whitespacesAndNewlines) == "speakers"
        }) else {
            throw HarnessError(message: "PipeWire did not come up: \(log("wireplumber")) \(log("pipewire-pulse"))")
        }
    }

    private func log(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/\(name).log", encoding: .utf8)) ?? ""
    }

    /// Kills the PulseAudio server (by PID) and starts it again with the same modules, as when the sound server
    /// restarts; under PipeWire, pipewire-pulse.
    public func restartPulse() throws {
        if soundServer == .pipeWire, var pulse = pipeWirePulse {
            kill(pulse.pid, SIGKILL)
            _ = pulse.wait()
            pids.removeAll { $0 == pulse.pid }
            let restarted = try Child.spawn("setpriv", ["--bounding-set=-sys_nice", "--inh-caps=-sys_nice", "pipewire-pulse"],
                                            environment: environment, stdout: directory + "/pipewire-pulse.log",
                                            stderr: directory + "/pipewire-pulse.log")
            pids.append(restarted.pid)
            pipeWirePulse = restarted
            _ = eventually(10) { (try? runCommand("pactl", ["info"], environment: environment))?.status == 0 }
            return
        }
        guard pids.count > 1 else { return }
        let old = pids.removeLast()
        kill(old, SIGKILL)
        let pidFile = environment["XDG_RUNTIME_DIR"]! + "/pulse/pid"
        _ = eventually(5) { kill(old, 0) != 0 }
        try? FileManager.default.removeItem(atPath: pidFile)
        pids.append(try startPulse())
        if soundServer == .stockPulseAudio { try addSpeakers() }
    }

    /// The process that speaks the PulseAudio protocol to clients: pulseaudio, or pipewire-pulse under PipeWire.
    public var pulseServerPID: pid_t? {
        if soundServer == .pipeWire { return pipeWirePulse?.pid }
        return pids.count > 1 ? pids.last : nil
    }

    /// Kills the daemons (by PID) and removes the directory.
    public func stop() {
        for pid in pids { kill(pid, SIGKILL) }
        pids.removeAll()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What reached the `speakers` sink during `seconds` (its monitor, left channel, 44.1 kHz), without the first
    /// 100 ms (what the monitor had buffered before the recording began).
    public func recordSpeakers(seconds: Double) throws -> [Int16] {
        let recording = try startRecordingSpeakers()
        usleep(useconds_t(seconds * 1_000_000))
        return recording.finish()
    }

    /// Starts recording the `speakers` sink's monitor; ``SpeakerRecording/finish()`` stops and reads it.
    public func startRecordingSpeakers() throws -> SpeakerRecording {
        let file = directory + "/monitor-\(UInt64(monotonicSeconds() * 1000)).raw"
        let recorder = try Child.spawn("parec", ["-d", "speakers.monitor", "--raw", "--format=s16le", "--channels=2",
                                                 "--rate=44100", "--latency-msec=20", file],
                                       environment: environment, stdout: directory + "/parec.log", stderr: directory + "/parec.log")
        return SpeakerRecording(recorder: recorder, file: file)
    }

    /// The loudest sample (of 32767) that reached `sink` (the `speakers`) during `seconds`, recorded from its monitor.
    public func peakLevel(of sink: String = "speakers", seconds: Double = 0.6) throws -> Int {
        let file = directory + "/monitor-\(UInt64(monotonicSeconds() * 1000)).raw"
        var recorder = try Child.spawn("parec", ["-d", sink + ".monitor", "--raw", "--format=s16le", "--channels=2",
                                                 "--rate=44100", "--latency-msec=20", file],
                                       environment: environment, stdout: directory + "/parec.log", stderr: directory + "/parec.log")
        usleep(useconds_t(seconds * 1_000_000))
        kill(recorder.pid, SIGTERM)
        _ = recorder.wait()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
        // The first 100 ms hold what the monitor had buffered before the recording began.
        let skip = min(data.count, 44100 * 4 / 10) & ~1
        var peak = 0
        data.dropFirst(skip).withUnsafeBytes { raw in
            for sample in raw.bindMemory(to: Int16.self) { peak = max(peak, abs(Int(sample))) }
        }
        return peak
    }

    /// PulseAudio's sink inputs (playing streams), optionally only those of process `pid`.
    public func sinkInputs(of pid: pid_t? = nil) throws -> [SinkInput] {
        let listing = try runCommand("pactl", ["list", "sink-inputs"], environment: environment).output
        let inputs = SinkInput.parse(listing)
        guard let pid else { return inputs }
        return inputs.filter { $0.properties["application.process.id"] == String(pid) }
    }
}

/// One PulseAudio sink input as `pactl list sink-inputs` describes it.
public struct SinkInput: Sendable {
    public var index = -1
    public var corked = false
    public var muted = false
    public var sink = -1
    /// Per-channel volumes in PulseAudio units (65536 = 100 %).
    public var volumes: [Int] = []
    public var properties: [String: String] = [:]

    public init() {}

    public static func parse(_ listing: String) -> [SinkInput] {
        var inputs: [SinkInput] = []
        for line in listing.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Sink Input #") {
                var input = SinkInput()
                input.index = Int(text.dropFirst("Sink Input #".count)) ?? -1
                inputs.append(input)
            }
            guard !inputs.isEmpty else { continue }
            if text.hasPrefix("Corked:") { inputs[inputs.count - 1].corked = text.hasSuffix("yes") }
            if text.hasPrefix("Mute:") { inputs[inputs.count - 1].muted = text.hasSuffix("yes") }
            if text.hasPrefix("Sink:") { inputs[inputs.count - 1].sink = Int(text.dropFirst("Sink:".count).trimmingCharacters(in: .whitespaces)) ?? -1 }
            if text.hasPrefix("Volume:") {
                // "Volume: front-left: 32768 /  50% / -18.06 dB,   front-right: …"
                inputs[inputs.count - 1].volumes = text.components(separatedBy: ",").compactMap { channel in
                    channel.components(separatedBy: ":").last?.components(separatedBy: "/").first
                        .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                }
            }
            if let range = text.range(of: " = \""), text.hasSuffix("\"") {
                let key = String(text[..<range.lowerBound])
                let value = String(text[range.upperBound..<text.index(before: text.endIndex)])
                inputs[inputs.count - 1].properties[key] = value
            }
        }
        return inputs
    }
}

/// A recording of the `speakers` sink's monitor under way (16-bit, 44.1 kHz, left channel kept).
public struct SpeakerRecording {
    var recorder: Child
    let file: String

    /// Stops the recorder and returns the left channel, less its first 0.4 s (the recorder settling).
    public consuming func finish() -> [Int16] {
        kill(recorder.pid, SIGTERM)
        _ = recorder.wait()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
        let skip = min(data.count, 44100 * 4 / 10) & ~3
        return data.dropFirst(skip).withUnsafeBytes { raw in
            let frames = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: frames.count - 1, by: 2).map { frames[$0] }
        }
    }
}

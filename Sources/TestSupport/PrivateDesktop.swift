import Foundation
import Glibc

/// A private session bus and a private PulseAudio (null sink `speakers`, role-cork) for tests and
/// benchmarks, with the environment a client needs to use them. ``stop()`` kills both by PID.
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
    public init(serviceDirectory: String? = nil, openToOtherUsers: Bool = false, roleCork: Bool = true) throws {
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
        pulseArguments = ["--daemonize=yes", "--exit-idle-time=-1", "-n", native, "--load=module-null-sink sink_name=speakers"]
            + (roleCork ? ["--load=module-role-cork"] : []) + ["--log-target=stderr"]
        do {
            pids.append(try startPulse())
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
    private var pulseArguments: [String] = []

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

    /// Kills PulseAudio (by PID) and starts it again with the same modules, as when the sound server restarts.
    public func restartPulse() throws {
        guard pids.count > 1 else { return }
        let old = pids.removeLast()
        kill(old, SIGKILL)
        let pidFile = environment["XDG_RUNTIME_DIR"]! + "/pulse/pid"
        _ = eventually(5) { kill(old, 0) != 0 }
        try? FileManager.default.removeItem(atPath: pidFile)
        pids.append(try startPulse())
    }

    /// Kills the daemons (by PID) and removes the directory.
    public func stop() {
        for pid in pids { kill(pid, SIGKILL) }
        pids.removeAll()
        try? FileManager.default.removeItem(atPath: directory)
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

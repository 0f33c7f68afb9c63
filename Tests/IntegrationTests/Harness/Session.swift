import Foundation
import SDBus
import Testing

/// A private session bus and a private PulseAudio (null sink, role-cork), the reprise processes
/// started on them, and a client connection. Everything is torn down by PID in ``close()``.
final class Session {
    let directory: String
    let busAddress: String
    let environment: [String: String]
    /// The test's own sd-bus client connection.
    let bus: Bus
    private var daemonPIDs: [pid_t] = []
    private var processes: [Child] = []
    private(set) var propertiesChanged: [[String: DBusValue]] = []
    private(set) var seeked: [Int64] = []

    /// - Parameter serviceDirectory: a D-Bus activation directory the private bus also reads.
    init(serviceDirectory: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-it-\(UUID().uuidString)").path
        let runtime = directory + "/xdg", home = directory + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["HOME"] = home
        env["PULSE_SERVER"] = "unix:\(runtime)/pulse/native"
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "WATCHDOG_USEC")

        var busArguments = ["--session", "--fork", "--print-address=1", "--print-pid=1"]
        if let serviceDirectory {
            let config = directory + "/bus.conf"
            try """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <include>/usr/share/dbus-1/session.conf</include>
                  <servicedir>\(serviceDirectory)</servicedir>
                </busconfig>
                """.write(toFile: config, atomically: true, encoding: .utf8)
            busArguments = ["--config-file=\(config)", "--fork", "--print-address=1", "--print-pid=1"]
        }
        let dbus = try runCommand("dbus-daemon", busArguments, environment: env)
        let lines = dbus.output.split(separator: "\n").map(String.init)
        guard dbus.status == 0, lines.count >= 2, let pid = pid_t(lines[1]) else {
            throw GenerationError(message: "dbus-daemon failed: \(dbus.errors)")
        }
        busAddress = lines[0]
        daemonPIDs.append(pid)
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment = env
        let pulse = try runCommand("pulseaudio", ["--daemonize=yes", "--exit-idle-time=-1", "-n",
                                                  "--load=module-native-protocol-unix",
                                                  "--load=module-null-sink sink_name=speakers",
                                                  "--load=module-role-cork", "--log-target=stderr"],
                                   environment: env)
        let pidFile = runtime + "/pulse/pid"
        guard pulse.status == 0, eventually(10, { FileManager.default.fileExists(atPath: pidFile) }),
              let pulsePID = pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else {
            throw GenerationError(message: "pulseaudio failed: \(pulse.errors)")
        }
        daemonPIDs.append(pulsePID)
        bus = try Bus.connect(address: busAddress)
        let path = "path='/org/mpris/MediaPlayer2'"
        try bus.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',\(path)") {
            [unowned self] message in
            if message.arguments.first == .string("org.mpris.MediaPlayer2.Player"), message.arguments.count == 3,
               let changed = message.arguments[1].dictionary {
                propertiesChanged.append(changed)
            }
        }
        try bus.addMatch("type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked',\(path)") {
            [unowned self] message in
            if case .int64(let position)? = message.arguments.first { seeked.append(position) }
        }
    }

    /// Makes ``close()`` kill `pid` too (a process the bus started, say).
    func adopt(_ pid: pid_t) { daemonPIDs.append(pid) }

    /// Kills the session's dbus-daemon, as when the desktop session ends.
    func killBus() {
        kill(daemonPIDs[0], SIGKILL)
    }

    /// Kills every process this session started (by PID) and removes its files.
    func close() {
        for index in processes.indices where processes[index].isRunning() {
            kill(processes[index].pid, SIGKILL)
            _ = processes[index].wait()
        }
        for pid in daemonPIDs { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: reprise

    /// Starts reprise with `arguments` and waits until it owns `name`. Returns its PID.
    @discardableResult
    func launch(_ arguments: [String], waitingFor name: String? = "org.mpris.MediaPlayer2.reprise",
                extraEnvironment: [String: String] = [:]) throws -> pid_t {
        let logPath = directory + "/reprise-\(processes.count).log"
        let child = try Child.spawn(repriseBinary, ["--verbose"] + arguments,
                                    environment: environment.merging(extraEnvironment) { $1 },
                                    stdout: logPath, stderr: logPath)
        processes.append(child)
        if let name {
            let owned = eventually { !isRunning(child.pid) || nameHasOwner(name) }
            guard owned, isRunning(child.pid) else {
                throw GenerationError(message: "reprise did not take \(name): \(log(of: child.pid))")
            }
        }
        return child.pid
    }

    func isRunning(_ pid: pid_t) -> Bool {
        guard let index = processes.firstIndex(where: { $0.pid == pid }) else { return false }
        return processes[index].isRunning()
    }

    /// Waits for the reprise process `pid` to exit and returns its exit code.
    func waitForExit(_ pid: pid_t, seconds: Double = 20) -> Int32? {
        guard let index = processes.firstIndex(where: { $0.pid == pid }) else { return nil }
        guard eventually(seconds, { !processes[index].isRunning() }) else { return nil }
        return processes[index].wait()
    }

    func log(of pid: pid_t) -> String {
        guard let index = processes.firstIndex(where: { $0.pid == pid }) else { return "" }
        return (try? String(contentsOfFile: directory + "/reprise-\(index).log", encoding: .utf8)) ?? ""
    }

    func nameHasOwner(_ name: String) -> Bool {
        let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(name)])
        return reply?.first == .bool(true)
    }

    // MARK: MPRIS through sd-bus

    static let name = "org.mpris.MediaPlayer2.reprise"
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    func get(_ property: String, interface: String = Session.player, on name: String = Session.name) throws -> DBusValue {
        try bus.getProperty(destination: name, path: Session.path, interface: interface, name: property)
    }

    func set(_ property: String, _ value: DBusValue, interface: String = Session.player) throws {
        try bus.setProperty(destination: Session.name, path: Session.path, interface: interface, name: property, value)
    }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = Session.player,
              on name: String = Session.name) throws -> [DBusValue] {
        try bus.call(destination: name, path: Session.path, interface: interface, member: member, arguments)
    }

    func status() -> String? { (try? get("PlaybackStatus"))?.stringValue }
    func metadata() -> [String: DBusValue] { (try? get("Metadata"))?.dictionary ?? [:] }
    func title() -> String? { metadata()["xesam:title"]?.stringValue }
    func position() -> Int64? { (try? get("Position"))?.int64Value }

    /// Dispatches signals that have arrived (waiting briefly for more).
    func pump() { bus.processPending(waitingUpTo: 20_000) }

    /// Pumps signals until `condition` holds (or the hang guard expires).
    func waitFor(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        eventually(seconds, pollEvery: 0) {
            pump()
            return condition()
        }
    }

    func clearSignals() {
        pump()
        propertiesChanged.removeAll()
        seeked.removeAll()
    }

    // MARK: other clients

    /// Runs playerctl against this session's bus.
    @discardableResult
    func playerctl(_ arguments: String...) throws -> CommandResult {
        try runCommand("playerctl", arguments, environment: environment)
    }

    func gdbus(_ arguments: [String]) throws -> CommandResult {
        try runCommand("gdbus", arguments, environment: environment)
    }

    /// PulseAudio's sink inputs (playing streams) that belong to `process`.
    func sinkInputs(of pid: pid_t) throws -> [SinkInput] {
        let listing = try runCommand("pactl", ["list", "sink-inputs"], environment: environment).output
        return SinkInput.parse(listing).filter { $0.properties["application.process.id"] == String(pid) }
    }
}

/// One PulseAudio sink input as `pactl list sink-inputs` describes it.
struct SinkInput {
    var corked = false
    var properties: [String: String] = [:]

    static func parse(_ listing: String) -> [SinkInput] {
        var inputs: [SinkInput] = []
        for line in listing.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Sink Input #") { inputs.append(SinkInput()) }
            guard !inputs.isEmpty else { continue }
            if text.hasPrefix("Corked:") { inputs[inputs.count - 1].corked = text.hasSuffix("yes") }
            if let range = text.range(of: " = \"") , text.hasSuffix("\"") {
                let key = String(text[..<range.lowerBound])
                let value = String(text[range.upperBound..<text.index(before: text.endIndex)])
                inputs[inputs.count - 1].properties[key] = value
            }
        }
        return inputs
    }
}

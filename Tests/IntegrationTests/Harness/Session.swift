import BusInterfaces
import Foundation
import SDBus
import Testing
import TestSupport

/// A private session bus and a private PulseAudio (null sink, role-cork), the real playerctld daemon following
/// the players on that bus (as on many desktops), the reprise processes started on them, and a client
/// connection. ``close()`` records an issue when playerctld did not survive the test, then tears everything
/// down by PID.
final class Session {
    let directory: String
    let busAddress: String
    let environment: [String: String]
    /// The private home the session's programs see.
    var home: String { environment["HOME"]! }
    /// The test's own sd-bus client connection.
    let bus: Bus
    private let desktop: PrivateDesktop
    private var adopted: [pid_t] = []
    private var processes: [Child] = []
    private(set) var propertiesChanged: [[String: DBusValue]] = []
    private(set) var seeked: [Int64] = []
    /// TrackList signals as (member, arguments), in arrival order.
    private(set) var trackListSignals: [(member: String, arguments: [DBusValue])] = []
    /// How many PropertiesChanged on TrackList invalidated Tracks.
    private(set) var tracksInvalidated = 0

    /// - Parameter serviceDirectory: a D-Bus activation directory the private bus also reads.
    /// Signals of app.reprise.AudioSession1 as (member, arguments), in arrival order.
    private(set) var audioSignals: [(member: String, arguments: [DBusValue])] = []

    /// The playerctld daemon running on this bus, and its connection's unique name (its re-announcements of
    /// Reprise's signals are left out of the signals recorded here).
    private(set) var playerctld: pid_t?
    private var playerctldConnection = ""
    private var busKilled = false
    /// What ``close()`` ends first, the latest first: the tools a test started beside the session.
    private var closers: [() -> Void] = []
    static let playerctldName = "org.mpris.MediaPlayer2.playerctld"

    init(serviceDirectory: String? = nil, roleCork: Bool = true, withPlayerctld: Bool = true,
         soundServer: SoundServerKind = .minimalPulseAudio) throws {
        desktop = try PrivateDesktop(serviceDirectory: serviceDirectory, roleCork: roleCork, soundServer: soundServer)
        directory = desktop.directory
        busAddress = desktop.busAddress
        environment = desktop.environment
        bus = try Bus.connect(address: busAddress)
        if withPlayerctld {
            do {
                try startPlayerctld()
            } catch {
                close()
                throw error
            }
        }
        let path = "path='/org/mpris/MediaPlayer2'"
        try bus.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',\(path)") {
            [unowned self] message in
            guard message.sender != playerctldConnection else { return }
            if message.arguments.first == .string("org.mpris.MediaPlayer2.Player"), message.arguments.count == 3,
               let changed = message.arguments[1].dictionary {
                propertiesChanged.append(changed)
            }
            if message.arguments.first == .string("org.mpris.MediaPlayer2.TrackList"), message.arguments.count == 3,
               message.arguments[2].stringArray?.contains("Tracks") == true {
                tracksInvalidated += 1
            }
        }
        try bus.addMatch("type='signal',interface='org.mpris.MediaPlayer2.TrackList',\(path)") { [unowned self] message in
            guard message.sender != playerctldConnection else { return }
            trackListSignals.append((message.member, message.arguments))
        }
        try bus.addMatch("type='signal',interface='app.reprise.AudioSession1',path='\(RepriseObjects.ownPath)'") {
            [unowned self] message in
            audioSignals.append((message.member, message.arguments))
        }
        try bus.addMatch("type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked',\(path)") {
            [unowned self] message in
            guard message.sender != playerctldConnection else { return }
            if case .int64(let position)? = message.arguments.first { seeked.append(position) }
        }
    }

    /// Starts the real playerctld daemon in the foreground and waits until it owns its name.
    private func startPlayerctld() throws {
        let child = try Child.spawn("playerctld", [], environment: environment, stdout: directory + "/playerctld.log",
                                    stderr: directory + "/playerctld.log")
        processes.append(child)
        playerctld = child.pid
        guard eventually(10, { ownerProcess(of: Self.playerctldName) == child.pid }),
              let owner = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                        [.string(Self.playerctldName)]).first?.stringValue else {
            throw HarnessError(message: "playerctld did not start: \(output(ofLog: "playerctld"))")
        }
        playerctldConnection = owner
    }

    /// playerctld is still the process this session started (not dead, and not replaced by D-Bus activation).
    var playerctldIsAlive: Bool {
        guard let playerctld else { return false }
        return isRunning(playerctld) && ownerProcess(of: Self.playerctldName) == playerctld
    }

    /// Makes ``close()`` kill `pid` too (a process the bus started, say).
    func adopt(_ pid: pid_t) { adopted.append(pid) }

    /// Kills the session's dbus-daemon, as when the desktop session ends.
    func killBus() {
        busKilled = true
        kill(desktop.busPID, SIGKILL)
    }

    /// Kills every process this session started (by PID) and removes its files.
    func close() {
        for closer in closers.reversed() { closer() }
        closers = []
        if playerctld != nil, !busKilled, !playerctldIsAlive {
            let exit = processes.first { $0.pid == playerctld }?.exitStatus.map { "wait status \($0)" } ?? "running"
            let owner = ownerProcess(of: Self.playerctldName).map { "owner \($0)" } ?? "no owner"
            Issue.record("playerctld did not survive this test (\(exit), \(owner)): \(output(ofLog: "playerctld"))")
        }
        for index in processes.indices where processes[index].isRunning() {
            kill(processes[index].pid, SIGKILL)
            _ = processes[index].wait()
        }
        for pid in adopted { kill(pid, SIGKILL) }
        desktop.stop()
    }

    /// Runs `command` in a tmux terminal of `columns`×`rows` on this session's bus and sound server; the terminal is
    /// closed in ``close()``.
    func terminal(_ command: [String], columns: Int = 100, rows: Int = 30) throws -> Tmux {
        let tmux = try Tmux(command, environment: environment, columns: columns, rows: rows)
        onClose { tmux.close() }
        return tmux
    }

    /// A private X server for this session's windows, stopped in ``close()``.
    func virtualDisplay() throws -> VirtualDisplay {
        let display = try VirtualDisplay(directory: directory)
        onClose { display.stop() }
        return display
    }

    /// Runs `body` in ``close()``, before the session's processes are killed (the latest registered first).
    func onClose(_ body: @escaping () -> Void) {
        closers.append(body)
    }

    // MARK: files

    /// Creates the folder `relativePath` (and its parents) below the session's directory; returns its path.
    @discardableResult
    func makeFolder(_ relativePath: String) throws -> String {
        try Self.makeFolder(directory + "/" + relativePath)
    }

    /// Creates the folder `relativePath` (and its parents) below the session's home; returns its path.
    @discardableResult
    func makeHomeFolder(_ relativePath: String) throws -> String {
        try Self.makeFolder(home + "/" + relativePath)
    }

    private static func makeFolder(_ path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
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
                throw HarnessError(message: "reprise did not take \(name): \(log(of: child.pid))")
            }
        }
        return child.pid
    }

    /// Starts reprise with `arguments` and expects `condition` to hold within the usual wait (the service's log is
    /// printed when it does not). Returns its PID.
    @discardableResult
    func launch(_ arguments: [String], extraEnvironment: [String: String] = [:], until condition: () -> Bool,
                sourceLocation: SourceLocation = #_sourceLocation) throws -> pid_t {
        let pid = try launch(arguments, extraEnvironment: extraEnvironment)
        #expect(waitFor { condition() }, "\(log(of: pid))", sourceLocation: sourceLocation)
        return pid
    }

    /// Starts another program on this session (its output in `name`.log under the session's directory); it is
    /// killed by PID in ``close()``.
    @discardableResult
    func start(_ tool: String, _ arguments: [String], logName name: String,
               extraEnvironment: [String: String] = [:]) throws -> pid_t {
        let logPath = directory + "/\(name).log"
        let child = try Child.spawn(tool, arguments, environment: environment.merging(extraEnvironment) { $1 },
                                    stdout: logPath, stderr: logPath)
        processes.append(child)
        return child.pid
    }

    /// What the program started as `name` has written so far.
    func output(ofLog name: String) -> String {
        (try? String(contentsOfFile: directory + "/\(name).log", encoding: .utf8)) ?? ""
    }

    /// The process id of the connection that owns `name`, or nil when nobody does.
    func ownerProcess(of name: String) -> pid_t? {
        let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID", [.string(name)])
        guard case .uint32(let pid)? = reply?.first else { return nil }
        return pid_t(bitPattern: pid)
    }

    /// Starts mpv with mpv-mpris (Debian's packages) playing `file` in a loop through the session's sound server,
    /// and waits until its MPRIS name is on the bus.
    func startMPV(playing file: String) throws -> pid_t {
        let pid = try start("mpv", ["--no-config", "--script=/usr/lib/mpv-mpris/mpris.so", "--no-video", "--ao=pulse",
                                    "--no-terminal", "--loop-file=inf", file], logName: "mpv")
        guard waitFor(20, { ownerProcess(of: "org.mpris.MediaPlayer2.mpv") == pid }) else {
            throw HarnessError(message: "mpv did not take org.mpris.MediaPlayer2.mpv: \(output(ofLog: "mpv"))")
        }
        return pid
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
        (try? String(contentsOfFile: logPath(of: pid), encoding: .utf8)) ?? ""
    }

    /// Where the output of the Reprise started as `pid` goes.
    func logPath(of pid: pid_t) -> String {
        guard let index = processes.firstIndex(where: { $0.pid == pid }) else { return "/dev/null" }
        return directory + "/reprise-\(index).log"
    }

    func nameHasOwner(_ name: String) -> Bool {
        let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(name)])
        return reply?.first == .bool(true)
    }

    // MARK: MPRIS through sd-bus

    static let name = "org.mpris.MediaPlayer2.reprise"
    static let path = RepriseObjects.mprisPath
    static let player = "org.mpris.MediaPlayer2.Player"

    func get(_ property: String, interface: String = Session.player, on name: String = Session.name) throws -> DBusValue {
        try bus.getProperty(destination: name, path: RepriseObjects.path(for: interface), interface: interface, name: property)
    }

    func set(_ property: String, _ value: DBusValue, interface: String = Session.player) throws {
        try bus.setProperty(destination: Session.name, path: RepriseObjects.path(for: interface), interface: interface, name: property, value)
    }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = Session.player,
              on name: String = Session.name) throws -> [DBusValue] {
        try bus.call(destination: name, path: RepriseObjects.path(for: interface), interface: interface, member: member, arguments)
    }

    /// The D-Bus error `body` failed with (any other error as `Failed`), or nil when it succeeded.
    func dbusError(_ body: () throws -> Void) -> DBusError? {
        do {
            try body()
            return nil
        } catch let error as DBusError {
            return error
        } catch {
            return DBusError.failed("\(error)")
        }
    }

    func status() -> String? { (try? get("PlaybackStatus"))?.stringValue }
    func metadata() -> [String: DBusValue] { (try? get("Metadata"))?.dictionary ?? [:] }
    func title() -> String? { metadata()["xesam:title"]?.stringValue }
    func position() -> Int64? { (try? get("Position"))?.int64Value }
    /// The TrackList's `Tracks` (object paths), empty when it cannot be read.
    func trackIDs() -> [DBusValue] {
        guard case .array(_, let items)? = try? get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList") else { return [] }
        return items
    }

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
        trackListSignals.removeAll()
        tracksInvalidated = 0
        audioSignals.removeAll()
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

    /// PulseAudio's sink inputs (playing streams) that belong to process `pid` (all of them when nil).
    func sinkInputs(of pid: pid_t?) throws -> [SinkInput] { try desktop.sinkInputs(of: pid) }

    /// The `xesam:url` of every queued entry, in list order.
    func queuedURLs() -> [String] {
        let trackList = "org.mpris.MediaPlayer2.TrackList"
        guard case .array(_, let ids)? = try? get("Tracks", interface: trackList),
              case .array(_, let items)? = try? call("GetTracksMetadata", [.array(elementSignature: "o", ids)],
                                                     interface: trackList).first else { return [] }
        return items.compactMap { $0.dictionary?["xesam:url"]?.stringValue }
    }

    /// The loudest sample (of 32767) reaching the `speakers` output during `seconds`.
    func peakLevel(of sink: String = "speakers", seconds: Double = 0.6) throws -> Int { try desktop.peakLevel(of: sink, seconds: seconds) }
    func recordSpeakers(seconds: Double) throws -> [Int16] { try desktop.recordSpeakers(seconds: seconds) }
    func startRecordingSpeakers() throws -> SpeakerRecording { try desktop.startRecordingSpeakers() }

    /// Kills the session's PulseAudio and starts it again.
    func restartPulse() throws { try desktop.restartPulse() }

    /// Stops (SIGSTOP) or continues (SIGCONT) the process clients talk to for sound: a sound server that hangs.
    func freezeSoundServer(_ frozen: Bool) {
        if let pid = desktop.pulseServerPID { kill(pid, frozen ? SIGSTOP : SIGCONT) }
    }

    @discardableResult
    func pactl(_ arguments: String...) throws -> CommandResult {
        try runCommand("pactl", arguments, environment: environment)
    }

    /// Starts a stream of silence with `media.role=role` (a call when the role is phone); stop it with ``stopStream(_:)``.
    func startStream(role: String, volume: Int? = nil) throws -> pid_t {
        // A busy pipewire-pulse sometimes refuses a new client ("Input/Output error"): pacat exits, and is started again.
        var attempts = 0
        var child: Child
        repeat {
            attempts += 1
            child = try Child.spawn("pacat", ["--playback", "--raw", "--property=media.role=\(role)"]
                                        + (volume.map { ["--volume=\($0)"] } ?? []) + ["/dev/zero"],
                                    environment: environment, stdout: "/dev/null", stderr: directory + "/pacat.log")
            processes.append(child)
            // Under a loaded machine WirePlumber can take a while to link a new stream: wait generously (only a failure waits).
            let pid = child.pid
            let started = eventually(30) { (try? sinkInputs(of: pid))?.first.map { $0.sink >= 0 } == true || !isRunning(pid) }
            if started, isRunning(pid) { break }
            guard attempts < 3, !isRunning(pid) else {
                throw HarnessError(message: "pacat did not start a stream: \(output(ofLog: "pacat"))")
            }
        } while true
        // pipewire-pulse ignores a client's initial volume: set it on the server, as a user would.
        if let volume, let index = try sinkInputs(of: child.pid).first?.index {
            try pactl("set-sink-input-volume", String(index), String(volume))
            guard eventually(5, { (try? sinkInputs(of: child.pid))?.first?.volumes.allSatisfy { $0 == volume } == true }) else {
                throw HarnessError(message: "the stream's volume did not become \(volume)")
            }
        }
        return child.pid
    }

    func stopStream(_ pid: pid_t) {
        kill(pid, SIGKILL)
        _ = waitForExit(pid)
    }
}

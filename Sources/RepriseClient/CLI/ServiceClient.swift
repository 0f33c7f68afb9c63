import ArgumentParser
import Glibc
import LoopKit
import MPRIS
import PosixFiles
import RepriseCore
import SDBus

/// A connection to a running player on the session bus, for the command-line verbs.
struct ServiceClient {
    let bus: Bus
    /// The bus name of the player the verbs act on.
    let destination: String
    static let player = MPRIS.playerInterface
    static let trackList = MPRIS.trackListInterface

    /// `player` is another MPRIS player's name (`vlc` or `org.mpris.MediaPlayer2.vlc`); nil means Reprise.
    static func connect(player: String?) throws -> ServiceClient {
        let bus: Bus
        do { bus = try Bus.session() } catch { throw CLIError("cannot reach the session bus: \(error)") }
        let name = player.map { $0.hasPrefix(MPRIS.busNamePrefix) ? $0 : MPRIS.busNamePrefix + $0 } ?? MPRIS.repriseBusName
        return ServiceClient(bus: bus, destination: name)
    }

    var isRunning: Bool {
        let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(destination)])
        return reply?.first == .bool(true)
    }

    /// Fails with a clear message (exit status 1) when nothing owns the name.
    func requireRunning() throws {
        guard isRunning else {
            throw CLIError(destination == MPRIS.repriseBusName
                           ? "Reprise is not running (start it with: reprise FILE…)"
                           : "no player named \(destination) is running")
        }
    }

    func get(_ property: String, interface: String = player) throws -> DBusValue {
        do { return try bus.getProperty(destination: destination, path: MPRIS.objectPath(for: interface), interface: interface, name: property) } catch {
            throw CLIError(error.message)
        }
    }

    func set(_ property: String, _ value: DBusValue, interface: String = player) throws {
        do { try bus.setProperty(destination: destination, path: MPRIS.objectPath(for: interface), interface: interface, name: property, value) } catch {
            throw CLIError(error.message)
        }
    }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = player) throws -> [DBusValue] {
        do {
            // A Properties call goes to the object of the interface it names.
            let target = interface == "org.freedesktop.DBus.Properties" ? arguments.first?.stringValue ?? interface : interface
            return try bus.call(destination: destination, path: MPRIS.objectPath(for: target), interface: interface, member: member, arguments)
        } catch {
            throw CLIError(error.message)
        }
    }

    /// Entry ids of the track list, in order.
    func trackIDs() throws -> [DBusValue] {
        guard case .array(_, let ids) = try get("Tracks", interface: Self.trackList) else { return [] }
        return ids
    }

    /// The id of the `number`th entry (1-based) of the track list.
    func trackID(number: Int) throws -> DBusValue {
        let ids = try trackIDs()
        guard number >= 1, number <= ids.count else {
            throw CLIError("there is no entry \(number) (the queue has \(ids.count))", status: 2)
        }
        return ids[number - 1]
    }

    /// Hands files, directories, playlists or URIs (relative to the working directory) to Reprise.
    func openMedia(_ arguments: [String], enqueue: Bool) throws {
        let expanded = MediaLocation.expand(arguments, relativeTo: PosixFileSystem.currentDirectory(), in: PosixFileSystem())
        expanded.problems.forEach { printError("reprise: skipping \($0)") }
        guard !expanded.uris.isEmpty else { throw CLIError("nothing to play", status: 2) }
        try call("OpenMedia", [.strings(expanded.uris), .bool(enqueue)], interface: ControlsNames.interface)
    }
}

/// A failure the command line reports on standard error, with its exit status (1: the service, 2: the input).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let status: Int32
    init(_ message: String, status: Int32 = 1) {
        description = message
        self.status = status
    }
}

/// Options every bus verb takes.
struct TargetOptions: ParsableArguments {
    @Option(help: "Act on another MPRIS player (e.g. vlc, spotify) instead of Reprise.") var player: String?
    @Flag(help: "Print JSON for scripts.") var json = false

    /// After a verb that only acts: nothing on the terminal, `{"ok":true}` for scripts.
    func reportDone() {
        if json { printJSON(.object([("ok", .bool(true))])) }
    }

    func client() throws -> ServiceClient {
        let client = try ServiceClient.connect(player: player)
        try client.requireRunning()
        return client
    }
}

/// "on" or "off" (also "true"/"false"); anything else is bad input.
func parseSwitch(_ text: String) throws -> Bool {
    guard let on = ["on": true, "off": false, "true": true, "false": false][text.lowercased()] else {
        throw CLIError("'\(text)' is not on or off", status: 2)
    }
    return on
}

/// Runs a verb's body, turning ``CLIError`` into a message on standard error and its exit status.
func runVerb(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CLIError {
        printError("reprise: \(error.description)")
        throw ExitCode(error.status)
    }
}

/// The verbs of the command line (each a D-Bus client of a running player), for the `reprise` command's table.
public let clientVerbs: [any ParsableCommand.Type] = [
    Status.self, Play.self, Pause.self, Toggle.self, Next.self, Previous.self, Seek.self, Speed.self, Volume.self, Queue.self,
    GoTo.self, Add.self, Remove.self, Clear.self, Loop.self, Shuffle.self, Actions.self, Invoke.self, Category.self,
    Silent.self, OutputCommand.self, ReplayGain.self, Crossfade.self, Chapters.self, ChapterCommand.self, Sleep.self,
    Search.self, Browse.self, LibraryCommand.self,
    Video.self, UI.self,
]

/// When a Reprise service already owns its name: hands `media` to it (replacing its queue, or adding with
/// `enqueue`), or says that it runs when there is none, and returns true. False when none runs.
public func handToRunningService(_ media: [String], enqueue: Bool) throws -> Bool {
    guard let client = try? ServiceClient.connect(player: nil), client.isRunning else { return false }
    guard !media.isEmpty else {
        printLine("reprise is already running as \(client.destination)")
        return true
    }
    try runVerb { try client.openMedia(media, enqueue: enqueue) }
    return true
}

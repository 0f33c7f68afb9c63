import ArgumentParser
import Glibc
import LoopKit
import MPRIS
import PosixFiles
import RepriseCore
import BusInterfaces
import SDBus

/// A connection to a running player on the session bus, for the command-line verbs.
struct ServiceClient {
    let bus: Bus
    /// The bus name of the player the verbs act on.
    let destination: String

    /// `player` is another MPRIS player's name (`vlc` or `org.mpris.MediaPlayer2.vlc`); nil means Reprise.
    static func connect(player: String?) throws -> ServiceClient {
        let bus: Bus
        do { bus = try Bus.session() } catch { throw CLIError("cannot reach the session bus: \(error)") }
        let name = player.map { $0.hasPrefix(MPRIS.busNamePrefix) ? $0 : MPRIS.busNamePrefix + $0 } ?? RepriseObjects.busName
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
            throw CLIError(destination == RepriseObjects.busName
                           ? "Reprise is not running (start it with: reprise FILE…)"
                           : "no player named \(destination) is running")
        }
    }

    /// Calls `gone` once the player's name has no owner any more (it quit, was killed or crashed), also when that
    /// happened before the match was in place: a client that follows the player ends instead of waiting for ever.
    func onOwnerGone(_ gone: @escaping () -> Void) throws {
        var told = false
        let tell = { if !told { told = true; gone() } }
        try bus.addMatch(.nameOwnerChanged(name: destination)) { message in
            if message.arguments.count >= 3, message.arguments[2].stringValue == "" { tell() }
        }
        if !isRunning { tell() }
    }

    /// What a following client says when the player went away.
    var goneMessage: String {
        destination == RepriseObjects.busName ? "Reprise quit" : "\(destination) went away"
    }

    // Typed proxies of the player's interfaces, generated from dbus/*.xml like the service's side.
    var root: MediaPlayer2Proxy { MediaPlayer2Proxy(self) }
    var player: MediaPlayer2PlayerProxy { MediaPlayer2PlayerProxy(self) }
    var trackList: MediaPlayer2TrackListProxy { MediaPlayer2TrackListProxy(self) }
    var controls: Controls1Proxy { Controls1Proxy(self) }
    var sound: Sound1Proxy { Sound1Proxy(self) }
    var chapters: Chapters1Proxy { Chapters1Proxy(self) }
    var sleep: Sleep1Proxy { Sleep1Proxy(self) }
    var lyrics: Lyrics1Proxy { Lyrics1Proxy(self) }
    var audioSession: AudioSession1Proxy { AudioSession1Proxy(self) }
    var video: Video1Proxy { Video1Proxy(self) }
    var library: Library1Proxy { Library1Proxy(self) }
    var scrobbling: Scrobble1Proxy { Scrobble1Proxy(self) }
    var mpdServer: MPDServer1Proxy { MPDServer1Proxy(self) }

    /// The id of the `number`th entry (1-based) of the track list.
    func trackID(number: Int) throws -> String {
        let ids = try trackList.tracks
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
        try controls.openMedia(uris: expanded.uris, enqueue: enqueue)
    }
}

extension ServiceClient: DBusCalling {
    // Each interface is on its object: the MPRIS ones on the MPRIS object, Reprise's own on Reprise's.
    func call(interface: String, member: String, _ arguments: [DBusValue]) throws(DBusError) -> [DBusValue] {
        try bus.call(destination: destination, path: RepriseObjects.path(for: interface), interface: interface, member: member, arguments)
    }

    func property(interface: String, _ name: String) throws(DBusError) -> DBusValue {
        try bus.getProperty(destination: destination, path: RepriseObjects.path(for: interface), interface: interface, name: name)
    }

    func setProperty(interface: String, _ name: String, _ value: DBusValue) throws(DBusError) {
        try bus.setProperty(destination: destination, path: RepriseObjects.path(for: interface), interface: interface, name: name, value)
    }

    func allProperties(interface: String) throws(DBusError) -> [String: DBusValue] {
        let reply = try bus.call(destination: destination, path: RepriseObjects.path(for: interface), interface: "org.freedesktop.DBus.Properties",
                                 member: "GetAll", [.string(interface)])
        guard let values = reply.first?.dictionary else { throw .failed("a GetAll reply that is not a{sv}") }
        return values
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

    /// What was parsed, as a plain value (what ``QuickVerbs`` reads without the parser).
    var plain: Target { Target(player: player, json: json) }

    func reportDone() { plain.reportDone() }
    func client() throws -> ServiceClient { try plain.client() }
}

/// Which player a verb acts on, and whether it reports as JSON.
struct Target {
    var player: String?
    var json = false

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

/// A verb that talks to the player its ``TargetOptions`` name: `run(with:)` gets the connected client, and what it
/// throws becomes a message on standard error and the exit status (``runVerb(_:)``).
protocol ClientVerb: ParsableCommand {
    var target: TargetOptions { get }
    func run(with client: ServiceClient) throws
}

extension ClientVerb {
    func run() throws { try runVerb { try run(with: target.client()) } }
}

/// A verb that only acts: `act(on:)`, then nothing on the terminal (`{"ok":true}` with `--json`).
protocol ActionVerb: ClientVerb {
    func act(on client: ServiceClient) throws
}

extension ActionVerb {
    func run(with client: ServiceClient) throws {
        try act(on: client)
        target.reportDone()
    }
}

/// Runs a verb's body, turning ``CLIError`` into a message on standard error and its exit status.
func runVerb(_ body: () throws -> Void) throws {
    let status = try runReportingFailure(body)
    if status != 0 { throw ExitCode(status) }
}

/// Runs a verb's body: 0, or the exit status of its failure (reported on standard error). Errors other than
/// ``CLIError`` and ``DBusError`` (the argument parser's own) are thrown on.
func runReportingFailure(_ body: () throws -> Void) rethrows -> Int32 {
    do {
        try body()
        return 0
    } catch let error as CLIError {
        printError("reprise: \(error.description)")
        return error.status
    } catch let error as DBusError {
        printError("reprise: \(error.message)")
        return 1
    }
}

/// The verbs of the command line (each a D-Bus client of a running player), for the `reprise` command's table.
public let clientVerbs: [any ParsableCommand.Type] = [
    Status.self, Play.self, Pause.self, Toggle.self, Next.self, Previous.self, Seek.self, Speed.self, Volume.self, Queue.self,
    GoTo.self, Add.self, Remove.self, Clear.self, Loop.self, Shuffle.self, Actions.self, Invoke.self, Category.self,
    Silent.self, OutputCommand.self, ReplayGain.self, Crossfade.self, EqualizerCommand.self, Chapters.self, ChapterCommand.self, ChapterSkip.self, Sleep.self, LyricsCommand.self, ScrobbleCommand.self,
    Search.self, Browse.self, LibraryCommand.self,
    Video.self, PictureInPictureCommand.self, UI.self,
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

/// Runs a "show or set" verb: `change` first when a value was given, then what is now, as text or as `key` in JSON.
func showOrSet<Value>(_ target: TargetOptions, key: String, change: ((ServiceClient) throws -> Void)?,
                      read: (ServiceClient) throws -> Value, json: (Value) -> JSON, text: (Value) -> String) throws {
    try runVerb {
        let client = try target.client()
        try change?(client)
        let value = try read(client)
        if target.json { printJSON(.object([(key, json(value))])) } else { printLine(text(value)) }
    }
}

/// Checks a verb's on/off word before anything is asked of the service: nil (show) and `others` pass too.
func validateSwitch(_ word: String?, alsoAccepting others: [String] = []) throws {
    guard let word, !others.contains(word), AudioSettings.switchValue(word) == nil else { return }
    let words = ["on", "off"] + others
    throw ValidationError("'\(TerminalText.sanitized(word))' is not \(words.dropLast().joined(separator: ", ")) or \(words.last!)")
}

/// Checks a verb's word with the core's own parser, `parse`, whose refusal becomes the usage error; nil passes.
func validateWord(_ word: String?, with parse: (String) throws(PlayerError) -> Void) throws {
    guard let word else { return }
    do throws(PlayerError) { try parse(word) } catch { throw ValidationError(TerminalText.sanitized(error.message)) }
}

/// Runs an on/off "show or set" verb: `word` ("on", "off"…) is set first when given; shown as on or off.
func showOrSwitch(_ target: TargetOptions, key: String, word: String?, set: @escaping (ServiceClient, Bool) throws -> Void,
                  read: (ServiceClient) throws -> Bool) throws {
    let change = word.map { word in { (client: ServiceClient) in try set(client, parseSwitch(word)) } }
    try showOrSet(target, key: key, change: change, read: read, json: JSON.bool) { $0 ? "on" : "off" }
}

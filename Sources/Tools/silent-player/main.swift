import Glibc
import SDBus

// An MPRIS player that plays no sound on this machine, like a phone's player that KDE Connect mirrors or a
// proxy such as playerctld: it owns `org.mpris.MediaPlayer2.NAME`, goes Playing and Paused when asked
// (Play, Pause, PlayPause), announces it, and writes every call it receives to standard output. Tests use it
// to check that a name saying Playing is not taken for another player starting.
// Usage: silent-player NAME [--playing] [--title TEXT] [--hostile-numbers]
// --title: its Metadata carries TEXT as title and artist (tests put control sequences there); --hostile-numbers:
// Volume NaN, Rate 1e308 and Position Int64.max, as a broken player might report them.

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    say("usage: silent-player NAME [--playing]")
    exit(2)
}
/// One line to standard output in one write, so a test reading the log sees whole lines at once.
func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
}
let busName = "org.mpris.MediaPlayer2." + arguments[1]
let title = arguments.firstIndex(of: "--title").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let hostileNumbers = arguments.contains("--hostile-numbers")
let path = "/org/mpris/MediaPlayer2"

/// org.mpris.MediaPlayer2 and its Player, reduced to what a mirror has: a status that clients can change.
final class SilentPlayer: InterfaceImplementation {
    var playing: Bool
    var onChange: (() -> Void)?
    init(playing: Bool) { self.playing = playing }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        say("call \(call.member)")
        switch call.member {
        case "Play": playing = true
        case "Pause", "Stop": playing = false
        case "PlayPause": playing.toggle()
        default: break
        }
        onChange?()
        return .reply([])
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "PlaybackStatus": .string(playing ? "Playing" : "Paused")
        case "Identity": .string("Silent mirror")
        case "Metadata":
            .array(elementSignature: "{sv}", title.map { title in
                [.dictEntry(.string("mpris:trackid"), .variant(.objectPath("/org/mpris/MediaPlayer2/Track/1"))),
                 .dictEntry(.string("xesam:title"), .variant(.string(title))),
                 .dictEntry(.string("xesam:artist"), .variant(.strings([title])))]
            } ?? [])
        case "Volume": .double(hostileNumbers ? .nan : 1)
        case "Rate": .double(hostileNumbers ? 1e308 : 1)
        case "Position": .int64(hostileNumbers ? .max : 0)
        case "CanQuit", "CanRaise", "HasTrackList": .bool(false)
        default: .bool(true)
        }
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.readOnly(property)
    }
}

let root = InterfaceDescription(name: "org.mpris.MediaPlayer2", methods: [.init("Raise"), .init("Quit")],
                                properties: [.init("Identity", "s"), .init("CanQuit", "b"), .init("CanRaise", "b"),
                                             .init("HasTrackList", "b")])
let player = InterfaceDescription(
    name: "org.mpris.MediaPlayer2.Player",
    methods: [.init("Play"), .init("Pause"), .init("PlayPause"), .init("Stop"), .init("Next"), .init("Previous")],
    properties: [.init("PlaybackStatus", "s"), .init("Metadata", "a{sv}"), .init("CanPlay", "b"), .init("CanPause", "b"),
                 .init("Volume", "d"), .init("Rate", "d"), .init("Position", "x", emits: .none),
                 .init("CanControl", "b", emits: .none)])

do {
    let bus = try Bus.session()
    let implementation = SilentPlayer(playing: arguments.contains("--playing"))
    try bus.export(root, at: path, implementation: implementation)
    try bus.export(player, at: path, implementation: implementation)
    implementation.onChange = {
        try? bus.emitPropertiesChanged(path: path, interface: "org.mpris.MediaPlayer2.Player", names: ["PlaybackStatus"])
    }
    guard try bus.requestName(busName) else {
        say("\(busName) is taken")
        exit(1)
    }
    say("ready as \(busName)")
    while true { bus.processPending(waitingUpTo: 1_000_000) }
} catch {
    say("silent-player: \(error)")
    exit(1)
}

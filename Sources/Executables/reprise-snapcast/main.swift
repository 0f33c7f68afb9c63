import Foundation
import Glibc

// reprise-snapcast: Snapcast's stream plugin (`controlscript=`) for a stream Reprise feeds. snapserver starts it
// with `--stream=ID` and speaks newline-delimited JSON-RPC 2.0 on its stdin/stdout; it reaches Reprise through
// Reprise's MPD server (snapserver usually runs as a system user, without the desktop session's bus): `--mpd-host`,
// `--mpd-port`, else $MPD_HOST/$MPD_PORT, else 127.0.0.1:6600. Stream.Control and Stream.SetProperty reach Reprise;
// what Reprise plays (status, tags, capabilities) is told to snapserver whenever Reprise's MPD `idle` reports a
// change, and answered whenever snapserver asks.

var host = ProcessInfo.processInfo.environment["MPD_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
var port = ProcessInfo.processInfo.environment["MPD_PORT"].flatMap { UInt16($0) } ?? 6600
for argument in CommandLine.arguments.dropFirst() {
    if argument.hasPrefix("--mpd-host=") { host = String(argument.dropFirst("--mpd-host=".count)) }
    if argument.hasPrefix("--mpd-port="), let value = UInt16(argument.dropFirst("--mpd-port=".count)) { port = value }
    if argument == "--help" {
        print("usage: reprise-snapcast [--stream=ID] [--mpd-host=HOST|PATH] [--mpd-port=PORT]  (started by snapserver as a controlscript)")
        exit(0)
    }
}
signal(SIGPIPE, SIG_IGN)
let plugin = SnapcastPlugin(host: host, port: port)
plugin.run()

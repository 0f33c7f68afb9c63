// A benchmark reference: what any static Swift process costs before it does anything (its runtime's pages), and,
// with `--bus NAME`, a Swift sd-bus service that only owns NAME on the session bus and answers Peer calls.
// `make bench` builds it like Reprise and reads its RSS beside Reprise's. Runs until SIGTERM.
import Glibc
import SDBus

let arguments = CommandLine.arguments
var bus: Bus?
if let flag = arguments.firstIndex(of: "--bus"), flag + 1 < arguments.count {
    do {
        let connection = try Bus.session()
        guard try connection.requestName(arguments[flag + 1]) else { exit(1) }
        bus = connection
    } catch {
        print("swift-floor: \(error)")
        exit(1)
    }
}
signal(SIGTERM) { _ in _exit(0) }
while true {
    if let bus { bus.processPending(waitingUpTo: 1_000_000) } else { sleep(1) }
}

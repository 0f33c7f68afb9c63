import Glibc
import LoopKit
import MPRIS
import PosixFiles
import RepriseCore
import RepriseService
import SDBus

// `reprise`: the service, kept lean. It serves a command line of its own options and media that is there; every
// other command line (verbs, help, version, mistakes, a running service to hand media to) goes to `reprise-cli`
// beside it, which parses it whole. See ServeArguments.

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

/// Replaces this process with `reprise-cli` (found beside this executable) on the same arguments.
func handToCommandLine() -> Never {
    let cli = ProcessArguments.sibling("reprise-cli")
    execv(cli, CommandLine.unsafeArgv)
    writeToStandardError("reprise: cannot run \(cli): \(String(cString: strerror(errno)))")
    exit(1)
}

let media = ProcessArguments.current()
guard let serve = ServeArguments.parse(media, exists: { RawPath.withCString($0) { access($0, F_OK) } == 0 },
                                       currentDirectory: PosixFileSystem.currentDirectory) else { handToCommandLine() }
var check = AudioSettings()
do throws(PlayerError) {
    for setting in serve.settings { try check.set(setting.key, setting.value) }
} catch {
    writeToStandardError("reprise: " + TerminalText.sanitized(error.message, keepingTabs: true))
    exit(2)
}
// A service already runs: reprise-cli hands the media over (or says so).
if !serve.newInstance, let bus = try? Bus.session(),
   (try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                  member: "NameHasOwner", [.string(MPRIS.repriseBusName)]))?.first == .bool(true) {
    handToCommandLine()
}

// GStreamer starts and ends streaming threads with every stream; glibc gives each thread its own malloc arena,
// and memory freed in one is seldom returned, so RSS sat ~2.5 MiB higher under the soak. One arena costs no reply
// latency we can measure (BENCHMARKS.md). MALLOC_ARENA_MAX in the environment still decides when it is set.
if getenv("MALLOC_ARENA_MAX") == nil { limitMallocArenas(1) }
exit(Service.run(Options(verbose: serve.verbose, media: serve.media,
                         audio: serve.settings.map { (key: $0.key, value: $0.value) })))

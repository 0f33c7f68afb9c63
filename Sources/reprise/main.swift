import Glibc
import LoopKit
import PosixFiles
import RepriseClient
import RepriseCore

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

// GStreamer starts and ends streaming threads with every stream; glibc gives each thread its own malloc arena,
// and memory freed in one is seldom returned, so RSS sat ~2.5 MiB higher under the soak. One arena costs no reply
// latency we can measure (BENCHMARKS.md). MALLOC_ARENA_MAX in the environment still decides when it is set.
if getenv("MALLOC_ARENA_MAX") == nil { limitMallocArenas(1) }

// Arguments as their bytes, a file named "-…" as media (see ProcessArguments).
let arguments = ProcessArguments.current()
// The verbs bound to keys skip the argument parser's start-up (QuickVerbs); everything else goes through it.
if let status = QuickVerbs.run(arguments) { exit(status) }
// Media words go round the parser, whose time grows with the square of their number (see MediaWords).
let verbs = Set(RepriseCommand.configuration.subcommands.map { $0._commandName })
RepriseCommand.main(MediaWords.takeOut(of: arguments, verbs: verbs))

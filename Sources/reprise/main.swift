import CShims
import Glibc

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

// GStreamer starts and ends streaming threads with every stream; glibc gives each thread its own malloc arena,
// and memory freed across them is seldom returned, so RSS crept up by ~1 MiB a minute under the soak (two arenas
// still crept). One arena keeps it flat and ~5 MiB lower, with no reply latency lost (BENCHMARKS.md).
if getenv("MALLOC_ARENA_MAX") == nil { _ = rp_limit_malloc_arenas(1) }

RepriseCommand.main()

import CLoopShims
import Glibc

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Writes `line` and a newline to file descriptor 2 in one call, so lines from one process never interleave.
@Sendable public func writeToStandardError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Caps glibc's malloc arenas at `count` (before threads start): GStreamer starts and ends streaming threads with
/// every stream, and per-thread arenas hold on to freed memory.
@discardableResult
public func limitMallocArenas(_ count: Int) -> Bool { rp_limit_malloc_arenas(Int32(count)) }

/// Large blocks (`bytes` or more) always mapped on their own and unmapped when freed. glibc otherwise raises its
/// threshold to the size of each large block freed, up to 32 MiB, so a 5 MiB cover read once and freed left every
/// later block of that size in the heap, which does not shrink past what still lives above it.
@discardableResult
public func keepLargeBlocksMapped(from bytes: Int) -> Bool { rp_fix_mmap_threshold(Int32(clamping: bytes)) }

/// Lowers the calling thread's CPU priority (nice 10) and disk priority (idle class): for background work.
public func lowerCurrentThreadPriority() { _ = rp_lower_thread_priority(10) }

/// What both executables do first: a clean signal mask (children of Foundation.Process inherit a blocked one, and
/// SIGTERM and SIGINT must reach the event loop's handlers), and one malloc arena unless `MALLOC_ARENA_MAX` says
/// otherwise (GStreamer starts and ends streaming threads with every stream; glibc gives each thread its own arena,
/// and memory freed in one is seldom returned, so RSS sat ~2.5 MiB higher under the soak; one arena costs no reply
/// latency we can measure, BENCHMARKS.md).
public func prepareProcess() {
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigprocmask(SIG_SETMASK, &unblocked, nil)
    if getenv("MALLOC_ARENA_MAX") == nil { limitMallocArenas(1) }
}

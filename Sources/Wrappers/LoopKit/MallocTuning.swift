import CLoopShims
import Glibc

/// glibc malloc's tunables for the service, which only the environment at exec can set (`GLIBC_TUNABLES`, read by
/// the dynamic loader). The service keeps one malloc arena (``limitMallocArenas(_:)``), so every thread that frees
/// more small blocks than its per-thread cache keeps (7 of each size by default) takes the arena's lock; a library
/// pass's TagLib readers free hundreds a file while its writer allocates, and waited on each other for a fifth of
/// the pass. A cache of 64 blocks a size keeps most of a file's blocks in the thread that reads it: 50,000 files
/// indexed in 1.3 s instead of 1.7 s; 256 was no faster and kept 2–3 MiB more resident in the threads that play
/// (BENCHMARKS.md). Threads give their cache back when they end.
public enum MallocTuning {
    /// The tunables Reprise sets.
    public static let tunables = "glibc.malloc.tcache_count=64"

    /// `GLIBC_TUNABLES` with Reprise's added, or nil when it already has them (or names its own tcache count,
    /// which is left alone).
    public static func environmentValue(current: String?) -> String? {
        guard let current, !current.isEmpty else { return tunables }
        guard !current.split(separator: ":").contains(where: { $0.hasPrefix("glibc.malloc.tcache_count=") }) else { return nil }
        return current + ":" + tunables
    }

    /// GLib's blocks from malloc (`G_SLICE`, read when GLib loads, before `main`): GLib 2.74's slice allocator
    /// (Debian 12's; 2.76 dropped it for malloc) takes its magazines from `posix_memalign`, which pads each 2 KiB
    /// chunk to its alignment, and GStreamer's objects held 1.4 MiB more of the heap while audio played. A value
    /// the environment already has is left alone.
    public static let sliceSetting = "always-malloc"

    /// Puts the tunables and GLib's setting in this process's environment, for a program it is about to exec;
    /// false when both were there already.
    @discardableResult
    public static func exportForExec() -> Bool {
        var changed = false
        if let value = environmentValue(current: getenv("GLIBC_TUNABLES").map { String(cString: $0) }) {
            changed = setenv("GLIBC_TUNABLES", value, 1) == 0
        }
        if getenv("G_SLICE") == nil { changed = setenv("G_SLICE", sliceSetting, 1) == 0 || changed }
        return changed
    }

    /// Gives the pages of every block freed since back to the system (glibc's `malloc_trim`): after work that
    /// allocated a lot and is over (a library pass), so that memory the process no longer uses leaves its RSS.
    public static func returnFreedMemory() { rp_malloc_trim() }

    /// When this process started without the tunables or GLib's setting, execs its own executable again with them
    /// (same PID, same arguments), before any thread exists. Returns only when they were there already, or the exec
    /// failed.
    public static func applyByExecingSelf() {
        guard exportForExec() else { return }
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }
}

import RepriseCore

/// Reads the process tree from procfs (kernel memory: the reads never wait on a disk).
public enum ProcessTree {
    /// The parent of process `pid`, or nil when it is gone or cannot be read.
    @Sendable public static func parent(of pid: Int32) -> Int32? {
        guard pid > 0, let bytes = PosixFileSystem().contents(of: "/proc/\(pid)/stat", limit: 4096) else { return nil }
        return AudiblePlayers.parentProcessID(inProcStat: String(decoding: bytes, as: UTF8.self))
    }
}

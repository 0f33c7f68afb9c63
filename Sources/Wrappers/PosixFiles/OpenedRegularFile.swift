import Glibc
import RepriseCore

/// A regular file opened without blocking and checked on its descriptor, so that what is read afterwards is that
/// very file even if its name now points to a FIFO or a device: GStreamer is given ``procPath`` (the descriptor's
/// own name under `/proc/self/fd`), whose open cannot block. Closed by ``close()``.
public struct OpenedRegularFile: ~Copyable {
    public let descriptor: Int32
    /// Its size when opened.
    public let size: Int64
    /// Its last modification when opened, in seconds since 1970.
    public let modifiedSeconds: Int64
    /// The same, in nanoseconds (``nanoseconds(_:)``), as the library's index compares it.
    public let modifiedNanoseconds: Int64

    /// Nil when `path` is missing, a symbolic link (unless `followingLinks`: then what it leads to counts), or
    /// anything but a regular file. Opened without blocking: a FIFO or a device is refused, never waited on.
    public init?(path: String, followingLinks: Bool = false) {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW)
        let descriptor = RawPath.withCString(path) { open($0, flags) }
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Self.nanoseconds(info.st_mtim)
    }

    /// A file time in nanoseconds since 1970, wrapping past the year 2262 (a file system may store later times, and
    /// any file can be given one): a value only ever compared with another, never a trap.
    public static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// A path that opens the same file (the same inode), whatever its name is now.
    public var procPath: String { "/proc/self/fd/\(descriptor)" }

    public consuming func close() { Glibc.close(descriptor) }
}

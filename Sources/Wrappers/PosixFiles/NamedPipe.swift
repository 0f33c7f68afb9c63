import Glibc
import RepriseCore

/// A FIFO another program reads (snapserver's `pipe://` source), checked — and made when missing — before any
/// other program is asked to write into it: a sound server that fails to make one can be left broken.
public enum NamedPipe {
    /// Makes sure `path` is a FIFO Reprise may hand to the sound server: an absolute path without white space or
    /// control characters, in a folder that exists; a FIFO there already, or one made now (mode 0666 less the umask,
    /// as the sound server would). Returns why not, or nil. Blocks on a slow file system: call it off the loop.
    public static func prepare(_ path: String) -> String? {
        guard path.hasPrefix("/"), path.utf8.count < 4096 else { return "\(path) is not an absolute path" }
        if path.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7f || "\"'\\".unicodeScalars.contains($0) }) {
            return "the path holds white space, quotes or control characters, which the sound server's module arguments do not carry whole"
        }
        var folder = String(path[..<path.lastIndex(of: "/")!])
        if folder.isEmpty { folder = "/" }
        var info = stat()
        guard RawPath.withCString(folder, { stat($0, &info) }) == 0 else { return "its folder \(folder) does not exist" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        if RawPath.withCString(path, { stat($0, &info) }) == 0 {
            return info.st_mode & S_IFMT == S_IFIFO ? nil : "\(path) exists and is not a FIFO"
        }
        guard errno == ENOENT else { return "\(path) cannot be checked: \(String(cString: strerror(errno)))" }
        guard RawPath.withCString(path, { mkfifo($0, 0o666) }) == 0 else {
            return "no FIFO can be made at \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}

/// A look at how full a FIFO is, through a write end that never writes (opened without blocking: the sound server's
/// own descriptor counts as a reader). A FIFO that stays full to the byte is one nobody reads from.
public final class PipeFill: Sendable {
    private let descriptor: Int32
    private let capacity: Int32

    /// Opens `path`'s write end without blocking; nil when it is not a FIFO or cannot be opened. Call it off the loop
    /// (the path's file system may be slow); ``isFull`` never blocks.
    public init?(path: String) {
        var info = stat()
        guard RawPath.withCString(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFIFO else { return nil }
        let descriptor = RawPath.withCString(path) { open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        let size = fcntl(descriptor, Self.getPipeSize)
        capacity = size > 0 ? size : 65_536
    }

    deinit { close(descriptor) }

    /// The bytes the FIFO holds now, and whether that is all it can take but a page (its writer is held up);
    /// nil when it cannot be asked.
    public func look() -> (queuedBytes: Int, isFull: Bool)? {
        var queued: Int32 = 0
        guard ioctl(descriptor, UInt(Self.bytesQueued), &queued) == 0 else { return nil }
        return (Int(queued), queued >= capacity - 4096)
    }

    /// Linux's F_GETPIPE_SZ and FIONREAD (not exported to Swift without _GNU_SOURCE).
    private static let getPipeSize: Int32 = 1032
    private static let bytesQueued: Int32 = 0x541B
}

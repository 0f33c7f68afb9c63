/// What the player asks of the file system; the executable answers with POSIX calls.
public protocol FileSystem: Sendable {
    /// What is at `path`, following symbolic links.
    func kind(of path: String) -> FileKind
    func isReadable(_ path: String) -> Bool
    /// The names in a directory (without "." and ".."), in no particular order; nil when unreadable.
    func entries(of directory: String) -> [String]?
    /// Which file `path` is (links followed), to notice a directory seen before (a symbolic-link loop).
    func identity(of path: String) -> FileIdentity?
    /// Nanoseconds since the epoch of the last change to `path`'s contents.
    func modificationTime(of path: String) -> Int64?
    /// The bytes of the regular file at `path`, nil when unreadable or larger than `limit`.
    func contents(of path: String, limit: Int) -> [UInt8]?
}

public enum FileKind: Sendable {
    case missing, regularFile, directory, other
}

/// A file's device and inode numbers.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

import Glibc
import RepriseCore

/// The real file system through POSIX calls (stat follows links; names are bytes, kept as ``RawPath`` strings).
public struct PosixFileSystem: FileSystem {
    public init() {}

    public func kind(of path: String) -> FileKind {
        var info = stat()
        guard RawPath.withCString(path, { stat($0, &info) }) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    public func isReadable(_ path: String) -> Bool { RawPath.withCString(path) { access($0, R_OK) } == 0 }

    public func entries(of directory: String) -> [String]? {
        guard let stream = RawPath.withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                RawPath.string(fromBytes: Array(raw.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard RawPath.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    public func modificationTime(of path: String) -> Int64? {
        var info = stat()
        guard RawPath.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    public func contents(of path: String, limit: Int) -> [UInt8]? {
        let descriptor = RawPath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= limit else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// The process's working directory.
    public static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return RawPath.string(fromBytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }
}

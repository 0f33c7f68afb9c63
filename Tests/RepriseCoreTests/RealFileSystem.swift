import Foundation
import RepriseCore

/// The real file system through Foundation, for core tests that create real files.
struct RealFileSystem: FileSystem {
    func kind(of path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    func isReadable(_ path: String) -> Bool { FileManager.default.isReadableFile(atPath: path) }

    func entries(of directory: String) -> [String]? { try? FileManager.default.contentsOfDirectory(atPath: directory) }

    func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    func modificationTime(of path: String) -> Int64? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.modificationDate] as? Date).map { Int64($0.timeIntervalSince1970 * 1e9) }
    }

    func contents(of path: String, limit: Int) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= limit else { return nil }
        return Array(data)
    }
}

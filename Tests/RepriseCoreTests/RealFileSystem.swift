import Foundation
import RepriseCore

/// The real file system through Foundation, for core tests that create real files.
struct RealFileSystem: FileSystem {
    func kind(of path: String) -> FileKind {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory ? .directory : .regularFile
    }

    func isReadable(_ path: String) -> Bool { FileManager.default.isReadableFile(atPath: path) }

    func entries(of directory: String) -> [String]? { try? FileManager.default.contentsOfDirectory(atPath: directory) }
}

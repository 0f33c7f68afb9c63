import Glibc
import GStreamerKit
import LoopKit
import PosixFiles
import RepriseCore

/// Embedded cover pictures, each written once to `$XDG_CACHE_HOME/reprise/art/<sha256>.<ext>` (files 0600,
/// directories 0700) and named by a `file://` URI; files are content-addressed, so one album's tracks share one.
/// ``trim()`` keeps the cache to the most recently used pictures.
public struct ArtCache: Sendable {
    public let directory: String
    /// The most pictures and bytes kept by ``trim()``.
    static let maximumFiles = 2000
    static let maximumBytes = 200 << 20

    public static func standard() -> ArtCache { ArtCache(directory: XDGDirectories.cacheHome + "/reprise/art") }

    /// The URI of picture `bytes` of `kind` in the cache, writing it first when it is not there yet; nil when it
    /// cannot be written.
    public func store(_ bytes: [UInt8], kind: ImageKind) -> String? {
        guard let digest = sha256Hex(bytes) else { return nil }
        let path = directory + "/" + digest + "." + kind.fileExtension
        var info = stat()
        if stat(path, &info) == 0 && Int(info.st_size) == bytes.count {
            utimensat(AT_FDCWD, path, nil, 0) // used now: the trim keeps the most recently used
            return MediaURI.file(path: path)
        }
        guard DurableFile.makePrivateDirectories(directory, ownComponents: 2),
              bytes.withUnsafeBytes({ DurableFile.write($0, to: path) }) else { return nil }
        return MediaURI.file(path: path)
    }

    /// Removes the least recently used pictures beyond ``maximumFiles`` or ``maximumBytes``. Runs off the loop.
    public func trim() {
        guard let stream = opendir(directory) else { return }
        var files: [(path: String, used: Int, size: Int)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            let path = directory + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            files.append((path, info.st_mtim.tv_sec, Int(info.st_size)))
        }
        closedir(stream)
        var kept = 0, bytes = 0
        for file in files.sorted(by: { $0.used > $1.used }) {
            if kept < Self.maximumFiles && bytes + file.size <= Self.maximumBytes {
                kept += 1
                bytes += file.size
            } else {
                unlink(file.path)
            }
        }
    }
}

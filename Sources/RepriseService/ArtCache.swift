import Glibc
import GStreamerKit
import LoopKit
import RepriseCore

/// Embedded cover pictures, each written once to `$XDG_CACHE_HOME/reprise/art/<sha256>.<ext>` (files 0600,
/// directories 0700) and named by a `file://` URI; files are content-addressed, so one album's tracks share one.
struct ArtCache {
    let directory: String

    static func standard() -> ArtCache { ArtCache(directory: XDGDirectories.cacheHome + "/reprise/art") }

    /// The URI of picture `bytes` of `kind` in the cache, writing it first when it is not there yet; nil when it
    /// cannot be written.
    func store(_ bytes: [UInt8], kind: ImageKind) -> String? {
        guard let digest = sha256Hex(bytes) else { return nil }
        let path = directory + "/" + digest + "." + kind.fileExtension
        var info = stat()
        if stat(path, &info) == 0 && Int(info.st_size) == bytes.count { return MediaURI.file(path: path) }
        guard DurableFile.makePrivateDirectories(directory, ownComponents: 2),
              bytes.withUnsafeBytes({ DurableFile.write($0, to: path) }) else { return nil }
        return MediaURI.file(path: path)
    }
}

import CGStreamer
import Glibc
import GStreamerKit
import RepriseCore

/// Embedded cover pictures, each written once to `$XDG_CACHE_HOME/reprise/art/<sha256>.<ext>` (files 0600,
/// directories 0700) and named by a `file://` URI; files are content-addressed, so one album's tracks share one.
struct ArtCache {
    let directory: String

    static func standard() -> ArtCache { ArtCache(directory: XDGDirectories.cacheHome + "/reprise/art") }

    /// The URI of `image` in the cache, writing it first when it is not there yet; nil when it cannot be written.
    func store(_ image: EmbeddedImage) -> String? {
        guard let digest = image.bytes.withUnsafeBufferPointer({ g_compute_checksum_for_data(G_CHECKSUM_SHA256, $0.baseAddress, gsize($0.count)) })
        else { return nil }
        defer { g_free(digest) }
        let path = directory + "/" + String(cString: digest) + "." + Self.fileExtension(for: image.mediaType)
        var info = stat()
        if stat(path, &info) == 0 && Int(info.st_size) == image.bytes.count { return MediaURI.file(path: path) }
        guard DurableFile.makePrivateDirectories(directory, ownComponents: 2),
              image.bytes.withUnsafeBytes({ DurableFile.write($0, to: path) }) else { return nil }
        return MediaURI.file(path: path)
    }

    private static func fileExtension(for mediaType: String) -> String {
        switch mediaType {
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/bmp": "bmp"
        default: "jpg"
        }
    }
}

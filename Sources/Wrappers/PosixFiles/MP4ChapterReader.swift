import Glibc
import RepriseCore

/// Reads the Nero chapters (`moov/udta/chpl`) of a local MP4/M4B file: the top-level boxes are walked with `pread`
/// (the `moov` box is often at the end), and only `moov` is read, up to 64 MiB. Opened non-blocking and refused
/// unless a regular file. Blocking I/O: call it off the event loop.
public enum MP4ChapterReader {
    public static let moovLimit = 64 << 20

    /// The chapters, or nil when the file is not an MP4 with a `chpl` box (or cannot be read).
    public static func chapters(atPath path: String) -> [Chapter]? {
        let descriptor = RawPath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let fileSize = Int64(info.st_size)
        var offset: Int64 = 0
        for _ in 0..<4096 { // top-level boxes: a handful in any real file
            guard offset + 8 <= fileSize, let header = Descriptor.read(descriptor, at: offset, count: 16), header.count >= 8 else { return nil }
            var size = Int64(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            var headerSize: Int64 = 8
            if size == 1 {
                guard header.count == 16 else { return nil }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int64.max) else { return nil }
                size = Int64(large)
                headerSize = 16
            } else if size == 0 {
                size = fileSize - offset
            }
            guard size >= headerSize, size <= fileSize - offset else { return nil } // no sum that can overflow
            if offset == 0, String(decoding: header[4..<8], as: UTF8.self) != "ftyp" { return nil } // not MP4
            if String(decoding: header[4..<8], as: UTF8.self) == "moov" {
                let bodySize = size - headerSize
                guard bodySize <= moovLimit, let body = Descriptor.read(descriptor, at: offset + headerSize, count: Int(bodySize)),
                      body.count == Int(bodySize), let chpl = MP4Chapters.chplBody(inMoovBody: body) else { return nil }
                return MP4Chapters.chapters(inChplBody: chpl)
            }
            offset += size
        }
        return nil
    }
}

import GStreamerKit
import Glibc
import LoopKit
import MPDProtocol
import PosixFiles
import RepriseCore
import RepriseLibrary
import TagLibKit

/// The music folder's files for MPD clients, read on a worker: a folder's cover file (the names MPD looks for) by
/// the chunk asked, a file's embedded picture with the same reader the library uses (TagLib, else GStreamer's
/// discoverer), a file's every tag (TagLib's property map), a file's sound's fingerprint (GStreamer's chromaprint
/// element), a folder's entries. Files are opened without following links and only when they are regular files.
final class MPDMusicFolderFiles: MPDMusicFiles {
    /// Nil when no worker thread could be made: no covers then.
    private let work: BackgroundWork?
    /// Fingerprints, on a worker of their own: decoding two minutes of sound must not hold covers up.
    private let fingerprintWork: BackgroundWork?

    /// How long one file's fingerprint may take (a crafted file that decodes for ever is given up).
    static let fingerprintTimeoutMilliseconds: Int64 = 30_000
    /// How many fingerprints may wait at once. Each client waits for its answer, but one that hangs up and asks
    /// again on a new connection would leave a growing queue of decodes behind.
    static let fingerprintsWaitingAtMost = 8
    private var fingerprintsWaiting = 0

    init(work: BackgroundWork?, fingerprintWork: BackgroundWork?) {
        self.work = work
        self.fingerprintWork = fingerprintWork
    }

    let folderModifiedSeconds: @Sendable (String) -> Int64? = { folder in
        var info = stat()
        guard RawPath.withCString(folder, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return Int64(info.st_mtim.tv_sec)
    }

    /// The names MPD 0.23 looks for in a song's folder, in its order.
    static let coverNames = ["cover.png", "cover.jpg", "cover.webp"]

    func folderCover(in folder: String, offset: Int, length: Int, then: @escaping ((size: Int, bytes: [UInt8])?) -> Void) {
        guard let work else { return then(nil) }
        work.run({ () -> (size: Int, bytes: [UInt8])? in
            for name in Self.coverNames {
                guard let file = OpenedRegularFile(path: folder + "/" + name) else { continue }
                let size = Int(file.size)
                let bytes = Self.read(file.descriptor, from: offset, upTo: min(length, max(0, size - offset)))
                file.close()
                return (size, bytes)
            }
            return nil
        }, then: then)
    }

    func embeddedPicture(of path: String, then: @escaping (((bytes: [UInt8], mediaType: String)?)?) -> Void) {
        guard let work else { return then(.some(nil)) }
        work.run({ () -> ((bytes: [UInt8], mediaType: String)?)? in
            var info = stat()
            guard RawPath.withCString(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            var found: (bytes: [UInt8], mediaType: String)?
            let reader = TrackFileReader(art: { bytes, mediaType in
                found = (bytes, mediaType)
                return nil
            })
            _ = reader.read(path)
            return .some(found)
        }, then: then)
    }

    func comments(of path: String, limitBytes: Int, then: @escaping (MPDFileComments?) -> Void) {
        guard let work else { return then(nil) }
        work.run({ () -> MPDFileComments? in
            let fileExtension = MediaLocation.fileExtension(ofPath: path)
            guard TagLibReader.reads(fileExtension: fileExtension), let file = OpenedRegularFile(path: path) else { return nil }
            let comments = TagLibReader.properties(descriptor: file.descriptor, size: file.size, fileExtension: fileExtension,
                                                   limitBytes: limitBytes)
            file.close()
            switch comments {
            case .read(let found): return .comments(found)
            case .tooLarge: return .tooLarge
            case .unreadable: return nil
            }
        }, then: then)
    }

    func fingerprint(of path: String, then: @escaping (MPDFingerprint) -> Void) {
        guard let fingerprintWork else { return then(.unavailable) }
        guard fingerprintsWaiting < Self.fingerprintsWaitingAtMost else { return then(.busy) }
        fingerprintsWaiting += 1
        fingerprintWork.run({ () -> MPDFingerprint in
            var info = stat()
            guard RawPath.withCString(path, { lstat($0, &info) }) == 0 else {
                return .cannotOpen(reason: String(cString: strerror(errno)))
            }
            // A folder, a link, a FIFO or a device: nothing a decoder is given (a FIFO would block it).
            guard let file = OpenedRegularFile(path: path) else { return .undecodable }
            let outcome = AudioFingerprint.chromaprint(of: "file://" + file.procPath,
                                                       timeoutMilliseconds: Self.fingerprintTimeoutMilliseconds)
            file.close()
            switch outcome {
            case .fingerprint(let fingerprint): return .fingerprint(fingerprint)
            case .undecodable, .timedOut: return .undecodable
            case .unavailable: return .unavailable
            }
        }, then: { [weak self] outcome in
            self?.fingerprintsWaiting -= 1
            then(outcome)
        })
    }

    func entries(of folder: String, then: @escaping ([MPDFolderEntry]?) -> Void) {
        guard let work else { return then(nil) }
        work.run({ () -> [MPDFolderEntry]? in
            guard let stream = RawPath.withCString(folder, { opendir($0) }) else { return nil }
            defer { closedir(stream) }
            let descriptor = dirfd(stream)
            var entries: [MPDFolderEntry] = []
            while let entry = readdir(stream) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                guard bytes != [0x2E], bytes != [0x2E, 0x2E] else { continue }
                let name = RawPath.string(fromBytes: bytes)
                var info = stat()
                // Not following links, as MPD's local storage.
                guard RawPath.withCString(name, { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                guard kind == S_IFREG || kind == S_IFDIR else { continue }
                entries.append(MPDFolderEntry(name: name, size: kind == S_IFREG ? Int64(info.st_size) : nil,
                                              modified: Int64(info.st_mtim.tv_sec)))
            }
            return entries
        }, then: then)
    }

    /// Up to `count` bytes of `descriptor` from `offset` (fewer at its end or on an error).
    private static func read(_ descriptor: Int32, from offset: Int, upTo count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }
}

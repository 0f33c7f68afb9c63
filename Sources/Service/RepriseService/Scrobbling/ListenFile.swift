import Glibc
import PosixFiles
import RepriseCore

/// The queue of listens on disk (`$XDG_STATE_HOME/reprise/listens.jsonl`), one listen per line: each new listen
/// appended and synced before it counts as kept (a kill -9 or a power cut after that loses nothing), the whole file
/// rewritten atomically after the server took some. Used on a worker only: nothing here runs on the loop.
struct ListenFile: Sendable {
    let path: String

    static func standard() -> ListenFile { ListenFile(path: XDGDirectories.stateHome + "/reprise/listens.jsonl") }

    enum Reading: Sendable {
        case none
        case read(ListenQueue, refusedLines: Int)
        /// Not a queue Reprise could have written (not a regular file, far too large): moved aside, named here.
        case setAside(String, why: String)
        /// The read was asked to stop (the service is stopping): nothing was taken from the file, which stays.
        case cancelled
    }

    /// Reads the queue; a file no queue could be (a FIFO, a device, larger than a full queue) is renamed aside,
    /// never read, so the next listens start a new file.
    func read(capacity: Int, isCancelled: () -> Bool = { false }) -> Reading {
        let descriptor = RawPath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW) }
        guard descriptor >= 0 else { return errno == ENOENT ? .none : setAside("cannot be opened (errno \(errno))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return setAside("not a regular file") }
        let largest = ListenQueue.largestFile(capacity: capacity)
        guard Int(info.st_size) <= largest else { return setAside("\(info.st_size) bytes, more than a full queue's \(largest)") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= largest, !isCancelled() {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard !isCancelled(), let (queue, refused) = ListenQueue.reading(bytes, capacity: capacity, isCancelled: isCancelled) else {
            return .cancelled
        }
        return .read(queue, refusedLines: refused)
    }

    private func setAside(_ why: String) -> Reading {
        let aside = path + ".unreadable-\(time(nil))"
        let moved = RawPath.withCString(path) { from in RawPath.withCString(aside) { rename(from, $0) } } == 0
        return .setAside(moved ? aside : path + " (could not be moved: errno \(errno))", why: why)
    }

    /// Appends `line` and syncs it; false when it could not be written.
    func append(_ line: String) -> Bool {
        guard makeDirectory() else { return false }
        let descriptor = RawPath.withCString(path) {
            open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o600)
        }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBytes { Descriptor.writeAll(descriptor, $0) } && fdatasync(descriptor) == 0
    }

    /// Replaces the file with `text` (a crash leaves the old file or the new one); an empty queue removes it.
    func rewrite(_ text: String) -> Bool {
        guard !text.isEmpty else { return unlink(path) == 0 || errno == ENOENT }
        guard makeDirectory() else { return false }
        return Array(text.utf8).withUnsafeBytes { DurableFile.write($0, to: path) }
    }

    private func makeDirectory() -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return true }
        return DurableFile.makePrivateDirectories(String(path[..<slash]), ownComponents: 1)
    }
}

import Glibc
import RepriseCore

/// Follows changes under the music folders with inotify: one watch per directory (added as directories are found
/// or created), events read without blocking from the loop when the descriptor is readable, and turned into the
/// paths that changed. The watch table is shared between the loop (reading) and the library's worker (adding),
/// under a lock.
public final class LibraryWatcher: @unchecked Sendable {
    /// A change under a music folder.
    public struct Change: Sendable, Equatable, Hashable {
        public let path: String
        /// It was a directory (created, moved in or out, removed).
        public let isDirectory: Bool
        /// It is gone (deleted or moved away).
        public let removed: Bool
    }

    public let descriptor: Int32
    private var watches: [Int32: String] = [:]
    private var mutex = pthread_mutex_t()
    /// Watches that could not be added (the system's inotify limit), for the log.
    public private(set) var refused = 0

    public init?() {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        pthread_mutex_init(&mutex, nil)
    }

    deinit {
        close(descriptor)
        pthread_mutex_destroy(&mutex)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    static let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_ATTRIB | IN_ONLYDIR)

    /// Watches `directory` and every directory under it (no links followed, hidden ones skipped; the files in them
    /// are not looked at).
    public func watch(_ directory: String) {
        FolderWalk.directories(directory) { path in
            let added = RawPath.withCString(path) { inotify_add_watch(descriptor, $0, Self.mask) }
            if added < 0 {
                // Only the system's limits count as refusals; a folder that is not there is no news.
                if errno == ENOSPC || errno == ENOMEM { locked { refused += 1 } }
                return false
            }
            locked { watches[added] = path }
            return true
        }
    }

    /// Reads what is pending (never blocks); the changes, in order, without repeats.
    public func readChanges() -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                if mask & UInt32(IN_IGNORED) != 0 {
                    _ = locked { watches.removeValue(forKey: wd) }
                    continue
                }
                guard let directory = locked({ watches[wd] }), !nameBytes.isEmpty else { continue }
                let name = RawPath.string(fromBytes: Array(nameBytes))
                guard !name.hasPrefix(".") else { continue }
                let isDirectory = mask & UInt32(IN_ISDIR) != 0
                let removed = mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0
                // A file being written shows up at its close; its creation alone says nothing yet.
                if !isDirectory, mask & UInt32(IN_CREATE) != 0 { continue }
                changes.append(Change(path: directory + "/" + name, isDirectory: isDirectory, removed: removed))
            }
        }
        var seen = Set<Change>()
        return changes.filter { seen.insert($0).inserted }
    }
}

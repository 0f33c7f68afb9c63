import Glibc
import Synchronization
import GStreamerKit
import PosixFiles
import RepriseCore

/// Brings the store up to date with the music folders: walks each root (without following links out of it),
/// reads the tags of files that are new or whose size or modification time changed (``TrackFileReader``: TagLib,
/// GStreamer's discoverer where TagLib cannot), forgets files that are gone, and marks a root that is not there (a
/// removed disk) unavailable rather than forgetting it. Runs on the library's worker thread.
public final class LibraryScanner {
    /// Audio files the library indexes (video is left to folders and playlists).
    public static let extensions = MediaLocation.mediaExtensions.subtracting(MediaLocation.videoExtensions).union(["m4b"])

    private let store: LibraryStore
    private let reader: TrackFileReader

    /// Progress of the pass under way.
    public struct Progress: Sendable, Equatable {
        public var seen = 0
        public var read = 0
        public var removed = 0
        public var total = 0
        public init() {}
    }

    /// - Parameter art: stores an embedded picture (bytes, media type) and returns its path.
    public init(store: LibraryStore, art: (([UInt8], String) -> String?)?) {
        self.store = store
        reader = TrackFileReader(art: art)
    }

    /// Files written to the index in one transaction.
    static let batchSize = 512
    /// From this many rows written in a pass (and a fifth of what the root had), the full-text index is rebuilt at
    /// its end rather than kept row by row (``LibraryStore/suspendTextIndexing()``).
    static let bulkRows = 1_000

    /// One pass over `roots`; `report` is told the progress now and then (on this thread). Per root, a pipeline of
    /// three threads: one walks the folders (no links followed, hidden entries skipped) and lists the files new or
    /// changed since the index saw them (size, modification time); one reads their tags (TrackFileReader); this one
    /// writes them to the index in transactions of ``batchSize``, then forgets the files that are gone.
    public func scan(roots: [String], report: (Progress) -> Void) throws {
        defer { if store.textIndexingSuspended { try? store.rebuildTextIndex() } } // after an error too, if it can
        try store.keepOnly(roots: roots)
        var progress = Progress()
        for root in roots {
            var info = stat()
            guard RawPath.withCString(root, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                try store.setAvailable(false, root: root) // a disk that is not there: keep what it had
                continue
            }
            try store.setAvailable(true, root: root)
            try scan(root: root, known: store.fileStates(root: root), progress: &progress, report: report)
        }
        if store.textIndexingSuspended { try store.rebuildTextIndex() }
        report(progress)
    }

    /// What the walker hands the reader, and the reader the writer.
    private enum Walked: Sendable {
        /// Files to read.
        case files([FoundFile])
        /// The walk is over: the files the index knew that were not found.
        case gone([String])
    }

    private enum Read: Sendable {
        case tracks([(LibraryTrack, Int64, Int64)])
        case gone([String])
    }

    /// Counts the pass's threads keep as they go, for its progress: files found by the walk, and files looked at
    /// (unchanged, or read).
    private final class Counters: Sendable {
        let found = Atomic<Int>(0)
        let looked = Atomic<Int>(0)
    }

    private struct FoundFile: Sendable {
        var path: String
        var size: Int64
        var modified: Int64
        var previous: LibraryStore.FileState?
    }

    private func scan(root: String, known: [String: LibraryStore.FileState], progress: inout Progress,
                      report: (Progress) -> Void) throws {
        let walked = ScanPipe<Walked>(capacity: 16), read = ScanPipe<Read>(capacity: 4), counters = Counters()
        let reader = UncheckedReader(self.reader)
        let walker = ScanThread { Self.walk(root, known: known, counters: counters, into: walked) }
        let reading = walker == nil ? nil : ScanThread { Self.read(from: walked, with: reader.reader, counters: counters, into: read) }
        defer { // on an error too: the pipes closed first, so neither thread waits for room, then both joined
            walked.close()
            read.close()
            reading?.join()
            walker?.join()
        }
        guard reading != nil else { throw ScanError.noThread }
        let before = progress
        while let message = read.receive() {
            switch message {
            case .tracks(let tracks):
                // Many rows (a first index, a new disk): the full-text index is rebuilt once at the end of the pass.
                let written = progress.read - before.read + tracks.count
                if !store.textIndexingSuspended, written >= Self.bulkRows, written * 5 >= known.count {
                    try store.suspendTextIndexing()
                }
                try store.batch { for (track, size, modified) in tracks { try store.store(track, root: root, size: size, modified: modified) } }
                progress.read += tracks.count
            case .gone(let paths):
                try store.batch { for path in paths { try store.remove(path: path) } }
                progress.removed += paths.count
            }
            progress.total = before.total + counters.found.load(ordering: .relaxed)
            progress.seen = before.seen + counters.looked.load(ordering: .relaxed)
            report(progress)
        }
    }

    /// Walks `root`, sending the files not in the index as it knew them, in batches; then what the index knew
    /// that is no longer there.
    private static func walk(_ root: String, known: [String: LibraryStore.FileState], counters: Counters,
                             into pipe: ScanPipe<Walked>) {
        var known = known, pending: [FoundFile] = [], open = true
        walk(root, depth: 0) { path, size, modified in
            guard open else { return }
            counters.found.add(1, ordering: .relaxed)
            let previous = known.removeValue(forKey: path)
            if let previous, previous.size == size, previous.modified == modified, previous.available {
                counters.looked.add(1, ordering: .relaxed)
                return
            }
            pending.append(FoundFile(path: path, size: size, modified: modified, previous: previous))
            if pending.count >= 64 {
                open = pipe.send(.files(pending))
                pending.removeAll(keepingCapacity: true)
            }
        }
        if open, !pending.isEmpty { open = pipe.send(.files(pending)) }
        if open { pipe.send(.gone(Array(known.keys))) }
        pipe.close()
    }

    /// Reads the tags of every file the walker sends, handing them to the writer in batches of ``batchSize`` (or
    /// what it has every ¼ s, so that progress shows). A file that is no longer a regular file is not indexed; if
    /// the index knew it, it is forgotten with the files gone.
    private static func read(from walked: ScanPipe<Walked>, with reader: TrackFileReader, counters: Counters,
                             into pipe: ScanPipe<Read>) {
        var batch: [(LibraryTrack, Int64, Int64)] = [], vanished: [String] = [], open = true
        var lastSent = monotonicMilliseconds()
        while open, let message = walked.receive() {
            switch message {
            case .files(let files):
                for file in files where open {
                    counters.looked.add(1, ordering: .relaxed)
                    guard let track = reader.read(file.path, withFileTags: true) else {
                        if file.previous != nil { vanished.append(file.path) }
                        continue
                    }
                    var indexed = track.track
                    indexed.lyrics = track.fileTags?.lyrics
                    batch.append((indexed, file.size, file.modified))
                    if batch.count >= batchSize || monotonicMilliseconds() - lastSent >= 250 {
                        open = pipe.send(.tracks(batch))
                        batch.removeAll(keepingCapacity: true)
                        lastSent = monotonicMilliseconds()
                    }
                }
            case .gone(let paths):
                if open, !batch.isEmpty { open = pipe.send(.tracks(batch)) }
                batch.removeAll()
                if open { pipe.send(.gone(paths + vanished)) }
            }
        }
        walked.close()
        pipe.close()
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    enum ScanError: Error, CustomStringConvertible {
        case noThread
        var description: String { "no thread could be started for the pass" }
    }

    /// The reader, handed to the pass's reading thread: only that thread uses it while the pass runs, and the pass
    /// joins the thread before it returns.
    private struct UncheckedReader: @unchecked Sendable {
        let reader: TrackFileReader
        init(_ reader: TrackFileReader) { self.reader = reader }
    }

    /// Reads one file again (a change seen by inotify); forgets it when it is gone or no longer music.
    public func update(path: String, root: String) throws {
        var info = stat()
        guard RawPath.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG, Self.isMusic(path),
              let track = reader.read(path) else {
            return try store.remove(path: path)
        }
        try store.store(track, root: root, size: Int64(info.st_size), modified: Self.modified(info))
    }

    /// Reads the new and changed files under `folder` (a directory created or moved in while Reprise runs).
    public func scanFolder(_ folder: String, root: String) throws {
        let known = try store.fileStates(root: root)
        var found: [(String, Int64, Int64)] = []
        Self.walk(folder, depth: 0) { found.append(($0, $1, $2)) }
        try store.batch {
            for (path, size, modified) in found {
                if let state = known[path], state.size == size, state.modified == modified, state.available { continue }
                guard let track = reader.read(path) else { continue }
                try store.store(track, root: root, size: size, modified: modified)
            }
        }
    }

    static func isMusic(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), path[dot...].contains("/") == false else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// A file's modification time as the index keeps it (nanoseconds).
    public static func modified(_ info: stat) -> Int64 { Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) }

    /// Every music file under `directory` (regular files only; no links followed; hidden entries skipped).
    private static func walk(_ directory: String, depth: Int, _ visit: (String, Int64, Int64) -> Void) {
        guard depth < 32, let entries = PosixFileSystem().entries(of: directory) else { return }
        for name in entries.sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            var info = stat()
            guard RawPath.withCString(path, { lstat($0, &info) }) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(path, depth: depth + 1, visit)
            case S_IFREG where isMusic(path): visit(path, Int64(info.st_size), modified(info))
            default: continue
            }
        }
    }
}

import Glibc
import RepriseCore
import Synchronization

/// One library pass over one music folder, as a pipeline: a thread walks the folders (no links followed, hidden
/// entries skipped) and lists the files new or changed since the index saw them (size, modification time); reader
/// threads read their tags (``TrackFileReader``, one each); the calling thread writes them to the index in
/// transactions of ``batchSize``, then forgets the files that are gone. All threads are joined before ``run`` returns,
/// on an error too; they inherit the caller's low CPU and I/O priority.
struct ScanPass {
    let root: String
    /// What the index knew under `root`, by path.
    let known: [String: LibraryStore.FileState]
    let readers: Int
    let art: (([UInt8], String) -> String?)?

    /// Files written to the index in one transaction.
    static let batchSize = 512
    /// Files a reader reads in one call (their descriptors open at once; those not read in the service — plain FLAC
    /// is — sent to TagLib's process together).
    static let readWindow = 64
    /// From this many rows written in a pass (and a fifth of what the root had), the full-text index is rebuilt at
    /// its end rather than kept row by row (``LibraryStore/suspendTextIndexing()``).
    static let bulkRows = 1_000

    init(root: String, known: [String: LibraryStore.FileState], readers: Int, art: (([UInt8], String) -> String?)?) {
        self.root = root
        self.known = known
        self.readers = max(1, readers)
        self.art = art
    }

    /// A file the walk found that the index does not have as it is (its size and time are taken when it is read).
    struct FoundFile: Sendable {
        var path: String
        var previous: LibraryStore.FileState?
        /// The cover picture in its folder, seen in the walk's listing.
        var folderCover: String?
    }

    /// What the readers hand the writer.
    enum Read: Sendable {
        case tracks([(LibraryTrack, Int64, Int64)])
        /// Files the index knew that are no longer regular files.
        case vanished([String])
    }

    /// What the threads share: counts for the progress, the files the walk did not find, readers still running.
    final class Shared: Sendable {
        let found = Atomic<Int>(0)
        let looked = Atomic<Int>(0)
        let gone = Mutex<[String]?>(nil)
        let readersLeft: Atomic<Int>
        init(readers: Int) { readersLeft = Atomic(readers) }
    }

    func run(writingTo store: LibraryStore, progress: inout LibraryScanner.Progress,
             report: (LibraryScanner.Progress) -> Void) throws {
        let walked = ScanPipe<[FoundFile]>(capacity: 16), read = ScanPipe<Read>(capacity: 4), shared = Shared(readers: readers)
        let root = root, known = known
        var threads: [ScanThread] = []
        defer { // on an error too: the pipes closed first, so no thread waits for room, then all joined
            walked.close()
            read.close()
            threads.forEach { $0.join() }
        }
        guard let walker = ScanThread({ Self.walk(root, known: known, shared: shared, into: walked) }) else {
            throw ScanError.noThread
        }
        threads.append(walker)
        for _ in 0..<readers {
            let reader = UncheckedReader(TrackFileReader(art: art))
            guard let thread = ScanThread({ Self.read(from: walked, with: reader.reader, shared: shared, into: read) }) else {
                throw ScanError.noThread
            }
            threads.append(thread)
        }
        let before = progress
        var vanished: [String] = []
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
            case .vanished(let paths):
                vanished += paths
            }
            progress.total = before.total + shared.found.load(ordering: .relaxed)
            progress.seen = before.seen + shared.looked.load(ordering: .relaxed)
            report(progress)
        }
        // Every reader has ended: what is gone is known only now (and only if the walk went to its end).
        guard let gone = shared.gone.withLock({ $0 }) else { return }
        try store.batch { for path in gone + vanished { try store.remove(path: path) } }
        progress.removed += gone.count + vanished.count
        progress.total = before.total + shared.found.load(ordering: .relaxed)
        progress.seen = before.seen + shared.looked.load(ordering: .relaxed)
        report(progress)
    }

    /// Walks `root`, sending the files not in the index as it knew them, in batches; then leaves what the index knew
    /// that is no longer there.
    private static func walk(_ root: String, known: [String: LibraryStore.FileState], shared: Shared,
                             into pipe: ScanPipe<[FoundFile]>) {
        var known = known, pending: [FoundFile] = [], open = true
        // A file the index does not have is read whatever its size and time: the walk does not look at it.
        FolderWalk.walk(root, isMusic: LibraryScanner.isMusic, wantsStatus: { known[$0] != nil }) { file in
            guard open else { return }
            shared.found.add(1, ordering: .relaxed)
            let previous = known.removeValue(forKey: file.path)
            if let previous, let size = file.size, let modified = file.modified, previous.isCurrent(size: size, modified: modified) {
                shared.looked.add(1, ordering: .relaxed)
                return
            }
            pending.append(FoundFile(path: file.path, previous: previous, folderCover: file.folderCover))
            if pending.count >= 64 {
                open = pipe.send(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        if open, !pending.isEmpty { open = pipe.send(pending) }
        if open { shared.gone.withLock { $0 = Array(known.keys) } }
        pipe.close()
    }

    /// Reads the tags of the files the walker sends, handing them to the writer in batches of ``batchSize`` (or what
    /// it has every ¼ s, so that progress shows). A file that is no longer a regular file is not indexed; if the
    /// index knew it, it is forgotten with the files gone. The last reader to end closes the writer's pipe.
    private static func read(from walked: ScanPipe<[FoundFile]>, with reader: TrackFileReader, shared: Shared,
                             into pipe: ScanPipe<Read>) {
        var batch: [(LibraryTrack, Int64, Int64)] = [], vanished: [String] = [], open = true
        var lastSent = monotonicMilliseconds()
        while open, let files = walked.receive() {
            // A window of files at a time is read in one call (their descriptors open together; what is not plain FLAC
            // goes to TagLib's process in one exchange).
            for start in stride(from: 0, to: files.count, by: readWindow) where open {
                let window = files[start..<min(start + readWindow, files.count)]
                let reads = reader.read(window.map { ($0.path, .some($0.folderCover)) })
                for (file, read) in zip(window, reads) where open {
                    shared.looked.add(1, ordering: .relaxed)
                    guard let read else {
                        if file.previous != nil { vanished.append(file.path) }
                        continue
                    }
                    var indexed = read.track
                    indexed.lyrics = read.fileTags?.lyrics
                    batch.append((indexed, read.size, read.modified))
                    if batch.count >= batchSize || monotonicMilliseconds() - lastSent >= 250 {
                        open = pipe.send(.tracks(batch))
                        batch.removeAll(keepingCapacity: true)
                        lastSent = monotonicMilliseconds()
                    }
                }
            }
        }
        if open, !batch.isEmpty { open = pipe.send(.tracks(batch)) }
        if open, !vanished.isEmpty { pipe.send(.vanished(vanished)) }
        if shared.readersLeft.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { pipe.close() }
        if !open { walked.close() } // the writer stopped: so does the walk
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

    /// A reader handed to one reading thread: only that thread uses it, and the pass joins the thread before it returns.
    private struct UncheckedReader: @unchecked Sendable {
        let reader: TrackFileReader
        init(_ reader: TrackFileReader) { self.reader = reader }
    }
}

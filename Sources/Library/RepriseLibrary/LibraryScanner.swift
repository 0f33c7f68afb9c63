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
    /// Reads the files inotify reports, one at a time (a pass has readers of its own).
    private let reader: TrackFileReader
    private let art: (([UInt8], String) -> String?)?
    /// Threads reading tags during a pass: two keep a 2-core machine's both cores busy beside the writer.
    static let readerThreads = 2

    /// Progress of the pass under way.
    public struct Progress: Sendable, Equatable {
        public var seen = 0
        public var read = 0
        public var removed = 0
        public var total = 0
        /// Rows changed otherwise: forgotten with a music folder no longer configured, marked (un)available with
        /// their disk.
        public var otherChanges = 0
        public init() {}

        /// Whether the pass changed the index at all.
        public var changedAnything: Bool { read + removed + otherChanges > 0 }
    }

    /// - Parameter art: stores an embedded picture (bytes, media type) and returns its path.
    public init(store: LibraryStore, art: (([UInt8], String) -> String?)?) {
        self.store = store
        self.art = art
        reader = TrackFileReader(art: art)
    }

    /// One pass over `roots`; `report` is told the progress now and then (on this thread). Per root, a pipeline
    /// (``ScanPass``): one thread walks, ``readerThreads`` read tags, this one writes.
    public func scan(roots: [String], report: (Progress) -> Void) throws {
        defer { if store.textIndexingSuspended { try? store.rebuildTextIndex() } } // after an error too, if it can
        // The pass's pages are copied into the database once it is over (the service asks for that checkpoint).
        store.holdCheckpoints(true)
        defer { store.holdCheckpoints(false) }
        var progress = Progress()
        progress.otherChanges += try store.keepOnly(roots: roots)
        for root in roots {
            var info = stat()
            guard RawPath.withCString(root, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                progress.otherChanges += try store.setAvailable(false, root: root) // a disk that is not there: keep what it had
                continue
            }
            progress.otherChanges += try store.setAvailable(true, root: root)
            try ScanPass(root: root, known: store.fileStates(root: root), readers: Self.readerThreads, art: art)
                .run(writingTo: store, progress: &progress, report: report)
        }
        if store.textIndexingSuspended { try store.rebuildTextIndex() }
        report(progress)
    }

    /// Reads one file again (a change seen by inotify); forgets it when it is gone or no longer music.
    /// - Returns: whether the index changed: a file it already has as it is now (a pass read it since the change was
    ///   seen) is not read again, and one it never had that is not music changes nothing.
    @discardableResult
    public func update(path: String, root: String) throws -> Bool {
        var info = stat()
        guard RawPath.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG, Self.isMusic(path) else {
            return try store.remove(path: path) > 0
        }
        if let known = try store.fileState(path: path), known.isCurrent(size: Int64(info.st_size), modified: Self.modified(info)) { return false }
        guard let track = reader.read(path) else { return try store.remove(path: path) > 0 }
        try store.store(track, root: root, size: Int64(info.st_size), modified: Self.modified(info))
        return true
    }

    /// Reads the new and changed files under `folder` (a directory created or moved in while Reprise runs).
    /// - Returns: how many files were read into the index.
    @discardableResult
    public func scanFolder(_ folder: String, root: String) throws -> Int {
        let known = try store.fileStates(root: root)
        var found: [(String, Int64, Int64)] = []
        FolderWalk.walk(folder, isMusic: Self.isMusic) { file in
            if let size = file.size, let modified = file.modified { found.append((file.path, size, modified)) }
        }
        var stored = 0
        try store.batch {
            for (path, size, modified) in found {
                if let state = known[path], state.isCurrent(size: size, modified: modified) { continue }
                guard let track = reader.read(path) else { continue }
                try store.store(track, root: root, size: size, modified: modified)
                stored += 1
            }
        }
        return stored
    }

    static func isMusic(_ path: String) -> Bool { extensions.contains(MediaLocation.fileExtension(ofPath: path)) }

    /// A file's modification time as the index keeps it (nanoseconds).
    public static func modified(_ info: stat) -> Int64 { OpenedRegularFile.nanoseconds(info.st_mtim) }
}

import Glibc
import GStreamerKit
import PosixFiles
import RepriseCore

/// Brings the store up to date with the music folders: walks each root (without following links out of it),
/// reads the tags of files that are new or whose size or modification time changed (GStreamer's discoverer,
/// synchronously, on this worker thread), forgets files that are gone, and marks a root that is not there (a
/// removed disk) unavailable rather than forgetting it. Runs on the library's worker thread.
public final class LibraryScanner {
    /// Audio files the library indexes (video is left to folders and playlists).
    public static let extensions = MediaLocation.mediaExtensions.subtracting(MediaLocation.videoExtensions).union(["m4b"])

    private let store: LibraryStore
    private let art: (([UInt8], String) -> String?)?
    private var discoverer: Discoverer?

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
        self.art = art
    }

    /// One pass over `roots`; `report` is told the progress now and then (on this thread).
    public func scan(roots: [String], report: (Progress) -> Void) throws {
        try store.keepOnly(roots: roots)
        var progress = Progress()
        for root in roots {
            var info = stat()
            guard RawPath.withCString(root, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                try store.setAvailable(false, root: root) // a disk that is not there: keep what it had
                continue
            }
            try store.setAvailable(true, root: root)
            var known = try store.fileStates(root: root)
            var found: [(path: String, size: Int64, modified: Int64)] = []
            walk(root, depth: 0) { path, size, modified in found.append((path, size, modified)) }
            progress.total += found.count
            report(progress)
            var pending: [(LibraryTrack, Int64, Int64)] = []
            func flush() throws {
                guard !pending.isEmpty else { return }
                let batch = pending
                pending.removeAll()
                try store.batch { for (track, size, modified) in batch { try store.store(track, root: root, size: size, modified: modified) } }
            }
            for file in found {
                progress.seen += 1
                let previous = known.removeValue(forKey: file.path)
                if let previous, previous.size == file.size, previous.modified == file.modified, previous.available { continue }
                guard let track = read(file.path) else { // no longer a regular file: forgotten with the files gone
                    if let previous { known[file.path] = previous }
                    continue
                }
                pending.append((track, file.size, file.modified))
                progress.read += 1
                if pending.count >= 100 || progress.read % 20 == 0 { report(progress) }
                if pending.count >= 100 {
                    try flush()
                    report(progress)
                }
            }
            try flush()
            try store.batch { for path in known.keys { try store.remove(path: path) } }
            progress.removed += known.count
            report(progress)
        }
        report(progress)
    }

    /// Reads one file again (a change seen by inotify); forgets it when it is gone or no longer music.
    public func update(path: String, root: String) throws {
        var info = stat()
        guard RawPath.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG, Self.isMusic(path),
              let track = read(path) else {
            return try store.remove(path: path)
        }
        try store.store(track, root: root, size: Int64(info.st_size), modified: Self.modified(info))
    }

    /// Reads the new and changed files under `folder` (a directory created or moved in while Reprise runs).
    public func scanFolder(_ folder: String, root: String) throws {
        let known = try store.fileStates(root: root)
        var found: [(String, Int64, Int64)] = []
        walk(folder, depth: 0) { found.append(($0, $1, $2)) }
        try store.batch {
            for (path, size, modified) in found {
                if let state = known[path], state.size == size, state.modified == modified, state.available { continue }
                guard let track = read(path) else { continue }
                try store.store(track, root: root, size: size, modified: modified)
            }
        }
    }

    static func isMusic(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), path[dot...].contains("/") == false else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    static func modified(_ info: stat) -> Int64 { Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) }

    /// Every music file under `directory` (regular files only; no links followed; hidden entries skipped).
    private func walk(_ directory: String, depth: Int, _ visit: (String, Int64, Int64) -> Void) {
        guard depth < 32, let entries = PosixFileSystem().entries(of: directory) else { return }
        for name in entries.sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            var info = stat()
            guard RawPath.withCString(path, { lstat($0, &info) }) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(path, depth: depth + 1, visit)
            case S_IFREG where Self.isMusic(path): visit(path, Int64(info.st_size), Self.modified(info))
            default: continue
            }
        }
    }

    /// The tags of one file (what cannot be read keeps its name as its title); nil when it is no longer a regular
    /// file. The discoverer reads it through the descriptor opened here: a file replaced by a FIFO since the walk
    /// would block GStreamer's open (and this worker) for good.
    private func read(_ path: String) -> LibraryTrack? {
        if discoverer == nil { discoverer = Discoverer(timeoutSeconds: 10, imageLimit: 16 << 20) }
        guard let file = OpenedRegularFile(path: path) else { return nil }
        var track = LibraryTrack(path: FilePath(escaped: path))
        let discovered = discoverer?.discoverNow(MediaURI.file(path: file.procPath))
        file.close()
        guard let media = discovered, media.error == nil else { return track }
        let tags = TrackTags(title: media.tags.title, artists: media.tags.artists, album: media.tags.album,
                             albumArtists: media.tags.albumArtists, genres: media.tags.genres).sanitized()
        track.title = tags.title
        track.artist = tags.artists.isEmpty ? nil : tags.artists.joined(separator: ", ")
        track.album = tags.album
        track.albumArtist = tags.albumArtists.first
        track.genre = tags.genres.first
        track.year = media.tags.date.flatMap { Int($0.prefix(4)) }
        track.disc = media.tags.discNumber
        track.track = media.tags.trackNumber
        track.lengthMicroseconds = media.durationNanoseconds.map { $0 / 1000 }
        if let image = media.image, let art { track.cover = art(image.bytes, image.mediaType) }
        if track.cover == nil {
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            track.cover = ["cover.jpg", "folder.jpg", "cover.png", "folder.png", "front.jpg"].lazy.map { folder + "/" + $0 }
                .first { PosixFileSystem().kind(of: $0) == .regularFile }
        }
        return track
    }
}

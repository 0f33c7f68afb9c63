import Dispatch
import GStreamerKit
import Glibc
import LoopKit
import PosixFiles
import RepriseCore
import SQLiteKit

/// The music library in the service: the index (``LibraryStore``) and the scanner live on a worker thread of
/// their own at low CPU priority; every request goes there and its answer comes back on the loop. A pass over the
/// folders runs at start (reading only what changed) and on request.
public final class LibraryService: LibraryAccess {
    public var status = LibraryStatus()
    public private(set) var outline = LibraryOutline()
    public let feed: ChangeFeed
    let work: BackgroundWork
    let worker: LibraryWorker
    let log: Log
    private let loop: EventLoop
    private let fileSystem: FileSystem
    private var rescanQueued = false
    /// inotify over the folders, once the first pass has ended; changes gathered for a moment, then applied.
    private let watcher = LibraryWatcher()
    private var watching = false
    private var pendingChanges: [LibraryWatcher.Change] = []
    /// Loudness measuring (LibraryService+Loudness.swift): its thread, and the flag that stops a measurement.
    let loudnessWork: BackgroundWork?
    let loudnessCancellation = AudioDecoding.Cancellation()

    /// - Parameters:
    ///   - folders: the music folders indexed.
    ///   - database: the index's SQLite file.
    ///   - feed: where it publishes ``ChangeAspects/library`` and ``ChangeAspects/measurements``.
    public init?(folders: [FilePath], database: FilePath, art: ArtCache, fileSystem: FileSystem, loop: EventLoop, log: Log,
                 feed: ChangeFeed, measuresLoudness: Bool = true) {
        guard let work = BackgroundWork(loop: loop, label: "reprise.library", background: true) else { return nil }
        self.work = work
        self.feed = feed
        self.fileSystem = fileSystem
        self.log = log
        self.loop = loop
        worker = LibraryWorker(databasePath: database.escaped, art: art, log: log)
        loudnessWork = measuresLoudness ? BackgroundWork(loop: loop, label: "reprise.loudness", background: true) : nil
        status.folders = folders.map(\.escaped)
        status.scanning = true // from the start until the first pass ends: an index not yet open is not an empty library
    }

    /// Not opened: no music folder and no index were there at start (nothing to index, nothing to keep); a rescan
    /// opens it.
    private var dormant = false

    /// Opens the index and starts the first pass — unless there is nothing to index and no index yet, where the
    /// library stays closed (no SQLite, no scan) until a rescan.
    public func start() {
        guard !stopped else { return }
        if !status.scanning, status.problem == nil {
            status.scanning = true // the pass that follows the opening is under way from now (a retry says nothing new)
            feed.publish(.library)
        }
        let worker = worker, log = log, folders = status.folders
        work.run({ () -> String?? in
            guard worker.hasAnythingToIndex(folders: folders) else { return nil }
            return .some(worker.open { message in log.warning(message) })
        }) { [weak self] outcome in
            guard let self, !stopped else { return }
            guard let problem = outcome else {
                dormant = true
                status.scanning = false
                feed.publish(.library)
                return log.info("library: no music folder (\(folders.joined(separator: ", "))) and no index: not opened")
            }
            if let problem {
                if problem != status.problem { log.warning("library: \(problem); trying again in the background, the file kept") }
                status.problem = problem
                status.scanning = false // nothing is scanned while the index cannot be opened; the problem is shown
                feed.publish(.library)
                return retryOpening()
            }
            status.problem = nil
            openRetryMilliseconds = 1000
            beginPass()
        }
    }

    /// The index could not be opened for a reason other than damage (busy, locked, a full disk): the file stays as
    /// it is and opening is tried again, less and less often (at most a minute apart); meanwhile there is no library.
    private var openRetryMilliseconds: UInt32 = 1000
    private var openRetry: LoopTimer?

    private func retryOpening() {
        guard openRetry?.isActive != true, !stopped else { return }
        openRetry = loop.once(afterMilliseconds: openRetryMilliseconds) { [weak self] in self?.start() }
        openRetryMilliseconds = min(openRetryMilliseconds * 2, 60_000)
    }

    /// Stopped: its timers are cancelled, inotify is no longer read, and answers still coming from the worker
    /// change nothing.
    private(set) var stopped = false
    private var progressTimer: LoopTimer?
    private var changesTimer: LoopTimer?

    public func stop() {
        stopped = true
        for timer in [openRetry, progressTimer, changesTimer] { timer?.cancel() }
        loudnessCancellation.cancel()
        pendingChanges.removeAll()
        log.info("library: stopped")
    }

    public func rescan() {
        guard !stopped else { return }
        if dormant {
            dormant = false
            return start()
        }
        guard status.problem == nil else { return start() } // asked for: try opening now
        guard !status.scanning else { return rescanQueued = true }
        beginPass()
    }

    /// A pass over every folder, on the worker; `Scanning` from now until it ends.
    private func beginPass() {
        status.scanning = true
        status.scanned = 0
        feed.publish(.library)
        let folders = status.folders, worker = worker
        let progress = ProgressBox()
        log.info("library: looking at \(folders.joined(separator: ", "))")
        let started = monotonicSeconds()
        followProgress(progress)
        work.run({ worker.scan(folders: folders, progress: progress) }) { [weak self] result in
            guard let self, !stopped else { return }
            if let known = result.outline { return finishPass(result, outline: known, started: started) }
            // The outline first: a pass is told done when what it found can be browsed (MediaServer2, `list`).
            let counts = result.counts
            work.run({ worker.outlineNow(counts: counts) }) { [weak self] outline in
                guard let self, !stopped else { return }
                finishPass(result, outline: outline, started: started)
            }
        }
    }

    private func finishPass(_ result: LibraryWorker.ScanResult, outline: LibraryOutline, started: Double) {
        status.scanning = false
        status.counts = result.counts
        noteContentChanged()
        self.outline = outline
        self.outline.roots = status.folders
        status.scanned = result.progress.seen
        status.total = result.progress.total
        if let problem = result.problem { log.warning("library: \(problem)") }
        log.info("library: \(result.counts.tracks) tracks (\(result.progress.read) read, \(result.progress.removed) gone) "
                 + "in \(oneDecimal(monotonicSeconds() - started)) s")
        feed.publish(.library)
        // The pass's readers freed thousands of blocks: their pages go back rather than stay in the process's
        // RSS; and the pass's WAL pages are copied into the database (on the worker, after the answer: a few
        // milliseconds no search waits for).
        let worker = worker
        work.run({
            MallocTuning.returnFreedMemory()
            worker.checkpoint()
        }) { _ in }
        if !watching { startWatching() }
        measureLoudness()
        if rescanQueued {
            rescanQueued = false
            rescan()
        }
    }

    private func noteContentChanged() {
        status.contentVersion += 1
        status.contentChanged = Int64(time(nil))
    }

    /// Twice a second while a pass runs: the files looked at so far, announced.
    private func followProgress(_ progress: ProgressBox) {
        progressTimer = loop.once(afterMilliseconds: 500) { [weak self] in
            guard let self, status.scanning, !stopped else { return }
            let current = progress.current
            if current.seen != status.scanned || current.total != status.total {
                status.scanned = current.seen
                status.total = current.total
                feed.publish(.library)
            }
            followProgress(progress)
        }
    }

    /// Watches every folder (on the worker: it walks them) and reads inotify's events on the loop.
    private func startWatching() {
        guard let watcher else { return log.warning("library: no inotify; changes are seen at the next start or rescan") }
        watching = true
        let folders = status.folders
        work.run({ () -> Int in
            for folder in folders { watcher.watch(folder) }
            return watcher.refused
        }) { [weak self] refused in
            guard let self, !stopped else { return }
            if refused > 0 { log.warning("library: \(refused) folders not watched (the system's inotify limit)") }
        }
        loop.onReadable(watcher.descriptor) { [weak self] in
            guard let self, !stopped else { return false }
            let changes = watcher.readChanges()
            guard !changes.isEmpty else { return true }
            let first = pendingChanges.isEmpty
            pendingChanges += changes
            // A copy of a whole album arrives as many events: they are applied together a moment later.
            if first { changesTimer = loop.once(afterMilliseconds: 300) { [weak self] in self?.applyChanges() } }
            return true
        }
    }

    private func applyChanges() {
        let changes = pendingChanges, folders = status.folders, worker = worker
        pendingChanges.removeAll()
        guard let watcher, !changes.isEmpty else { return }
        log.debug("library: \(changes.count) changes")
        work.run({ worker.apply(changes, folders: folders, watcher: watcher) }) { [weak self] result in
            guard let self, !stopped, let (counts, outline) = result else { return }
            status.counts = counts
            noteContentChanged()
            self.outline = outline
            self.outline.roots = status.folders
            feed.publish(.library)
            measureLoudness()
        }
    }

    public func search(_ query: LibraryQuery, limit: Int, then: @escaping (LibraryResults) -> Void) {
        let worker = worker
        work.run({ LibraryResults(grouping: worker.search(query, limit: limit), for: query) }, then: then)
    }

    public func tracks(_ selector: LibrarySelector, then: @escaping ([LibraryTrack]) -> Void) {
        let worker = worker
        work.run({ worker.tracks(selector) }, then: then)
    }

    public func withTracks<Result: Sendable>(_ selector: LibrarySelector, matching query: MediaQuery,
                                             _ body: @escaping @Sendable ([LibraryTrack]) -> Result, then: @escaping (Result) -> Void) {
        let worker = worker
        work.run({ body(worker.tracks(selector, narrowedBy: query).filter { query.matches($0.mediaProperties) }) }, then: then)
    }

    public func withTracks<Result: Sendable>(_ selector: LibrarySelector, _ body: @escaping @Sendable ([LibraryTrack]) -> Result,
                                             then: @escaping (Result) -> Void) {
        let worker = worker
        work.run({
            let result = body(worker.tracks(selector))
            // Every row read and freed (a snapshot of the whole library keeps none of them): their pages go back.
            if selector == .all { MallocTuning.returnFreedMemory() }
            return result
        }, then: then)
    }

    public func onWorker<Result: Sendable>(_ body: @escaping @Sendable () -> Result, then: @escaping (Result) -> Void) {
        work.run(body, then: then)
    }

    public func names(_ kind: LibraryNameKind, then: @escaping ([String]) -> Void) {
        let worker = worker
        work.run({ worker.names(kind) }, then: then)
    }

    public func albums(titled title: String, then: @escaping ([LibraryAlbum]) -> Void) {
        let worker = worker
        work.run({ worker.albums(titled: title) }, then: then)
    }

    /// The index's tracks for those of `paths` it has as the files are now (same size and modification time).
    public func currentTracks(at paths: [FilePath], then: @escaping ([FilePath: LibraryTrack]) -> Void) {
        let worker = worker, escaped = paths.map(\.escaped)
        work.run({
            Dictionary(worker.currentTracks(atPaths: escaped).map { (FilePath(escaped: $0.key), $0.value) }) { first, _ in first }
        }, then: then)
    }

    public func entries(of playlist: PlaylistInfo, then: @escaping ([PlaylistEntry]) -> Void) {
        let worker = worker, fileSystem = fileSystem
        work.run({ PlaylistEntry.entries(of: playlist, fileSystem: fileSystem) { worker.track(atPath: $0) } }, then: then)
    }
}

/// Progress of a scan, shared between the worker that counts and whoever looks.
final class ProgressBox: @unchecked Sendable {
    private let lock = NSLockLike()
    private var value = LibraryScanner.Progress()
    func set(_ progress: LibraryScanner.Progress) { lock.locked { value = progress } }
    var current: LibraryScanner.Progress { lock.locked { value } }
}

/// A pthread mutex (Foundation stays out of the service's hot paths).
final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

/// What lives on the library's worker thread: the store and the scanner. Only ever touched from that (serial)
/// thread, hence unchecked.
final class LibraryWorker: @unchecked Sendable {
    private let databasePath: String
    private let art: ArtCache
    private let log: Log
    private(set) var store: LibraryStore?
    private var scanner: LibraryScanner?

    init(databasePath: String, art: ArtCache, log: Log) {
        self.databasePath = databasePath
        self.art = art
        self.log = log
    }

    /// A query's answer, or `fallback` with its cause logged (a failing index is said, not hidden); `fallback` at
    /// once while no index is open.
    func answer<T>(_ what: String, _ fallback: T, _ body: (LibraryStore) throws(SQLiteError) -> T) -> T {
        guard let store else { return fallback }
        do throws(SQLiteError) { return try body(store) } catch {
            log.warning("library: \(what) failed: \(error)")
            return fallback
        }
    }


    /// Whether a music folder or the index is there (a `stat` each, on the worker).
    func hasAnythingToIndex(folders: [String]) -> Bool {
        var info = stat()
        return ([databasePath] + folders).contains { stat($0, &info) == 0 }
    }

    /// Opens (or rebuilds) the index; a problem that leaves no library, or nil.
    func open(log: @escaping (String) -> Void) -> String? {
        guard store == nil else { return nil }
        let directory = String(databasePath[..<(databasePath.lastIndex(of: "/") ?? databasePath.endIndex)])
        _ = DurableFile.makePrivateDirectories(directory, ownComponents: 1)
        do {
            let store = try LibraryStore(path: databasePath, log: log)
            self.store = store
            let art = art
            scanner = LibraryScanner(store: store) { bytes, _ in
                // Only real pictures, by their bytes; kept as a path.
                ImageKind(sniffing: bytes).flatMap { art.store(bytes, kind: $0) }.flatMap { MediaURI($0)?.path }
            }
            return nil
        } catch {
            return "cannot open \(databasePath): \(error)"
        }
    }

    struct ScanResult: Sendable {
        var counts: LibraryCounts
        /// Nil: the pass changed the library; the outline is built next (``outlineNow()``), after the answer.
        var outline: LibraryOutline?
        var progress: LibraryScanner.Progress
        var problem: String?
    }

    func scan(folders: [String], progress box: ProgressBox) -> ScanResult {
        var result = ScanResult(counts: LibraryCounts(), progress: .init())
        do {
            try scanner?.scan(roots: folders) { progress in
                box.set(progress)
                result.progress = progress
            }
        } catch {
            result.problem = "scan failed: \(error)"
        }
        // Nothing changed (a re-scan of an unchanged library): the counts and outline of last time stand.
        if !result.progress.changedAnything, result.problem == nil, let known = lastShape {
            (result.counts, result.outline) = known
            return result
        }
        // The counts now (what says the pass is over); the outline for browsing next, off this answer's path.
        result.counts = answer("counting", LibraryCounts()) { store throws(SQLiteError) in try store.counts() }
        lastShape = nil
        return result
    }

    /// Copies the WAL's pages into the database (after a pass, which holds the automatic checkpoints back).
    func checkpoint() {
        answer("the checkpoint", ()) { store throws(SQLiteError) in try store.checkpoint() }
    }

    /// The outline as the index has it now (and kept as the last shape, with `counts`).
    func outlineNow(counts: LibraryCounts) -> LibraryOutline {
        let outline = answer("the outline", LibraryOutline()) { store throws(SQLiteError) in try store.outline() }
        lastShape = (counts, outline)
        return outline
    }

    /// The counts and outline as of the last pass or change applied (nil: to be computed).
    private var lastShape: (LibraryCounts, LibraryOutline)?

    /// Applies what inotify saw: files read again or forgotten, new directories read and watched. Returns the new
    /// counts and outline; nil when the changes changed nothing in the index (or it cannot be counted).
    func apply(_ changes: [LibraryWatcher.Change], folders: [String], watcher: LibraryWatcher) -> (LibraryCounts, LibraryOutline)? {
        guard let store, let scanner else { return nil }
        var changed = false
        for change in changes {
            guard let root = folders.first(where: { change.path.hasPrefix($0 + "/") }) else { continue }
            do {
                if change.removed {
                    changed = try store.remove(path: change.path) > 0 || changed
                } else if change.isDirectory {
                    watcher.watch(change.path)
                    changed = try scanner.scanFolder(change.path, root: root) > 0 || changed
                } else {
                    changed = try scanner.update(path: change.path, root: root) || changed
                }
            } catch {
                log.warning("library: \(change.path) could not be indexed again (\(error)); the next rescan catches up")
                continue
            }
        }
        // Files a pass has read since (or that were never music): clients are not told of a change that is none.
        guard changed else { return nil }
        let shape = answer("counting after changes", nil) { store throws(SQLiteError) in (try store.counts(), try store.outline()) }
        guard let (counts, outline) = shape else {
            lastShape = nil
            return nil
        }
        lastShape = (counts, outline)
        return (counts, outline)
    }

    func search(_ query: LibraryQuery, limit: Int) -> [LibraryTrack] {
        answer("a search", []) { store throws(SQLiteError) in try store.search(query, limit: limit) }
    }
    func tracks(_ selector: LibrarySelector, narrowedBy query: MediaQuery? = nil) -> [LibraryTrack] {
        answer("listing tracks", []) { store throws(SQLiteError) in try store.tracks(matching: selector, narrowedBy: query) }
    }
    func names(_ kind: LibraryNameKind) -> [String] { answer("listing names", []) { store throws(SQLiteError) in try store.names(kind) } }
    func albums(titled title: String) -> [LibraryAlbum] {
        answer("listing albums", []) { store throws(SQLiteError) in try store.albums(titled: title) }
    }
    func track(atPath path: String) -> LibraryTrack? {
        answer("looking up a track", nil) { store throws(SQLiteError) in try store.track(atPath: path) }
    }

    /// The index's tracks for those of `paths` it has as the files are now (a `stat` each).
    func currentTracks(atPaths paths: [String]) -> [String: LibraryTrack] {
        guard store != nil else { return [:] }
        var found: [String: LibraryTrack] = [:]
        for path in paths {
            var info = stat()
            guard RawPath.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG,
                  let track = answer("looking up a track", nil, { store throws(SQLiteError) in
                      try store.currentTrack(atPath: path, size: Int64(info.st_size), modified: LibraryScanner.modified(info))
                  })
            else { continue }
            found[path] = track
        }
        return found
    }
}

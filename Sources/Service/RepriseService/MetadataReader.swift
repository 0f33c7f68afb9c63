import Glibc
import GStreamerKit
import LoopKit
import PosixFiles
import RepriseCore
import RepriseLibrary
import TagLibKit

/// Reads tags, length and cover art of queued entries in the background, so adding thousands of files never waits
/// for them. Entries come from ``Player/takeEntryToDescribe()`` (the current one first), a batch at a time; results
/// go back through ``Player/entriesDescribed(_:)``, a batch's at once. For each file, in order: the
/// library's index when it has the file as it is now (same size and modification time); else TagLib, from the
/// file's headers, on a worker queue at normal priority (what a person queued, and waits to see named: at nice 10 a
/// machine busy with other work left it a tenth of a core); else (a format TagLib has no reader for, or a file it finds
/// invalid) GStreamer's discoverer, which works on its own threads and reports on the loop.
final class MetadataReader: ServiceComponent {
    let name = "metadata reader"
    private let player: Player
    private let art: CoverStore
    private let fileSystem: FileSystem
    private let log: Log
    private let index: IndexedFiles?
    private let work: BackgroundWork?
    private let makeDiscoverer: () -> TagReader?
    private let concurrency: Int
    private var discoverers: [TagReader] = []
    private var idle: [TagReader] = []
    /// The entry each busy discoverer is reading.
    private var busy: [ObjectIdentifier: (id: Int, uri: String, file: FileFacts?)] = [:]
    /// Entries TagLib could not read, waiting for a discoverer, with what their files said of themselves.
    private var forDiscoverer = FIFOQueue<(id: Int, uri: String, file: FileFacts?)>()
    private var folderCovers: [String: String?] = [:]
    private let loop: LoopTimers
    private var pumpScheduled = false
    /// Batches with the index or the reading thread.
    private var batchesUnderWay = 0
    private var stopped = false

    /// Entries taken in one batch.
    static let batchSize = 128
    /// Batches under way at once: the next is read while the loop takes in the one before.
    static let batchesAhead = 2

    /// - Parameters:
    ///   - index: the library's index, asked first; nil without a library.
    ///   - work: the reading thread; nil when none could be had (then every file goes to the discoverer).
    ///   - concurrency: how many files the discoverer reads at once.
    ///   - makeDiscoverer: a discoverer (GstDiscoverer in the service), made when first needed; nil when none can be had.
    init(player: Player, art: CoverStore, fileSystem: FileSystem, loop: LoopTimers, log: Log, index: IndexedFiles?,
         work: BackgroundWork?, concurrency: Int = 2,
         makeDiscoverer: @escaping () -> TagReader? = { Discoverer(timeoutSeconds: 10, imageLimit: 16 << 20) }) {
        self.player = player
        self.loop = loop
        self.art = art
        self.fileSystem = fileSystem
        self.log = log
        self.index = index
        self.work = work
        self.makeDiscoverer = makeDiscoverer
        self.concurrency = max(1, concurrency)
    }

    func start() { pump() }

    func stop(_ done: @escaping () -> Void) {
        stopped = true
        scheduledPump?.cancel()
        scheduledPump = nil
        done()
    }

    /// The next pass, scheduled after a player change (cancelled on stop).
    private var scheduledPump: LoopTimer?

    /// After a change of the queue or of the current entry: entries may be waiting (the follow-up runs on the next turn of the loop, so an
    /// entry answered here, which changes the player again, never nests another pass).
    func scheduleReading() {
        guard !pumpScheduled, !stopped else { return }
        pumpScheduled = true
        scheduledPump = loop.once(afterMilliseconds: 0) { [weak self] in
            self?.pumpScheduled = false
            self?.pump()
        }
    }

    /// Takes the next batches of waiting entries, up to ``batchesAhead`` under way, and hands what the discoverer
    /// must read to idle discoverers.
    private func pump() {
        guard !stopped else { return }
        pumpDiscoverers()
        while batchesUnderWay < Self.batchesAhead, takeBatch() {}
    }

    /// Takes the next batch of waiting entries to the index or the reading thread; false when none was waiting.
    private func takeBatch() -> Bool {
        var batch: [(id: Int, uri: String, path: String)] = []
        var streams: [EntryDescription] = []
        while batch.count < Self.batchSize, let entry = player.takeEntryToDescribe() {
            guard let path = MediaURI(entry.uri).flatMap({ $0.scheme == "file" ? $0.path : nil }) else {
                // Network streams are not fetched twice; their tags arrive while they play.
                streams.append((entry.id, nil, nil, nil, nil))
                continue
            }
            batch.append((entry.id, entry.uri, path))
        }
        player.entriesDescribed(streams)
        guard !batch.isEmpty else { return false }
        batchesUnderWay += 1
        if let index {
            index.currentTracks(at: batch.map { FilePath(escaped: $0.path) }) { [weak self] known in self?.read(batch, known: known) }
        } else {
            read(batch, known: [:])
        }
        return true
    }

    /// Describes what the index knew; reads the rest on the reading thread.
    private func read(_ batch: [(id: Int, uri: String, path: String)], known: [FilePath: LibraryTrack]) {
        var rest: [(id: Int, uri: String, path: String)] = []
        var indexed: [EntryDescription] = []
        for entry in batch {
            guard let track = known[FilePath(escaped: entry.path)] else {
                rest.append(entry)
                continue
            }
            let known = track.knownDescription
            indexed.append((entry.id, known.tags, known.lengthMicroseconds, known.artURL, known.file))
        }
        player.entriesDescribed(indexed)
        guard let work else {
            forDiscoverer.append(contentsOf: rest.map { ($0.id, $0.uri, nil) })
            return batchFinished()
        }
        let art = art, fileSystem = fileSystem, toRead = rest
        work.run({ Array(zip(toRead, FileDescription.read(toRead.map(\.path), art: art, fileSystem: fileSystem))) }) { [weak self] results in
            guard let self, !stopped else { return }
            var described: [EntryDescription] = []
            for (entry, description) in results {
                switch description {
                case .read(let tags, let length, let artURL, let file):
                    described.append((entry.id, tags, length, artURL ?? folderCover(for: entry.path), file))
                case .notRegularFile:
                    log.debug("not reading tags of \(entry.uri): not a regular file")
                    described.append((entry.id, nil, nil, nil, nil))
                case .forDiscoverer(let file):
                    forDiscoverer.append((entry.id, entry.uri, file))
                }
            }
            player.entriesDescribed(described)
            batchFinished()
        }
    }

    private func batchFinished() {
        batchesUnderWay -= 1
        pump()
    }

    /// Starts reading as many entries waiting for the discoverer as there are idle discoverers.
    private func pumpDiscoverers() {
        while !forDiscoverer.isEmpty {
            if idle.isEmpty, discoverers.count < concurrency, let discoverer = makeDiscoverer() {
                discoverer.onDiscovered = { [unowned self, unowned discoverer] media in finished(discoverer, media) }
                discoverer.start()
                discoverers.append(discoverer)
                idle.append(discoverer)
            }
            guard let discoverer = idle.last else {
                if discoverers.isEmpty { // none can be had: described without tags (they come when it plays)
                    let undescribed = forDiscoverer.elements.map { EntryDescription($0.id, nil, nil, nil, $0.file) }
                    forDiscoverer.removeAll()
                    player.entriesDescribed(undescribed)
                }
                return
            }
            guard let entry = forDiscoverer.popFirst() else { break }
            let path = MediaURI(entry.uri)?.path ?? ""
            log.debug("reading tags of \(entry.uri) with GStreamer")
            guard discoverer.discover(entry.uri) else {
                player.entryDescribed(id: entry.id, tags: nil, lengthMicroseconds: nil, artURL: folderCover(for: path), file: entry.file)
                continue
            }
            idle.removeLast()
            busy[ObjectIdentifier(discoverer)] = entry
        }
    }

    private func finished(_ discoverer: TagReader, _ media: DiscoveredMedia) {
        guard let entry = busy.removeValue(forKey: ObjectIdentifier(discoverer)) else { return }
        idle.append(discoverer)
        let path = MediaURI(entry.uri)?.path ?? ""
        if let error = media.error {
            log.debug("could not read tags of \(entry.uri): \(error)")
            player.entryDescribed(id: entry.id, tags: nil, lengthMicroseconds: nil, artURL: folderCover(for: path), file: entry.file)
        } else {
            let artURL = media.image.flatMap { storeCover($0, of: entry.uri) } ?? folderCover(for: path)
            player.entryDescribed(id: entry.id, tags: media.tags.track,
                                  lengthMicroseconds: media.durationNanoseconds.map { $0 / 1000 }, artURL: artURL, file: entry.file)
        }
        pump()
    }

    /// The cache URI of an embedded picture; nil (logged) when its bytes are not a picture a widget can show.
    private func storeCover(_ image: EmbeddedImage, of uri: String) -> String? {
        guard let kind = ImageKind(sniffing: image.bytes) else {
            log.info("the picture embedded in \(uri) is not an image (said to be \(image.mediaType)); ignored")
            return nil
        }
        return art.store(image.bytes, kind: kind)
    }

    /// A `cover.jpg`/`folder.jpg` (or .png) beside the file, looked up once per folder.
    private func folderCover(for path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if let known = folderCovers[folder] { return known }
        let found = MediaLocation.folderCover(in: folder, fileSystem: fileSystem).map(MediaURI.file(path:))
        folderCovers[folder] = found
        return found
    }
}

/// What the reading thread found for one queued file.
enum FileDescription: Sendable {
    /// Read by TagLib: its tags and length, and its embedded cover (stored in the cache) when it has one.
    case read(TrackTags, lengthMicroseconds: Int64?, artURL: String?, file: FileFacts)
    /// A FIFO, a device, a directory: never opened for reading (it would hang a reader).
    case notRegularFile
    /// Missing, a format TagLib has no reader for or finds invalid, or an MP4 in which it found no title, artist or
    /// album: GStreamer's discoverer tries (and reports a missing file as such). With what the file said of itself,
    /// when it could be opened.
    case forDiscoverer(FileFacts?)

    /// Reads the files at `paths` (links followed, as playing them would; each checked to be a regular file once
    /// open); the ones TagLib reads go to its reader process in one call (``TagLibReader/read(_:pictureLimit:processes:)``).
    static func read(_ paths: [String], art: CoverStore, fileSystem: FileSystem) -> [FileDescription] {
        var descriptions = Array(repeating: FileDescription.forDiscoverer(nil), count: paths.count)
        var opened: [(index: Int, file: TagLibReader.File, modifiedSeconds: Int64)] = []
        for (index, path) in paths.enumerated() {
            let fileExtension = MediaLocation.fileExtension(ofPath: path)
            guard let file = OpenedRegularFile(path: path, followingLinks: true) else {
                descriptions[index] = fileSystem.kind(of: path) == .missing ? .forDiscoverer(nil) : .notRegularFile
                continue
            }
            guard TagLibReader.reads(fileExtension: fileExtension) else {
                descriptions[index] = .forDiscoverer(FileFacts(modifiedSeconds: file.modifiedSeconds))
                file.close()
                continue
            }
            opened.append((index, (file.descriptor, file.size, fileExtension), file.modifiedSeconds))
        }
        let reads = TagLibReader.read(opened.map(\.file), pictureLimit: 16 << 20)
        for ((index, file, modifiedSeconds), read) in zip(opened, reads) {
            close(file.descriptor)
            let facts = FileFacts(modifiedSeconds: modifiedSeconds, encoding: read?.tags.encoding)
            guard let (tags, picture) = read, !tags.wantsAnotherReader(fileExtension: file.fileExtension) else {
                descriptions[index] = .forDiscoverer(facts)
                continue
            }
            let artURL = picture.flatMap { picture in ImageKind(sniffing: picture.bytes).flatMap { art.store(picture.bytes, kind: $0) } }
            var trackTags = tags.tags
            trackTags.sortNames = tags.sortNames
            trackTags.moreTags = tags.moreTags
            if trackTags.contentCreated == nil, let year = tags.year { trackTags.contentCreated = String(year) }
            descriptions[index] = .read(trackTags, lengthMicroseconds: tags.lengthMicroseconds, artURL: artURL, file: facts)
        }
        return descriptions
    }
}

/// The library's index as the metadata reader asks it (``LibraryService``).
protocol IndexedFiles: AnyObject {
    /// The index's tracks for those of `paths` it has as the files are now (same size and modification time).
    func currentTracks(at paths: [FilePath], then: @escaping ([FilePath: LibraryTrack]) -> Void)
}

/// Reads tags, length and the embedded picture of one URI at a time, reporting on the loop (``Discoverer``).
protocol TagReader: AnyObject {
    var onDiscovered: ((DiscoveredMedia) -> Void)? { get set }
    func start()
    /// Starts reading `uri`; false when it cannot even start.
    func discover(_ uri: String) -> Bool
}

extension Discoverer: TagReader {}

/// Where embedded pictures are kept, as `file://` URIs a widget can load (``ArtCache``).
protocol CoverStore: Sendable {
    func store(_ bytes: [UInt8], kind: ImageKind) -> String?
}

extension ArtCache: CoverStore {}
extension LibraryService: IndexedFiles {}

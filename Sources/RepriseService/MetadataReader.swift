import GStreamerKit
import LoopKit
import RepriseCore

/// Reads tags, length and cover art of queued entries in the background, a few files at a time, so adding
/// thousands of files never waits for them. Entries come from ``Player/takeEntryToDescribe()`` (the current
/// one first); results go back through ``Player/entryDescribed(id:tags:lengthMicroseconds:artURL:)``.
/// GstDiscoverer works on its own threads and reports on the main loop.
final class MetadataReader: ServiceComponent {
    let name = "metadata reader"
    private let player: Player
    private let art: CoverStore
    private let fileSystem: FileSystem
    private let log: Log
    private var discoverers: [TagReader] = []
    private var idle: [TagReader] = []
    /// The entry each busy discoverer is reading.
    private var busy: [ObjectIdentifier: (id: Int, uri: String)] = [:]
    private var folderCovers: [String: String?] = [:]
    private let loop: LoopTimers
    private var pumpScheduled = false

    /// - Parameters:
    ///   - concurrency: how many files are read at once.
    ///   - makeReader: a tag reader (GstDiscoverer in the service); nil when none can be had.
    init(player: Player, art: CoverStore, fileSystem: FileSystem, loop: LoopTimers, log: Log, concurrency: Int = 2,
         makeReader: () -> TagReader? = { Discoverer(timeoutSeconds: 10, imageLimit: 16 << 20) }) {
        self.player = player
        self.loop = loop
        self.art = art
        self.fileSystem = fileSystem
        self.log = log
        for _ in 0..<max(1, concurrency) {
            guard let discoverer = makeReader() else { continue }
            discoverer.onDiscovered = { [unowned self, unowned discoverer] media in finished(discoverer, media) }
            discoverer.start()
            discoverers.append(discoverer)
            idle.append(discoverer)
        }
        if idle.isEmpty { log.warning("GstDiscoverer is unavailable: tags are read only while a track plays") }
    }

    func start() { pump() }

    func stop(_ done: @escaping () -> Void) {
        scheduledPump?.cancel()
        scheduledPump = nil
        done()
    }

    /// The next pass, scheduled after a player change (cancelled on stop).
    private var scheduledPump: LoopTimer?

    /// After every player change: entries may be waiting (the follow-up runs on the next turn of the loop, so an
    /// entry answered here, which changes the player again, never nests another pass).
    func playerChanged() {
        guard !pumpScheduled else { return }
        pumpScheduled = true
        scheduledPump = loop.once(afterMilliseconds: 0) { [weak self] in
            self?.pumpScheduled = false
            self?.pump()
        }
    }

    /// Starts reading as many waiting entries as there are idle discoverers.
    private func pump() {
        while let discoverer = idle.last, let entry = player.takeEntryToDescribe() {
            guard let path = MediaURI(entry.uri).flatMap({ $0.scheme == "file" ? $0.path : nil }) else {
                // Network streams are not fetched twice; their tags arrive while they play.
                player.entryDescribed(id: entry.id, tags: nil, lengthMicroseconds: nil, artURL: nil)
                continue
            }
            // A file replaced by a FIFO or a device would hang the discoverer's open: those are never read (a missing
            // file is, and reported as such).
            let kind = fileSystem.kind(of: path)
            guard kind == .regularFile || kind == .missing else {
                log.debug("not reading tags of \(entry.uri): not a regular file")
                player.entryDescribed(id: entry.id, tags: nil, lengthMicroseconds: nil, artURL: nil)
                continue
            }
            log.debug("reading tags of \(entry.uri)")
            guard discoverer.discover(entry.uri) else {
                player.entryDescribed(id: entry.id, tags: nil, lengthMicroseconds: nil, artURL: folderCover(for: path))
                continue
            }
            idle.removeLast()
            busy[ObjectIdentifier(discoverer)] = (entry.id, entry.uri)
        }
    }

    private func finished(_ discoverer: TagReader, _ media: DiscoveredMedia) {
        guard let entry = busy.removeValue(forKey: ObjectIdentifier(discoverer)) else { return }
        idle.append(discoverer)
        let path = MediaURI(entry.uri)?.path ?? ""
        if let error = media.error {
            log.debug("could not read tags of \(entry.uri): \(error)")
            player.entryDescribed(id: entry.id, tags: nil, lengthMicroseconds: nil, artURL: folderCover(for: path))
        } else {
            let artURL = media.image.flatMap { storeCover($0, of: entry.uri) } ?? folderCover(for: path)
            player.entryDescribed(id: entry.id, tags: TrackTags(media.tags),
                                  lengthMicroseconds: media.durationNanoseconds.map { $0 / 1000 }, artURL: artURL)
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

/// Reads tags, length and the embedded picture of one URI at a time, reporting on the loop (``Discoverer``).
protocol TagReader: AnyObject {
    var onDiscovered: ((DiscoveredMedia) -> Void)? { get set }
    func start()
    /// Starts reading `uri`; false when it cannot even start.
    func discover(_ uri: String) -> Bool
}

extension Discoverer: TagReader {}

/// Where embedded pictures are kept, as `file://` URIs a widget can load (``ArtCache``).
protocol CoverStore {
    func store(_ bytes: [UInt8], kind: ImageKind) -> String?
}

extension ArtCache: CoverStore {}

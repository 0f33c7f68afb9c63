import RepriseCore

/// The library as MPD commands walk it: an ``MPDLibrarySnapshot`` made from the index off the loop and kept until
/// the library's content changes (made ahead once a client is connected), what a library change is to MPD
/// clients, and the `update` jobs' numbers. Nothing is made while no client walks the library.
final class MPDLibraryCache {
    /// The music library (nil: `library = off`).
    let library: LibraryAccess?
    private let songs: MPDSongWriter
    private var snapshot: MPDLibrarySnapshot?
    /// Counts the library's changes: a snapshot made across one is not kept.
    private var generation = 0
    /// The library's ``LibraryStatus/contentVersion`` and scanning state at the last change.
    private var contentVersion: Int
    private var wasScanning: Bool
    /// Whether a client has connected (from then on the snapshot is made ahead), and whether one is being made.
    private var preparesAhead = false
    private var underWay = false
    /// The last `update` job's number.
    private(set) var updateJobs = 0

    /// When each folder of the music folder last changed (nil: not known).
    private let folderModifiedSeconds: (@Sendable (String) -> Int64?)?

    init(library: LibraryAccess?, songs: MPDSongWriter, folderModifiedSeconds: (@Sendable (String) -> Int64?)? = nil) {
        self.library = library
        self.songs = songs
        self.folderModifiedSeconds = folderModifiedSeconds
        contentVersion = library?.status.contentVersion ?? 0
        wasScanning = library?.status.scanning ?? false
    }

    /// Runs `body` over the snapshot (made from the index when the library changed since the last one) where the
    /// index is read, off the loop, then `write` on the loop; the command finishes when `write` calls its second
    /// argument.
    func over<Result: Sendable>(_ body: @escaping @Sendable (MPDLibrarySnapshot) -> Result,
                                write: @escaping (Result, @escaping (MPDError?) -> Void) -> Void) throws(MPDError) -> MPDOutcome {
        guard let library else { throw MPDError(.system, "no library (library = off)") }
        let songs = songs, folderModifiedSeconds = folderModifiedSeconds
        return .later { [self] finish in
            if let snapshot {
                return library.onWorker({ body(snapshot) }, then: { write($0, finish) })
            }
            let generation = generation
            library.withTracks(.all, { tracks in
                let snapshot = MPDLibrarySnapshot(tracks, writer: songs, folderModifiedSeconds: folderModifiedSeconds)
                return (snapshot, body(snapshot))
            }, then: { [self] (made: (MPDLibrarySnapshot, Result)) in
                if generation == self.generation { snapshot = made.0 }
                write(made.1, finish)
            })
        }
    }

    /// Makes the snapshot ahead of the first command that walks it, once a client is connected (and again after
    /// each change, unless a scan is under way: its end is a change too).
    func prepare() {
        preparesAhead = true
        guard let library, snapshot == nil, !underWay, !library.status.scanning else { return }
        guard case .later(let start)? = try? over({ _ in () }, write: { _, finish in finish(nil) }) else { return }
        underWay = true
        start { [self] _ in underWay = false }
    }

    /// What a library change is to MPD clients: `update` when a pass began or ended; `database`, and a new
    /// snapshot, when what the index holds changed. A pass's progress and measured loudness are neither.
    func libraryChanged() -> MPDIdle {
        guard let status = library?.status else { return [] }
        var changed: MPDIdle = []
        if status.scanning != wasScanning {
            wasScanning = status.scanning
            changed.insert(.update)
        }
        if status.contentVersion != contentVersion {
            contentVersion = status.contentVersion
            generation += 1
            snapshot = nil
            if preparesAhead { prepare() }
            changed.insert(.database)
        }
        return changed
    }

    /// Starts a pass over the music folders; returns the job's number (nil: no library).
    func update() -> Int? {
        guard let library else { return nil }
        library.rescan()
        updateJobs += 1
        return updateJobs
    }
}

/// How long the MPD server has run and how long it has played (`stats`' `uptime` and `playtime`).
struct MPDPlayTime: Sendable {
    private let started = ContinuousClock.now
    /// Time spent playing, up to ``playingSince``.
    private var playedBefore: Duration = .zero
    private var playingSince: ContinuousClock.Instant?

    init(playing: Bool) { if playing { playingSince = .now } }

    /// Follows the player's status.
    mutating func follow(playing: Bool) {
        if playing, playingSince == nil { playingSince = .now }
        if !playing, let since = playingSince {
            playedBefore += .now - since
            playingSince = nil
        }
    }

    var uptimeSeconds: Int64 { (ContinuousClock.now - started).components.seconds }
    var playtimeSeconds: Int64 { (playedBefore + (playingSince.map { .now - $0 } ?? .zero)).components.seconds }
}

/// The sound server's outputs as MPD numbers them: an output keeps its id while others come and go (a client's
/// `enableoutput 1` never reaches another one); one seen again gets its old id.
struct MPDOutputList {
    /// The sound server's outputs (nil: none known).
    let port: MPDOutputs?
    private var ids: [String: Int] = [:]

    init(_ port: MPDOutputs?) { self.port = port }

    /// Every output, as the sound server lists them.
    var all: [(name: String, description: String, current: Bool)] { port?.outputs ?? [] }

    /// Every output numbered, by id.
    mutating func numbered() -> [(id: Int, output: (name: String, description: String, current: Bool))] {
        let list = all
        for output in list where ids[output.name] == nil {
            if ids.count >= 4096 { ids.removeAll() } // outputs that come and go without end: numbered afresh
            ids[output.name] = (ids.values.max() ?? -1) + 1
        }
        return list.compactMap { output in ids[output.name].map { ($0, output) } }.sorted { $0.id < $1.id }
    }
}

import RepriseCore

/// The MPD protocol over Reprise's own player: every MPD command is a request to the same ``Player`` MPRIS uses
/// (told to the same audio policy first), so both protocols always agree. Follows the change feed: each change
/// becomes MPD `idle` subsystems for every connection, and queue edits bump the queue's version.
public final class MPDPlayerBridge: ChangeListener {
    let player: Player
    /// Every transport and track request goes through it (the audio policy told first, as for MPRIS).
    let remote: RemoteControl
    let songs: MPDSongWriter
    /// The music library (nil: `library = off`).
    let library: LibraryAccess?
    /// The sound server's outputs (nil: none known).
    let outputs: MPDOutputs?
    /// The stored playlists (nil: none).
    let playlistFiles: MPDPlaylistFiles?
    /// Client-to-client messages.
    let messages = MPDMessageChannels()
    /// Changes of the stored playlists, one at a time.
    let playlistChanges = MPDSerialWork()
    /// Covers (nil: none).
    let musicFiles: MPDMusicFiles?
    /// The entry playback last ran on (``currentEntry``).
    var playedEntryID: Int?
    /// How many versions the next change of the queue counts for (``MPDQueueVersions/update(ids:edits:steps:shown:)``).
    var queueChangeSteps: UInt32 = 1
    /// What clients saw at the last change (``announceDifferences(also:)``).
    var lastObserved = MPDObservedState(playback: "", options: [], volume: 0, outputs: [])
    /// The library as MPD clients walk it, until it changes (nil: made again at the next library command).
    var librarySnapshot: MPDLibrarySnapshot?
    /// Counts the library's changes: a snapshot made across one is not kept.
    var libraryGeneration = 0
    /// The library's ``LibraryStatus/contentVersion`` and scanning state at the last change.
    private var libraryContentVersion: Int
    private var wasScanning: Bool
    /// Whether a client has connected (from then on the snapshot is made ahead), and whether one is being made.
    var preparesLibrary = false
    var snapshotUnderWay = false
    /// Each output's MPD id, by its name on the sound server: stable while outputs come and go.
    var outputIDs: [String: Int] = [:]
    /// The last `update` job's number.
    var updateJobs = 0
    public let versions: MPDQueueVersions
    public let commands: MPDCommandSet
    private let started = ContinuousClock.now
    /// Time spent playing, up to ``playingSince``.
    private var playedBefore: Duration = .zero
    private var playingSince: ContinuousClock.Instant?
    /// Hears each change's subsystems (the server, which tells every connection).
    public weak var listener: MPDIdleListener?

    public init(player: Player, remote: RemoteControl, library: LibraryAccess?, outputs: MPDOutputs? = nil,
                playlistFiles: MPDPlaylistFiles? = nil, files: MPDMusicFiles? = nil, musicFolder: String) {
        self.player = player
        self.remote = remote
        self.library = library
        self.outputs = outputs
        self.playlistFiles = playlistFiles
        self.musicFiles = files
        songs = MPDSongWriter(musicFolder: musicFolder)
        libraryContentVersion = library?.status.contentVersion ?? 0
        wasScanning = library?.status.scanning ?? false
        versions = MPDQueueVersions(ids: player.trackIDs, listVersion: player.queue.listVersion)
        commands = MPDCommandSet(tagTypes: MPDSongWriter.tagTypes)
        commands.add(statusCommands() + playbackCommands() + queueCommands() + libraryCommands() + storedPlaylistCommands() + fileCommands()
                     + serverCommands()
                     + outputCommands() + messageCommands())
        if player.status == .playing { playingSince = .now }
        playedEntryID = player.queue.current?.id // a queue restored at start: its entry was current when Reprise last ran
        lastObserved = observedState
    }

    public func didChange(_ change: Change) {
        var changed: MPDIdle = []
        if change.aspects.contains(.library) { changed.formUnion(libraryChanged()) }
        if change.aspects.contains(.storedPlaylists) { changed.insert(.storedPlaylist) }
        if change.aspects.contains(.position), player.status != .stopped { changed.insert(.player) } // a seek
        if change.aspects.contains(.queue) {
            let queue = player.queue
            let steps = queueChangeSteps
            queueChangeSteps = 1
            if versions.update(listVersion: queue.listVersion, ids: { player.trackIDs }, edits: change.queueEdits, steps: steps,
                               shown: { queue.entry(withID: $0).map(MPDQueueVersions.shown) }) {
                changed.insert(.playlist)
            }
        }
        if player.status != .stopped { playedEntryID = player.queue.current?.id }
        if change.aspects.contains(.transport) {
            if player.status == .playing, playingSince == nil { playingSince = .now }
            if player.status != .playing, let since = playingSince {
                playedBefore += .now - since
                playingSince = nil
            }
        }
        announceDifferences(also: changed)
    }

    /// What a library change is to MPD clients: `update` when a pass began or ended; `database`, and a new snapshot,
    /// when what the index holds changed. A pass's progress and measured loudness are neither.
    private func libraryChanged() -> MPDIdle {
        guard let status = library?.status else { return [] }
        var changed: MPDIdle = []
        if status.scanning != wasScanning {
            wasScanning = status.scanning
            changed.insert(.update)
        }
        if status.contentVersion != libraryContentVersion {
            libraryContentVersion = status.contentVersion
            libraryGeneration += 1
            librarySnapshot = nil
            if preparesLibrary { prepareLibrary() }
            changed.insert(.database)
        }
        return changed
    }

    /// `total` plus a track's length (none or negative: nothing), stopping at the largest value: lengths come from
    /// files and the index, where a hostile one can be as long as Int64 holds.
    static func adding(_ total: Int64, _ length: Int64?) -> Int64 {
        let (sum, overflow) = total.addingReportingOverflow(max(0, length ?? 0))
        return overflow ? .max : sum
    }

    /// Seconds since the bridge began, and seconds spent playing.
    var uptimeSeconds: Int64 { (ContinuousClock.now - started).components.seconds }
    var playtimeSeconds: Int64 {
        (playedBefore + (playingSince.map { .now - $0 } ?? .zero)).components.seconds
    }
}

/// Hears which MPD subsystems changed.
public protocol MPDIdleListener: AnyObject {
    func subsystemsChanged(_ changed: MPDIdle)
}

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
    /// MPD's consume mode (Reprise itself has none): an entry playback moves away from leaves the queue.
    var consume = ConsumeMode.off
    /// MPD priorities of queue entries (0, the default, is not kept): under random, higher ones play first.
    var priorities: [Int: Int] = [:]
    /// Whether the player shuffled at the last change (priorities apply when it starts).
    private var wasShuffled = false
    /// `single oneshot` under way: the loop status goes back once the entry has looped.
    var singleOneshot: SingleOneshot?
    /// The entry that was current after the last change, for consume.
    private var lastCurrentID: Int?
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
        lastCurrentID = player.queue.current?.id
        playedEntryID = lastCurrentID // a queue restored at start: its entry was current when Reprise last ran
        wasShuffled = player.shuffle
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
            if !priorities.isEmpty { priorities = priorities.filter { player.queue.entry(withID: $0.key) != nil } }
        }
        if change.aspects.contains(.options), player.shuffle != wasShuffled {
            wasShuffled = player.shuffle
            if wasShuffled { applyPriorities() }
        }
        if player.status != .stopped { playedEntryID = player.queue.current?.id }
        if change.aspects.contains(.current) { consumeIfMovedOn() }
        if !change.aspects.isDisjoint(with: [.position, .options]) { endSingleOneshotIfLooped() }
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

    /// With consume on, the entry playback moved away from (to the next, or another one chosen) leaves the queue;
    /// `oneshot` turns consume off after once.
    private func consumeIfMovedOn() {
        let current = player.queue.current?.id
        defer { lastCurrentID = current }
        guard consume != .off, let previous = lastCurrentID, previous != current, player.queue.entry(withID: previous) != nil else { return }
        if consume == .oneshot { consume = .off } // announced with the change that moved on
        player.removeTrack(id: previous)
    }

    /// `single oneshot`: once the entry has started again (or anyone set another loop status), single is off.
    private func endSingleOneshotIfLooped() {
        guard let oneshot = singleOneshot else { return }
        if player.loopStatus != .track {
            singleOneshot = nil
        } else if player.loopRestarts != oneshot.restarts {
            singleOneshot = nil
            player.setLoopStatus(oneshot.loopBefore)
        }
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

/// MPD's `consume` setting.
enum ConsumeMode: String {
    case off = "0", on = "1", oneshot
}

/// `single oneshot`: the loop status to go back to, and the player's loop count when it was asked.
struct SingleOneshot {
    var loopBefore: LoopStatus
    var restarts: Int
}

/// Hears which MPD subsystems changed.
public protocol MPDIdleListener: AnyObject {
    func subsystemsChanged(_ changed: MPDIdle)
}

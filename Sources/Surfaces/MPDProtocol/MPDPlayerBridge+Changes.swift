import RepriseCore

/// What MPD clients were last shown: the change → idle mapping compares with it.
struct MPDShownState {
    /// The entry playback last ran on (``MPDCommandContext/currentEntry``).
    var playedEntryID: Int?
    /// How many versions the next change of the queue counts for (``MPDQueueVersions/update(listVersion:ids:edits:steps:shown:)``).
    var queueChangeSteps: UInt32 = 1
    /// What clients saw at the last change.
    var observed = MPDObservedState(playback: "", options: [], volume: 0, outputs: [])
    /// `stats`' uptime and playtime.
    var playTime: MPDPlayTime

    init(playedEntryID: Int?, playTime: MPDPlayTime) {
        self.playedEntryID = playedEntryID
        self.playTime = playTime
    }
}

/// The change → idle mapping: each change of the feed becomes the MPD subsystems it woke, by what clients see
/// rather than by part (``MPDObservedState``), with the queue's version bumped for edits clients see.
extension MPDPlayerBridge {
    public func didChange(_ change: Change) {
        let context = context, player = context.player
        var changed: MPDIdle = []
        if change.aspects.contains(.library) { changed.formUnion(context.libraryCache.libraryChanged()) }
        if change.aspects.contains(.storedPlaylists) { changed.insert(.storedPlaylist) }
        if change.aspects.contains(.position), player.status != .stopped { changed.insert(.player) } // a seek
        if change.aspects.contains(.queue) {
            let queue = player.queue
            let steps = context.shown.queueChangeSteps
            context.shown.queueChangeSteps = 1
            if context.versions.update(listVersion: queue.listVersion, count: queue.count, ids: { player.trackIDs },
                                       edits: change.queueEdits, steps: steps,
                                       shown: { queue.entry(withID: $0).map(MPDQueueVersions.shown) },
                                       isFile: { queue.entry(withID: $0)?.uri.hasPrefix("file:") == true }) {
                changed.insert(.playlist)
            }
        }
        if player.status != .stopped { context.shown.playedEntryID = player.queue.current?.id }
        if change.aspects.contains(.transport) { context.shown.playTime.follow(playing: player.status == .playing) }
        context.announceDifferences(also: changed)
    }
}

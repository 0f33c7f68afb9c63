import RepriseCore

/// What MPD's commands work on — MPD's `AllCommands` over a small context: the player (through ``RemoteControl``
/// for what a user asks), the library as MPD walks it, the outputs, the stored playlists, the music files and the
/// client-to-client messages, with the queue's versions and what clients were last shown. Each area's commands are
/// a list of their own (``statusCommands()``, ``playbackCommands()``, ``queueCommands()``…, in `MPD…Commands.swift`);
/// ``allCommands`` is the table a session dispatches through. No command needs the bridge that follows the feed.
final class MPDCommandContext {
    let player: Player
    /// Every transport and track request goes through it (the audio policy told first, as for MPRIS).
    let remote: RemoteControl
    let songs: MPDSongWriter
    /// The library as MPD commands walk it.
    let libraryCache: MPDLibraryCache
    /// The sound server's outputs, numbered as MPD's.
    var outputs: MPDOutputList
    /// The stored playlists (nil: none), changed one at a time.
    let playlistFiles: MPDPlaylistFiles?
    let playlistChanges = MPDSerialWork()
    /// Covers (nil: none).
    let musicFiles: MPDMusicFiles?
    /// Client-to-client messages.
    let messages = MPDMessageChannels()
    let versions: MPDQueueVersions
    /// The output's problem a client cleared (`clearerror`): `status` leaves it out while it lasts.
    var clearedError: String?
    /// What clients were shown (``announceDifferences(also:)``).
    var shown: MPDShownState
    /// Hears each change's subsystems (the server, which tells every connection).
    weak var listener: MPDIdleListener?
    /// Stops the service, soon after the command that asks (`kill`); nil: `kill` is refused.
    var onKill: (() -> Void)?

    init(player: Player, remote: RemoteControl, library: LibraryAccess?, outputs: MPDOutputs?, playlistFiles: MPDPlaylistFiles?,
         files: MPDMusicFiles?, musicFolder: String) {
        self.player = player
        self.remote = remote
        self.outputs = MPDOutputList(outputs)
        self.playlistFiles = playlistFiles
        self.musicFiles = files
        songs = MPDSongWriter(musicFolder: musicFolder)
        libraryCache = MPDLibraryCache(library: library, songs: songs, folderModifiedSeconds: files?.folderModifiedSeconds)
        // A queue restored at start: its entry was current when Reprise last ran.
        shown = MPDShownState(playedEntryID: player.queue.current?.id, playTime: MPDPlayTime(playing: player.status == .playing))
        versions = MPDQueueVersions(ids: player.trackIDs, listVersion: player.queue.listVersion)
        shown.observed = observedState
    }

    /// The music library (nil: `library = off`).
    var library: LibraryAccess? { libraryCache.library }

    /// Every command, area by area.
    var allCommands: [MPDCommand] {
        statusCommands() + playbackCommands() + queueCommands() + libraryCommands() + storedPlaylistCommands()
            + fileCommands() + serverCommands() + outputCommands() + messageCommands()
    }

    /// Wakes the subsystems whose part of what clients see changed since the last look (`also`: those a change
    /// wakes whatever it did — a seek, an edit of the queue).
    func announceDifferences(also: MPDIdle = []) {
        let now = observedState
        let changed = now.differences(from: shown.observed).union(also)
        shown.observed = now
        if !changed.isEmpty { listener?.subsystemsChanged(changed) }
    }

    /// `total` plus a track's length (none or negative: nothing), stopping at the largest value: lengths come from
    /// files and the index, where a hostile one can be as long as Int64 holds.
    static func adding(_ total: Int64, _ length: Int64?) -> Int64 {
        let (sum, overflow) = total.addingReportingOverflow(max(0, length ?? 0))
        return overflow ? .max : sum
    }
}

import RepriseCore

/// The MPD protocol over Reprise's own player: every MPD command is a request to the same ``Player`` MPRIS uses
/// (told to the same audio policy first), so both protocols always agree. Follows the change feed
/// (``didChange(_:)``): each change becomes MPD `idle` subsystems for every connection, and queue edits bump the
/// queue's version.
public final class MPDPlayerBridge: ChangeListener {
    let player: Player
    /// Every transport and track request goes through it (the audio policy told first, as for MPRIS).
    let remote: RemoteControl
    let songs: MPDSongWriter
    /// The library as MPD commands walk it.
    let libraryCache: MPDLibraryCache
    /// The music library (nil: `library = off`).
    var library: LibraryAccess? { libraryCache.library }
    /// The sound server's outputs, numbered as MPD's.
    var outputs: MPDOutputList
    /// The stored playlists (nil: none).
    let playlistFiles: MPDPlaylistFiles?
    /// Client-to-client messages.
    let messages = MPDMessageChannels()
    /// Changes of the stored playlists, one at a time.
    let playlistChanges = MPDSerialWork()
    /// Covers (nil: none).
    let musicFiles: MPDMusicFiles?
    /// What clients were shown, for the change → idle mapping (``didChange(_:)``).
    var shown: MPDShownState
    public let versions: MPDQueueVersions
    public let commands: MPDCommandSet
    /// Hears each change's subsystems (the server, which tells every connection).
    public weak var listener: MPDIdleListener?

    public init(player: Player, remote: RemoteControl, library: LibraryAccess?, outputs: MPDOutputs? = nil,
                playlistFiles: MPDPlaylistFiles? = nil, files: MPDMusicFiles? = nil, musicFolder: String) {
        self.player = player
        self.remote = remote
        self.outputs = MPDOutputList(outputs)
        self.playlistFiles = playlistFiles
        self.musicFiles = files
        songs = MPDSongWriter(musicFolder: musicFolder)
        libraryCache = MPDLibraryCache(library: library, songs: songs)
        // A queue restored at start: its entry was current when Reprise last ran.
        shown = MPDShownState(playedEntryID: player.queue.current?.id, playTime: MPDPlayTime(playing: player.status == .playing))
        versions = MPDQueueVersions(ids: player.trackIDs, listVersion: player.queue.listVersion)
        commands = MPDCommandSet(tagTypes: MPDSongWriter.tagTypes)
        commands.add(statusCommands() + playbackCommands() + queueCommands() + libraryCommands() + storedPlaylistCommands() + fileCommands()
                     + serverCommands()
                     + outputCommands() + messageCommands())
        shown.observed = observedState
    }

    /// `total` plus a track's length (none or negative: nothing), stopping at the largest value: lengths come from
    /// files and the index, where a hostile one can be as long as Int64 holds.
    static func adding(_ total: Int64, _ length: Int64?) -> Int64 {
        let (sum, overflow) = total.addingReportingOverflow(max(0, length ?? 0))
        return overflow ? .max : sum
    }
}

/// Hears which MPD subsystems changed.
public protocol MPDIdleListener: AnyObject {
    func subsystemsChanged(_ changed: MPDIdle)
}

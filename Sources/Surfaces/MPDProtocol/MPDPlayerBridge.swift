import RepriseCore

/// The MPD protocol over Reprise's own player: every MPD command is a request to the same ``Player`` MPRIS uses
/// (told to the same audio policy first), so both protocols always agree. The commands work on an
/// ``MPDCommandContext``; the bridge follows the change feed (``didChange(_:)``): each change becomes MPD `idle`
/// subsystems for every connection, and queue edits bump the queue's version.
public final class MPDPlayerBridge: ChangeListener {
    let context: MPDCommandContext
    public let commands: MPDCommandSet

    public init(player: Player, remote: RemoteControl, library: LibraryAccess?, outputs: MPDOutputs? = nil,
                playlistFiles: MPDPlaylistFiles? = nil, files: MPDMusicFiles? = nil, musicFolder: String) {
        context = MPDCommandContext(player: player, remote: remote, library: library, outputs: outputs,
                                    playlistFiles: playlistFiles, files: files, musicFolder: musicFolder)
        commands = MPDCommandSet(tagTypes: MPDSongWriter.tagTypes)
        commands.add(context.allCommands)
    }

    /// The queue's versions as MPD clients count them.
    public var versions: MPDQueueVersions { context.versions }
    /// The player's change feed, which sessions hold while a command runs.
    public var feed: ChangeFeed { context.player.feed }

    /// Hears each change's subsystems (the server, which tells every connection).
    public var listener: MPDIdleListener? {
        get { context.listener }
        set { context.listener = newValue }
    }

    /// Stops the service, soon after the command that asks (MPD's `kill`); nil: `kill` is refused.
    public var onKill: (() -> Void)? {
        get { context.onKill }
        set { context.onKill = newValue }
    }

    /// Makes the library's snapshot ahead of a client's first walk of it.
    public func prepareLibrary() { context.prepareLibrary() }
}

/// Hears which MPD subsystems changed.
public protocol MPDIdleListener: AnyObject {
    func subsystemsChanged(_ changed: MPDIdle)
}

import Glibc
import LoopKit
import MPDProtocol
import MPDServer
import PosixFiles
import RepriseInterfaces
import RepriseCore

/// The MPD protocol server as a component: built over the player (its bridge follows the change feed), sockets
/// opened at start and closed at stop; `quit` stops the service (MPD's `kill`). Nothing when `mpd = off` or when the password file is refused.
final class MPDComponent: ServiceComponent, MPDServerStatus {
    let name = "mpd"
    private let server: MPDServer?
    /// The bridge, which follows the change feed (nil when the server is off).
    let changeListener: ChangeListener?

    init(player: Player, remote: RemoteControl, library: LibraryAccess?, outputs: MPDOutputs?,
         playlists: MPDPlaylistFiles?, files: MPDMusicFiles?, settings: MPDSettings, musicFolder: String,
         loop: EventLoop, log: Log, quit: @escaping () -> Void) {
        guard settings.enabled else {
            server = nil
            changeListener = nil
            return
        }
        let defaults = MPDPermissions(list: settings.defaultPermissions) ?? .all
        let passwordFile = settings.passwordFile.map(Self.expandingHome)
        switch MPDPasswords.load(path: passwordFile, defaultPermissions: defaults) {
        case .failure(let error):
            log.warning("MPD server off: password file \(error.message)")
            server = nil
            changeListener = nil
        case .success(let passwords):
            let bridge = MPDPlayerBridge(player: player, remote: remote, library: library, outputs: outputs, playlistFiles: playlists,
                                         files: files, musicFolder: musicFolder)
            // After the command's turn: stopping closes every connection, the asking one among them.
            bridge.onKill = { loop.once(afterMilliseconds: 0) { quit() } }
            changeListener = bridge
            server = MPDServer(bridge: bridge, settings: settings, socketPath: Self.socketPath(settings), passwords: passwords,
                               loop: loop, log: log)
        }
    }

    /// Whether the server is configured to run.
    var isOn: Bool { server != nil }
    /// Where clients reach the server (empty when it is off).
    var addresses: [String] { server?.addresses ?? [] }
    var clientCount: Int { server?.clientCount ?? 0 }

    func start() { server?.start() }

    func stop(_ done: @escaping () -> Void) {
        server?.stop()
        done()
    }

    /// The configured socket path, or `$XDG_RUNTIME_DIR/reprise/mpd.socket` (its folder made, 0700); nil for none.
    private static func socketPath(_ settings: MPDSettings) -> String? {
        if let path = settings.socketPath { return path.isEmpty ? nil : expandingHome(path) }
        guard let runtime = XDGDirectories.variable("XDG_RUNTIME_DIR") else { return nil }
        let folder = runtime + "/reprise"
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { return nil }
        return folder + "/mpd.socket"
    }

    private static func expandingHome(_ path: String) -> String {
        path.hasPrefix("~/") ? XDGDirectories.home + path.dropFirst() : path
    }
}

/// The audio session's outputs are the MPD server's.
extension AudioSessionController: MPDOutputs {}

import BusInterfaces
import CoreTestDoubles
import Foundation
import MPRIS
import PosixFiles
import RepriseCore
import RepriseInterfaces
import SDBus
import SDBusTesting

/// The whole adaptor over an in-process bus (``LocalBus``): every interface exported as the service exports it,
/// over a player with a scripted engine. Calls, reads, writes and what is announced are the bus's; no dbus-daemon.
final class InProcessAdaptor {
    let bus = LocalBus()
    let player: Player
    /// What the adaptor told the audio policy.
    let policy = RecordingPolicy()
    let engine: ScriptedEngine
    let service: DBusAdaptor
    /// The optional surfaces it offers.
    let surfaces: DBusAdaptor.Surfaces
    let folder: String
    private(set) var quits = 0

    /// The objects as a client sees them, for the generated proxies.
    var client: LocalBus.Peer { bus.peer(objectPath: RepriseObjects.path(for:)) }

    static let root = RepriseObjects.mprisPath
    static let reprise = RepriseObjects.ownPath

    /// What the optional surfaces are built over, before the adaptor that offers them.
    struct Setup {
        let bus: LocalBus, player: Player, remote: RemoteControl, playlists: PlaylistLibrary, folder: String
    }

    /// - Parameter surfaces: the optional surfaces to offer (none by default), built over `Setup`.
    init(tracks: Int = 3, surfaces: (Setup) throws -> DBusAdaptor.Surfaces = { _ in .init() }) throws {
        (player, engine, _) = makePlayer(tracks: tracks)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-adaptor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Playlists", withIntermediateDirectories: true)
        let playlists = PlaylistLibrary(directories: [folder + "/Playlists"], fileSystem: PosixFileSystem(), feed: player.feed)
        let remote = RemoteControl(player: player, policy: policy)
        let surfaces = try surfaces(Setup(bus: bus, player: player, remote: remote, playlists: playlists, folder: folder))
        self.surfaces = surfaces
        var quit: () -> Void = {}
        service = try DBusAdaptor(bus: bus, player: player, playlists: playlists,
                                  identity: .init(name: "Reprise", desktopEntry: "app.reprise.Reprise") { ["audio/ogg"] },
                                  remote: remote, surfaces: surfaces, log: Log(verbose: false)) { quit() }
        player.feed.listen(service)
        if let library = surfaces.library { player.feed.listen(library) }
        quit = { [unowned self] in quits += 1 }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Makes an empty file under the adaptor's folder; returns its path.
    @discardableResult
    func file(_ name: String, _ contents: String = "") throws -> String { try Self.file(name, contents, in: folder) }

    /// Makes an empty file under `folder`; returns its path.
    @discardableResult
    static func file(_ name: String, _ contents: String = "", in folder: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Calls a method whose answer may come later in the same turn; returns the answer.
    func answer(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) -> Result<[DBusValue], DBusError>? {
        var result: Result<[DBusValue], DBusError>?
        bus.call(path, interface, member, arguments) { result = $0 }
        return result
    }

    /// The names carried by each PropertiesChanged announced on `interface` since the last ``forget()``.
    func announced(_ interface: String) -> [Set<String>] {
        bus.propertiesChanged(interface).map { Set($0.keys) }
    }

    func signals(_ interface: String, _ member: String) -> [[DBusValue]] {
        bus.emitted.filter { $0.interface == interface && $0.member == member }.map(\.arguments)
    }

    func forget() { bus.clearEmitted() }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}

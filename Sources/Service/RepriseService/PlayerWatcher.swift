import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// The other MPRIS players on the session bus: their process ids and whether each says it is playing, found
/// with ListNames, then followed through NameOwnerChanged and their PropertiesChanged. Pauses and resumes them
/// on request. All calls are asynchronous, so a hung player never blocks the loop. Whether a player really makes
/// sound here is the audio session's to judge (``AudiblePlayers``). A component: stopped, it removes its matches
/// and ignores answers still on their way.
final class PlayerWatcher: ServiceComponent {
    let name = "other players"
    private let bus: Bus
    private var matches: [BusMatch] = []
    private var stopped = false
    private let log: Log
    private let ownUniqueName: String
    /// Well-known MPRIS names by the unique name that owns them.
    private var namesByOwner: [String: Set<String>] = [:]
    private var players: [String: OtherPlayer] = [:]
    weak var listener: OtherPlayersListener?

    init(bus: Bus, log: Log) {
        self.bus = bus
        self.log = log
        ownUniqueName = bus.uniqueName
    }

    func stop(_ done: @escaping () -> Void) {
        stopped = true
        matches.forEach { $0.remove() }
        matches.removeAll()
        done()
    }

    func start() throws(DBusError) {
        matches.append(try bus.addMatch(.nameOwnerChanged(namespace: "org.mpris.MediaPlayer2")) { [unowned self] message in
            guard message.arguments.count == 3, let name = message.arguments[0].stringValue,
                  let old = message.arguments[1].stringValue, let new = message.arguments[2].stringValue else { return }
            if !old.isEmpty { forget(name) }
            if !new.isEmpty { learn(name, owner: new) }
        })
        matches.append(try bus.addMatch(.propertiesChanged(path: RepriseObjects.mprisPath, interface: MPRIS.playerInterface)) {
            [unowned self] message in
            guard message.arguments.count >= 2, let status = message.arguments[1].dictionary?["PlaybackStatus"]?.stringValue
            else { return }
            for name in namesByOwner[message.sender] ?? [] { update(name) { $0.playing = status == "Playing"; $0.found = false } }
        })
        bus.callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      member: "ListNames") { [weak self] result in
            guard let self, case .success(let values) = result, let names = values.first?.stringArray else { return }
            for name in names where name.hasPrefix(MPRIS.busNamePrefix) {
                bus.callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                              interface: "org.freedesktop.DBus", member: "GetNameOwner", [.string(name)]) { [weak self] result in
                    guard let self, case .success(let values) = result, let owner = values.first?.stringValue else { return }
                    learn(name, owner: owner, initially: true)
                }
            }
        }
    }

    func pause(_ names: [String]) { names.forEach { send("Pause", to: $0) } }
    func play(_ names: [String]) { names.forEach { send("Play", to: $0) } }

    private func send(_ member: String, to name: String) {
        log.info("asking \(name) to \(member.lowercased())")
        try? bus.send(destination: name, path: RepriseObjects.mprisPath, interface: MPRIS.playerInterface, member: member)
    }

    private func learn(_ name: String, owner: String, initially: Bool = false) {
        guard !stopped, owner != ownUniqueName, players[name]?.owner != owner else { return }
        players[name] = OtherPlayer(owner: owner)
        namesByOwner[owner, default: []].insert(name)
        bus.callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      member: "GetConnectionUnixProcessID", [.string(owner)]) { [weak self] result in
            guard let self, case .success(let values) = result, case .uint32(let pid)? = values.first else { return }
            update(name, owner: owner) { $0.processID = Int32(bitPattern: pid) }
        }
        bus.callAsync(destination: name, path: RepriseObjects.mprisPath, interface: "org.freedesktop.DBus.Properties",
                      member: "Get", [.string(MPRIS.playerInterface), .string("PlaybackStatus")]) { [weak self] result in
            guard let self, case .success(let values) = result, let status = values.first?.unwrapped.stringValue else { return }
            update(name, owner: owner) {
                $0.playing = status == "Playing"
                $0.found = initially
            }
        }
    }

    private func forget(_ name: String) {
        guard let player = players.removeValue(forKey: name) else { return }
        namesByOwner[player.owner]?.remove(name)
        if namesByOwner[player.owner]?.isEmpty == true { namesByOwner[player.owner] = nil }
        listener?.otherPlayerGone(name)
    }

    /// Changes what is known of `name` (only while `owner`, when given, still owns it) and reports it.
    private func update(_ name: String, owner: String? = nil, _ change: (inout OtherPlayer) -> Void) {
        guard !stopped, var player = players[name], owner == nil || player.owner == owner else { return }
        change(&player)
        players[name] = player
        listener?.otherPlayerChanged(name, player)
    }
}

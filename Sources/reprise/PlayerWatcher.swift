import RepriseCore
import SDBus

/// The other MPRIS players on the session bus and whether each is playing: found with ListNames, then
/// followed through NameOwnerChanged and their PropertiesChanged. Pauses and resumes them on request.
/// All calls are asynchronous, so a hung player never blocks the loop.
final class PlayerWatcher {
    private let bus: Bus
    private let log: Log
    private let ownUniqueName: String
    /// Well-known MPRIS names by the unique name that owns them.
    private var namesByOwner: [String: Set<String>] = [:]
    private var ownerByName: [String: String] = [:]
    private(set) var playing: Set<String> = []
    /// A player (by well-known name) started (true) or stopped (false) playing; `found` when it was playing
    /// already when Reprise first looked.
    var onChange: ((_ name: String, _ playing: Bool, _ found: Bool) -> Void)?

    init(bus: Bus, log: Log) {
        self.bus = bus
        self.log = log
        ownUniqueName = bus.uniqueName
    }

    func start() throws(DBusError) {
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                         + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'") { [unowned self] message in
            guard message.arguments.count == 3, let name = message.arguments[0].stringValue,
                  let old = message.arguments[1].stringValue, let new = message.arguments[2].stringValue else { return }
            if !old.isEmpty { forget(name) }
            if !new.isEmpty { learn(name, owner: new) }
        }
        try bus.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                         + "path='/org/mpris/MediaPlayer2',arg0='org.mpris.MediaPlayer2.Player'") { [unowned self] message in
            guard message.arguments.count >= 2, let status = message.arguments[1].dictionary?["PlaybackStatus"]?.stringValue
            else { return }
            for name in namesByOwner[message.sender] ?? [] { update(name, playing: status == "Playing") }
        }
        bus.callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      member: "ListNames") { [weak self] result in
            guard let self, case .success(let values) = result, let names = values.first?.stringArray else { return }
            for name in names where name.hasPrefix(MPRISNames.prefix) {
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
        try? bus.send(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player", member: member)
    }

    private func learn(_ name: String, owner: String, initially: Bool = false) {
        guard owner != ownUniqueName else { return }
        ownerByName[name] = owner
        namesByOwner[owner, default: []].insert(name)
        bus.callAsync(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
                      member: "Get", [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")]) { [weak self] result in
            guard let self, self.ownerByName[name] == owner, case .success(let values) = result,
                  let status = values.first?.unwrapped.stringValue else { return }
            update(name, playing: status == "Playing", found: initially)
        }
    }

    private func forget(_ name: String) {
        if let owner = ownerByName.removeValue(forKey: name) {
            namesByOwner[owner]?.remove(name)
            if namesByOwner[owner]?.isEmpty == true { namesByOwner[owner] = nil }
        }
        update(name, playing: false)
    }

    private func update(_ name: String, playing nowPlaying: Bool, found: Bool = false) {
        let changed = nowPlaying ? playing.insert(name).inserted : playing.remove(name) != nil
        if changed { onChange?(name, nowPlaying, found) }
    }
}

enum MPRISNames {
    static let prefix = "org.mpris.MediaPlayer2."
}

import BusInterfaces
import SDBus

/// Keeps clients told of the properties of every exported interface: each ``announce(_:)`` reads the watched
/// properties again and emits one PropertiesChanged per interface, carrying exactly those whose values changed.
public final class PropertyAnnouncer {
    private struct Watched {
        let interface: String
        let path: String
        let last: Bool
        var values: AnnouncedProperties
    }
    private let bus: any ObjectBus
    private var watched: [Watched] = []

    public init(bus: any ObjectBus) { self.bus = bus }

    /// Watches `names` of `interface` at `path`. `read` gives what decides a change (usually the value; the signal
    /// carries the values the bus reads when it is sent). Reads them once: what clients see at first. Interfaces
    /// are announced in the order they were watched, those watched `last` after all the others (MPRIS Player: a
    /// client that sees the new track finds everything else already told).
    public func watch(_ interface: String, at path: String, names: [String], last: Bool = false,
                      read: @escaping (String) -> DBusValue?) {
        let entry = Watched(interface: interface, path: path, last: last, values: AnnouncedProperties(names, read: read))
        if last { watched.append(entry) } else { watched.insert(entry, at: watched.firstIndex(where: \.last) ?? watched.endIndex) }
    }

    /// Announces what changed on `interfaces` (nil: on all), in the order they were watched, leaving out the
    /// properties `unaffected` names by interface (a change cannot have touched them: they are not read); returns
    /// the interfaces announced.
    @discardableResult
    public func announce(_ interfaces: Set<String>? = nil, unaffected: [String: Set<String>] = [:]) -> [String] {
        var announced: [String] = []
        for index in watched.indices where interfaces?.contains(watched[index].interface) ?? true {
            let changed = watched[index].values.refresh(skipping: unaffected[watched[index].interface] ?? [])
            guard !changed.isEmpty else { continue }
            try? bus.emitPropertiesChanged(path: watched[index].path, interface: watched[index].interface, names: changed)
            announced.append(watched[index].interface)
        }
        return announced
    }

    /// The value of `name` on `interface` as clients last heard it.
    public func announcedValue(_ name: String, of interface: String) -> DBusValue? {
        watched.first { $0.interface == interface }?.values.value(of: name)
    }
}

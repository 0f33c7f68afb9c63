import BusInterfaces
import SDBus

/// Keeps clients told of the properties of every exported interface: each ``announce(_:)`` reads the watched
/// properties again and emits one PropertiesChanged per interface, carrying exactly those whose values changed.
final class PropertyAnnouncer {
    private struct Watched {
        let interface: String
        let path: String
        var values: AnnouncedProperties
    }
    private let bus: any ObjectBus
    private var watched: [Watched] = []

    init(bus: any ObjectBus) { self.bus = bus }

    /// Watches `names` of `interface` at `path`. `read` gives what decides a change (usually the value; the signal
    /// carries the values the bus reads when it is sent). Reads them once: what clients see at first.
    func watch(_ interface: String, at path: String, names: [String], read: @escaping (String) -> DBusValue?) {
        watched.append(Watched(interface: interface, path: path, values: AnnouncedProperties(names, read: read)))
    }

    /// Announces what changed on `interfaces` (nil: on all), in the order they were watched; returns the
    /// interfaces announced.
    @discardableResult
    func announce(_ interfaces: Set<String>? = nil) -> [String] {
        var announced: [String] = []
        for index in watched.indices where interfaces?.contains(watched[index].interface) ?? true {
            let changed = watched[index].values.refresh()
            guard !changed.isEmpty else { continue }
            try? bus.emitPropertiesChanged(path: watched[index].path, interface: watched[index].interface, names: changed)
            announced.append(watched[index].interface)
        }
        return announced
    }

    /// The value of `name` on `interface` as clients last heard it.
    func announcedValue(_ name: String, of interface: String) -> DBusValue? {
        watched.first { $0.interface == interface }?.values.values[name]
    }
}

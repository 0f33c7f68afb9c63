import BusInterfaces
import RepriseCore
import SDBus

/// Keeps clients told of the properties of every exported interface: each ``announce(_:)`` reads again the watched
/// properties that follow a part the change names (their `app.reprise.Codegen.Parts` annotation in `dbus/*.xml`)
/// and emits one PropertiesChanged per interface, carrying exactly those whose values changed.
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

    /// Watches the properties `names` of `interface` (default: those it announces with their values) at `path`,
    /// each read again after a change of a part it follows. `read` gives what decides a change (usually the value;
    /// the signal carries the values the bus reads when it is sent). Reads them once: what clients see at first.
    /// Interfaces are announced in the order they were watched, those watched `last` after all the others (MPRIS
    /// Player: a client that sees the new track finds everything else already told).
    public func watch(_ interface: InterfaceDescription, at path: String, names: [String]? = nil, last: Bool = false,
                      read: @escaping (String) -> DBusValue?) {
        let names = names ?? interface.properties.filter { $0.emits == .change }.map(\.name)
        let parts = names.map { name in Self.parts(of: interface.properties.first { $0.name == name }) }
        let entry = Watched(interface: interface.name, path: path, last: last, values: AnnouncedProperties(names, parts: parts, read: read))
        if last { watched.append(entry) } else { watched.insert(entry, at: watched.firstIndex(where: \.last) ?? watched.endIndex) }
    }

    /// What a property follows: every part when it declares none (or one that is no part).
    static func parts(of property: InterfaceDescription.Property?) -> ChangeAspects {
        guard let property, !property.parts.isEmpty, let parts = ChangeAspects(named: property.parts) else { return ChangeAspects(rawValue: ~0) }
        return parts
    }

    /// Announces what a change of `parts` changed, interface by interface in the order they were watched; returns
    /// the interfaces announced.
    @discardableResult
    public func announce(_ parts: ChangeAspects) -> [String] {
        var announced: [String] = []
        for index in watched.indices {
            let changed = watched[index].values.refresh(following: parts)
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

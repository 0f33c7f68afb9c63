import BusInterfaces
import SDBus

/// The values of an interface's announced properties as clients last heard them: each refresh reads them again
/// and tells which changed, for one PropertiesChanged carrying exactly those.
struct AnnouncedProperties {
    let names: [String]
    private let read: (String) -> DBusValue?
    private(set) var values: [String: DBusValue] = [:]

    /// Reads every property once (what clients see at first).
    init(_ names: [String], read: @escaping (String) -> DBusValue?) {
        self.names = names
        self.read = read
        for name in names { values[name] = read(name) }
    }

    /// Reads them all again; returns the names whose values changed, in `names` order.
    mutating func refresh() -> [String] {
        var now: [String: DBusValue] = [:]
        for name in names { now[name] = read(name) }
        let changed = names.filter { now[$0] != values[$0] }
        values = now
        return changed
    }
}

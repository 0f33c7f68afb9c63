import BusInterfaces
import SDBus

/// The values of an interface's announced properties as clients last heard them: each refresh reads them again
/// and tells which changed, for one PropertiesChanged carrying exactly those.
struct AnnouncedProperties {
    let names: [String]
    private let read: (String) -> DBusValue?
    /// What clients last heard, in `names` order.
    private var heard: [DBusValue?]

    /// Reads every property once (what clients see at first).
    init(_ names: [String], read: @escaping (String) -> DBusValue?) {
        self.names = names
        self.read = read
        heard = names.map(read)
    }

    /// The value of `name` as clients last heard it.
    func value(of name: String) -> DBusValue? {
        names.firstIndex(of: name).flatMap { heard[$0] }
    }

    /// Reads them again, but those named in `unaffected` (what the change cannot have touched); returns the names
    /// whose values changed, in `names` order.
    mutating func refresh(skipping unaffected: Set<String> = []) -> [String] {
        var changed: [String] = []
        for index in names.indices where !unaffected.contains(names[index]) {
            let now = read(names[index])
            guard now != heard[index] else { continue }
            heard[index] = now
            changed.append(names[index])
        }
        return changed
    }
}

import BusInterfaces
import RepriseCore
import SDBus

/// The values of an interface's announced properties as clients last heard them: each refresh reads again those
/// that follow a part the change names and tells which changed, for one PropertiesChanged carrying exactly those.
struct AnnouncedProperties {
    let names: [String]
    /// The parts each property follows, in `names` order.
    let parts: [ChangeAspects]
    private let read: (String) -> DBusValue?
    /// What clients last heard, in `names` order.
    private var heard: [DBusValue?]

    /// Reads every property once (what clients see at first).
    init(_ names: [String], parts: [ChangeAspects], read: @escaping (String) -> DBusValue?) {
        self.names = names
        self.parts = parts
        self.read = read
        heard = names.map(read)
    }

    /// The value of `name` as clients last heard it.
    func value(of name: String) -> DBusValue? {
        names.firstIndex(of: name).flatMap { heard[$0] }
    }

    /// Reads again those following one of `changed` (the others cannot have changed); returns the names whose
    /// values changed, in `names` order.
    mutating func refresh(following changed: ChangeAspects) -> [String] {
        var result: [String] = []
        for index in names.indices where !parts[index].isDisjoint(with: changed) {
            let now = read(names[index])
            guard now != heard[index] else { continue }
            heard[index] = now
            result.append(names[index])
        }
        return result
    }
}

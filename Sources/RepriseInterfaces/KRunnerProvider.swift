import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// org.kde.krunner1: KRunner (and Plasma's search) finds the library's music as the user types.
final class KRunnerProvider: Krunner1Handler {
    static let objectPath = RepriseObjects.krunnerPath

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func actions() throws(DBusError) -> DBusValue { .array(elementSignature: "(sss)", []) }

    func match(query: String, reply: Reply<DBusValue>) throws(DBusError) {
        search.search([query]) { results in
            let count = Double(max(1, results.count))
            let matches: [DBusValue] = results.enumerated().map { index, result in
                let exact = result.name.lowercased() == query.lowercased()
                return .structure([.string(result.id), .string(result.name), .string(result.icon.hasPrefix("/") ? "reprise" : result.icon),
                                   .int32(exact ? 100 : 30), .double(1 - Double(index) / count * 0.5),
                                   .vardict([("subtext", .string(result.description))])])
            }
            reply.send(.array(elementSignature: "(sssida{sv})", matches))
        }
    }

    /// KRunner closed its session. What it was shown stays (GNOME Shell may be showing the same ids).
    func teardown() throws(DBusError) {}

    func run(matchId: String, actionId: String, reply: Reply<Void>) throws(DBusError) {
        search.activate(matchId) { error in if let error { reply.fail(error) } else { reply.send() } }
    }
}

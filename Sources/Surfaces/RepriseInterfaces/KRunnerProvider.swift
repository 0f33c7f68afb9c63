import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// org.kde.krunner1: KRunner (and Plasma's search) finds the library's music as the user types.
final class KRunnerProvider: Krunner1Handler {
    static let objectPath = RepriseObjects.krunnerPath

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func actions() throws(DBusError) -> [KRunnerAction] { [] }

    func match(query: String, reply: Reply<[KRunnerMatch]>) throws(DBusError) {
        search.search([query]) { results in
            let count = Double(max(1, results.count))
            reply.send(results.enumerated().map { index, result in
                let exact = result.name.lowercased() == query.lowercased()
                return KRunnerMatch(id: result.id, text: result.name, iconName: result.icon.hasPrefix("/") ? "reprise" : result.icon,
                                    categoryRelevance: exact ? 100 : 30, relevance: 1 - Double(index) / count * 0.5,
                                    properties: ["subtext": .string(result.description)])
            })
        }
    }

    /// KRunner closed its session. What it was shown stays (GNOME Shell may be showing the same ids).
    func teardown() throws(DBusError) {}

    func run(matchId: String, actionId: String, reply: Reply<Void>) throws(DBusError) {
        search.activate(matchId) { error in if let error { reply.fail(error) } else { reply.send() } }
    }
}

import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// org.gnome.Shell.SearchProvider2: GNOME's overview searches the library as the user types.
final class GnomeSearchProvider: ShellSearchProvider2Handler {
    static let objectPath = RepriseObjects.searchProviderPath

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func getInitialResultSet(terms: [String], reply: Reply<[String]>) throws(DBusError) {
        search.search(terms) { reply.send($0.map(\.id)) }
    }

    func getSubsearchResultSet(previousResults: [String], terms: [String], reply: Reply<[String]>) throws(DBusError) {
        search.search(terms) { reply.send($0.map(\.id)) }
    }

    func getResultMetas(identifiers: [String]) throws(DBusError) -> [[String: DBusValue]] {
        identifiers.prefix(100).compactMap { id in
            guard let result = search.shownResult(id) else { return nil }
            return ["id": .string(id), "name": .string(result.name), "description": .string(result.description), "gicon": .string(result.icon)]
        }
    }

    func activateResult(identifier: String, terms: [String], timestamp: UInt32, reply: Reply<Void>) throws(DBusError) {
        search.activate(identifier) { error in if let error { reply.fail(error) } else { reply.send() } }
    }

    /// The shell's "show more": Reprise has no window to open for a search; nothing happens.
    func launchSearch(terms: [String], timestamp: UInt32) throws(DBusError) {}
}

import RepriseCore
import SDBus

/// org.gnome.Shell.SearchProvider2: GNOME's overview searches the library as the user types.
final class GnomeSearchProvider: MethodsOnlyInterface {
    static let description = DBusInterfaces.orgGnomeShellSearchProvider2
    static let objectPath = "/app/reprise/SearchProvider"

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let arguments = call.arguments
        switch call.member {
        case "GetInitialResultSet", "GetSubsearchResultSet":
            guard let terms = arguments.last?.stringArray, arguments.count == (call.member == "GetInitialResultSet" ? 1 : 2) else {
                throw .invalidArgs("bad arguments for \(call.member)")
            }
            search.search(terms) { call.reply([.strings($0.map(\.id))]) }
            return .deferred
        case "GetResultMetas":
            guard let ids = arguments.first?.stringArray else { throw .invalidArgs("GetResultMetas takes (as)") }
            let metas: [DBusValue] = ids.prefix(100).compactMap { id in
                guard let result = search.shownResult(id) else { return nil }
                return .vardict([("id", .string(id)), ("name", .string(result.name)), ("description", .string(result.description)),
                                 ("gicon", .string(result.icon))])
            }
            return .reply([.array(elementSignature: "a{sv}", metas)])
        case "ActivateResult":
            guard let id = arguments.first?.stringValue, arguments.count == 3 else { throw .invalidArgs("ActivateResult takes (sasu)") }
            search.activate(id) { error in if let error { call.fail(error) } else { call.reply([]) } }
            return .deferred
        case "LaunchSearch":
            // The shell's "show more": Reprise has no window to open for a search; nothing happens.
            return .reply([])
        default:
            throw DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member)")
        }
    }
}

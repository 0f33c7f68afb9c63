import RepriseCore
import SDBus

/// org.kde.krunner1: KRunner (and Plasma's search) finds the library's music as the user types.
final class KRunnerProvider: MethodsOnlyInterface {
    static let description = DBusInterfaces.orgKdeKrunner1
    static let objectPath = "/app/reprise/KRunner"

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let arguments = call.arguments
        switch (call.member, arguments.first) {
        case ("Actions", nil):
            return .reply([.array(elementSignature: "(sss)", [])])
        case ("Match", .string(let query)?):
            search.search([query]) { results in
                let count = Double(max(1, results.count))
                let matches: [DBusValue] = results.enumerated().map { index, result in
                    let exact = result.name.lowercased() == query.lowercased()
                    return .structure([.string(result.id), .string(result.name), .string(result.icon.hasPrefix("/") ? "reprise" : result.icon),
                                       .int32(exact ? 100 : 30), .double(1 - Double(index) / count * 0.5),
                                       .vardict([("subtext", .string(result.description))])])
                }
                call.reply([.array(elementSignature: "(sssida{sv})", matches)])
            }
            return .deferred
        case ("Teardown", nil):
            // KRunner closed its session. What it was shown stays (GNOME Shell may be showing the same ids).
            return .reply([])
        case ("Run", .string(let id)?):
            guard arguments.count == 2 else { throw .invalidArgs("Run takes (ss)") }
            search.activate(id) { error in if let error { call.fail(error) } else { call.reply([]) } }
            return .deferred
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
    }
}

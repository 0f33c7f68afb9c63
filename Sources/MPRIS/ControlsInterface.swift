import RepriseCore
import SDBus

public enum ControlsNames {
    public static let interface = "app.reprise.Controls1"

    public static let description = DBusInterfaces.appRepriseControls1
}

/// app.reprise.Controls1: the custom actions and their layout (the seeds' control bar), what played before,
/// and queue requests MPRIS lacks (replace or enqueue many URIs, clear).
final class ControlsInterface: ReadOnlyInterface {
    private let player: Player
    var onUserAction: ((PolicyEvent) -> Void)?

    init(player: Player) { self.player = player }

    static let propertyNames = ControlsNames.description.properties.map(\.name)

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let args = call.arguments
        do throws(PlayerError) {
            switch (call.member, args.first) {
            case ("Invoke", .string(let id)?):
                try CustomActions.invoke(id, on: player)
            case ("OpenMedia", .array(_, let items)?):
                guard args.count == 2, case .bool(let enqueue) = args[1] else { throw .invalidArgument("OpenMedia takes (as, b)") }
                let uris = items.compactMap(\.stringValue)
                if enqueue {
                    player.appendTracks(uris, completion: call.answer)
                } else {
                    onUserAction?(.userChangedTrack)
                    player.replaceQueue(validating: uris, completion: call.answer)
                }
                return .deferred
            case ("Clear", _):
                onUserAction?(.userStopped)
                player.clear()
            default:
                throw .invalidArgument("bad arguments for \(call.member)")
            }
        } catch {
            throw error.dbusError
        }
        return .reply([])
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "Actions":
            return .array(elementSignature: "(sssb)", CustomActions.all(for: player).map {
                .structure([.string($0.id), .string($0.label), .string($0.icon), .bool($0.enabled)])
            })
        case "Layout":
            let layout = CustomActions.layout(for: player)
            return .structure([.strings(layout.bottomRow), .strings(layout.expandedRow)])
        case "History":
            return .objectPaths(player.queue.playedEntries.map { MPRIS.trackPath(forEntry: $0.id) })
        default:
            throw DBusError.unknownProperty(property)
        }
    }
}

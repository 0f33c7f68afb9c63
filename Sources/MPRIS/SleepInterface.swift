import RepriseCore
import SDBus

public enum SleepNames {
    public static let interface = "app.reprise.Sleep1"

    public static let description = DBusInterfaces.appRepriseSleep1
}

/// app.reprise.Sleep1: a sleep timer that fades out and pauses. Its properties are announced when a timer is set,
/// ends or is cancelled, not as it counts down.
final class SleepInterface: ReadOnlyInterface {
    private let player: Player

    init(player: Player) { self.player = player }

    static let propertyNames = SleepNames.description.properties.map(\.name)

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        do throws(PlayerError) {
            switch (call.member, call.arguments.first) {
            case ("Start", .string(let when)?) where call.arguments.count == 1:
                try player.setSleep(try SleepRequest.parse(when))
            case ("Cancel", nil):
                try player.setSleep(.off)
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
        case "Timer": return .string(player.sleepTimer?.kind.rawValue ?? "off")
        case "Remaining": return .int64(player.sleepRemainingMicroseconds ?? -1)
        default: throw DBusError.unknownProperty(property)
        }
    }
}

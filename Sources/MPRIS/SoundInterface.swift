import RepriseCore
import SDBus

public enum SoundNames {
    public static let interface = "app.reprise.Sound1"

    public static let description = DBusInterfaces.appRepriseSound1
}

/// app.reprise.Sound1: how Reprise levels loudness between tracks (ReplayGain), and the gain applied now.
final class SoundInterface: InterfaceImplementation {
    private let player: Player

    init(player: Player) { self.player = player }

    static let propertyNames = SoundNames.description.properties.map(\.name)

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        throw DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member)")
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        let applied = player.announcedTrack?.replayGain
        switch property {
        case "ReplayGain": return .string(player.replayGain.mode.rawValue)
        case "ReplayGainPreamp": return .double(player.replayGain.preampDecibels)
        case "ReplayGainFallback": return .double(player.replayGain.fallbackDecibels)
        case "Crossfade": return .double(player.crossfade.seconds)
        case "AppliedGain": return .double(applied?.decibels ?? 0)
        case "AppliedGainKind": return .string(applied?.kind.rawValue ?? ReplayGainKind.none.rawValue)
        default: throw DBusError.unknownProperty(property)
        }
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        if property == "Crossfade" {
            guard case .double(let seconds) = value else { throw .invalidArgs("Crossfade has the wrong type") }
            do throws(PlayerError) {
                player.setCrossfade(CrossfadeSettings(seconds: try CrossfadeSettings.checked(seconds)))
            } catch {
                throw error.dbusError
            }
            return
        }
        guard ["ReplayGain", "ReplayGainPreamp", "ReplayGainFallback"].contains(property) else {
            if Self.propertyNames.contains(property) {
                throw DBusError.readOnly(property)
            }
            throw DBusError.unknownProperty(property)
        }
        var settings = player.replayGain
        do throws(PlayerError) {
            switch (property, value) {
            case ("ReplayGain", .string(let name)):
                settings.mode = try ReplayGainSettings.mode(named: name)
            case ("ReplayGainPreamp", .double(let decibels)):
                settings.preampDecibels = try ReplayGainSettings.checked(decibels, for: "ReplayGainPreamp")
            case ("ReplayGainFallback", .double(let decibels)):
                settings.fallbackDecibels = try ReplayGainSettings.checked(decibels, for: "ReplayGainFallback")
            default:
                throw .invalidArgument("\(property) has the wrong type")
            }
        } catch {
            throw error.dbusError
        }
        player.setReplayGain(settings)
    }
}

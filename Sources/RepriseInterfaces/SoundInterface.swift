import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Sound1: how Reprise levels loudness between tracks (ReplayGain), and the gain applied now.
final class SoundInterface: Sound1Handler {
    private let player: Player

    init(player: Player) { self.player = player }

    var replayGain: String { player.replayGain.mode.rawValue }
    var replayGainPreamp: Double { player.replayGain.preampDecibels }
    var replayGainFallback: Double { player.replayGain.fallbackDecibels }
    var crossfade: Double { player.crossfade.seconds }
    var appliedGain: Double { player.announcedTrack?.replayGain?.decibels ?? 0 }
    var appliedGainKind: String { (player.announcedTrack?.replayGain?.kind ?? ReplayGainKind.none).rawValue }

    func set(replayGain value: String) throws(DBusError) {
        try change { settings throws(PlayerError) in settings.mode = try ReplayGainSettings.mode(named: value) }
    }

    func set(replayGainPreamp value: Double) throws(DBusError) {
        try change { settings throws(PlayerError) in
            settings.preampDecibels = try ReplayGainSettings.checked(value, for: "ReplayGainPreamp")
        }
    }

    func set(replayGainFallback value: Double) throws(DBusError) {
        try change { settings throws(PlayerError) in
            settings.fallbackDecibels = try ReplayGainSettings.checked(value, for: "ReplayGainFallback")
        }
    }

    func set(crossfade value: Double) throws(DBusError) {
        do throws(PlayerError) {
            player.setCrossfade(CrossfadeSettings(seconds: try CrossfadeSettings.checked(value)))
        } catch {
            throw error.dbusError
        }
    }

    private func change(_ edit: (inout ReplayGainSettings) throws(PlayerError) -> Void) throws(DBusError) {
        var settings = player.replayGain
        do throws(PlayerError) { try edit(&settings) } catch { throw error.dbusError }
        player.setReplayGain(settings)
    }
}

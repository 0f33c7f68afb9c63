import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Sound1: how Reprise levels loudness between tracks (ReplayGain), and the gain applied now.
final class SoundInterface: Sound1Handler {
    private let player: Player

    init(player: Player) { self.player = player }

    var replayGain: String { player.sound.replayGain.mode.rawValue }
    var replayGainPreamp: Double { player.sound.replayGain.preampDecibels }
    var replayGainFallback: Double { player.sound.replayGain.fallbackDecibels }
    var crossfade: Double { player.sound.crossfade.seconds }
    var appliedGain: Double { player.announcedTrack?.replayGain?.decibels ?? 0 }
    var appliedGainMeasured: Bool { player.announcedTrack?.replayGain?.measured ?? false }
    var appliedGainKind: String { (player.announcedTrack?.replayGain?.kind ?? ReplayGainKind.none).rawValue }

    var equalizer: String { player.sound.equalizer.summary }
    var equalizerGains: [Double] { player.sound.equalizer.gains }
    var equalizerPresets: [String] { player.sound.equalizer.presetNames }

    func set(equalizer value: String) throws(DBusError) {
        guard !value.contains("=") else { throw DBusError.invalidArgs("Equalizer takes off, on or a preset's name") }
        do throws(PlayerError) { try player.changeEqualizer([value]) } catch { throw error.dbusError }
    }

    func set(equalizerGains value: [Double]) throws(DBusError) {
        guard value.count == Equalizer.frequencies.count else { throw DBusError.invalidArgs("EqualizerGains takes 10 gains") }
        let words = value.enumerated().map { "\($0.offset + 1)=\($0.element)" }
        do throws(PlayerError) { try player.changeEqualizer(words) } catch { throw error.dbusError }
    }

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
        var settings = player.sound.replayGain
        do throws(PlayerError) { try edit(&settings) } catch { throw error.dbusError }
        player.setReplayGain(settings)
    }
}

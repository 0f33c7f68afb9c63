import RepriseCore

/// What MPD clients see of the player, by subsystem: a change of the player wakes `idle` only for the subsystems
/// whose part differs from what they saw before (MPD wakes `player` for `play`, not `options` and `output` too;
/// `random` wakes `options`, not `playlist`).
struct MPDObservedState: Equatable {
    /// `player`: the state, and the current song while one plays.
    var playback: String
    /// `options`: repeat, random, single, consume, crossfade and ReplayGain.
    var options: [String]
    /// `mixer`: the volume in percent.
    var volume: Int
    /// `output`: the outputs and which is enabled.
    var outputs: [String]

    /// The subsystems whose part differs between `self` and `other`.
    func differences(from other: MPDObservedState) -> MPDIdle {
        var changed: MPDIdle = []
        if playback != other.playback { changed.insert(.player) }
        if options != other.options { changed.insert(.options) }
        if volume != other.volume { changed.insert(.mixer) }
        if outputs != other.outputs { changed.insert(.output) }
        return changed
    }
}

extension MPDCommandContext {
    /// The player as MPD clients see it now.
    var observedState: MPDObservedState {
        let state = player.status == .playing ? "play" : player.status == .paused ? "pause" : "stop"
        return MPDObservedState(
            // While stopped, the current song leaving (a clear) is no change of the player, as in MPD.
            playback: state + " " + (player.status == .stopped ? "" : currentEntry.map { String($0.id) } ?? "-"),
            options: [String(player.modes.repeats), String(player.shuffle), player.single.rawValue, player.modes.consume.rawValue,
                      String(player.sound.crossfade.seconds), player.sound.replayGain.mode.rawValue],
            volume: volumePercent,
            outputs: outputs.all.map { $0.name + ($0.current ? " *" : "") })
    }
}

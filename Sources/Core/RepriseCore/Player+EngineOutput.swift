/// What the engine is told besides loads and transport, as one value: the levelling for the loaded entry, how it
/// gives way to the next one, and the sleep fade's share of the level. The player derives the value it wants at the
/// end of every transaction (``Player/desiredEngineOutput()``) and tells the engine only the parts that differ from
/// what it last applied — one record of what was sent, not a copy per feature.
struct EngineOutput: Equatable {
    /// Nil in what was applied until the engine was first told.
    var replayGain: ReplayGainRequest?
    var crossfadePlan: CrossfadePlan?
    var sleepFade = 1.0
    var equalizer: EqualizerRequest?

    enum Part: CaseIterable { case replayGain, crossfadePlan, sleepFade, equalizer }
}

/// The equalizer as the engine applies it: each band filter's gain (nil: off) and the pre-amplification.
struct EqualizerRequest: Equatable {
    var filterGains: [Double]?
    var preampDecibels: Double
}

extension Player {
    /// The engine output the player's state asks for now.
    func desiredEngineOutput() -> EngineOutput {
        EngineOutput(replayGain: desiredReplayGain(), crossfadePlan: desiredCrossfadePlan(), sleepFade: desiredSleepFade(),
                     equalizer: EqualizerRequest(filterGains: sound.equalizer.filterGains, preampDecibels: sound.equalizer.preampDecibels))
    }

    /// Tells the engine the `parts` of the desired output that differ from what it last applied.
    func applyEngineOutput(_ parts: [EngineOutput.Part] = EngineOutput.Part.allCases) {
        let desired = desiredEngineOutput()
        for part in parts {
            switch part {
            case .replayGain:
                guard let request = desired.replayGain, request != sound.applied.replayGain else { continue }
                sound.applied.replayGain = request
                engine.setReplayGain(request.kind, preampDecibels: request.preampDecibels, fallbackDecibels: request.fallbackDecibels,
                                     fallbackPeak: request.fallbackPeak)
            case .crossfadePlan:
                guard let plan = desired.crossfadePlan, plan != sound.applied.crossfadePlan else { continue }
                sound.applied.crossfadePlan = plan
                engine.setCrossfadePlan(plan)
            case .equalizer:
                guard let request = desired.equalizer, request != sound.applied.equalizer else { continue }
                sound.applied.equalizer = request
                engine.setEqualizer(filterGains: request.filterGains, preampDecibels: request.preampDecibels)
            case .sleepFade:
                guard desired.sleepFade != sound.applied.sleepFade else { continue }
                sound.applied.sleepFade = desired.sleepFade
                engine.setSleepFade(desired.sleepFade)
            }
        }
    }
}

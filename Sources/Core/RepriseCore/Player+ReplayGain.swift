/// What the engine is told about ReplayGain (compared, so it is told only of changes).
struct ReplayGainRequest: Equatable {
    var kind: ReplayGainKind
    var preampDecibels: Double
    var fallbackDecibels: Double
    /// The measured true peak behind a measured fallback (nil: none measured).
    var fallbackPeak: Double?
}

extension Player {
    /// Changes how loudness is levelled; the current track follows at once.
    public func setReplayGain(_ settings: ReplayGainSettings) {
        transaction { sound.replayGain = settings }
    }

    /// The gain the current entry plays at: in `auto`, album gain while it plays in order between tracks of its album.
    public var replayGainKind: ReplayGainKind {
        guard let current = queue.current else { return sound.replayGain.kind(current: nil, previous: nil, next: nil, shuffled: shuffle) }
        var previous: AlbumKey?, next: AlbumKey?
        if sound.replayGain.mode == .auto, !shuffle, let position = queue.position(of: current.id) {
            previous = queue.entry(atPosition: position - 1).flatMap { AlbumKey($0.tags) }
            next = queue.entry(atPosition: position + 1).flatMap { AlbumKey($0.tags) }
        }
        return sound.replayGain.kind(current: AlbumKey(current.tags), previous: previous, next: next, shuffled: shuffle)
    }

    /// The gain the current entry should get (from the mode, the settings, and what is known of the entry and its
    /// neighbours).
    func desiredReplayGain() -> ReplayGainRequest {
        let kind = replayGainKind
        var fallback = sound.replayGain.fallbackDecibels, peak: Double?
        // A file measured by the library (no tags) plays at its measured gain, as a tagged one at its tag's: the
        // engine's levelling takes it as the gain of a file without tags, with its measured peak.
        if let measured = sound.measured, kind != .none {
            let loudness = kind == .album ? measured.album ?? measured.track : measured.track
            fallback = loudness.gainDecibels + sound.replayGain.preampDecibels
            peak = loudness.truePeak
        }
        return ReplayGainRequest(kind: kind, preampDecibels: sound.replayGain.preampDecibels, fallbackDecibels: fallback, fallbackPeak: peak)
    }

    /// The library measured the loudness of `uri` (its tags carry no ReplayGain); kept while it is what is loaded.
    public func didMeasureLoudness(track: MeasuredLoudness, album: MeasuredLoudness?, for uri: String) {
        guard loadedURI == uri else { return }
        if let known = sound.measured, known.track == track, known.album == album { return }
        transaction {
            pending.affectsSavedState = false
            sound.measured = (track, album)
            log.info("loudness measured: \(track.integratedLUFS) LUFS (gain \(track.gainDecibels) dB)")
        }
    }

    /// The gain applied to entry `id` now, when it is what the engine plays and levelling is on.
    func appliedGain(to id: Int) -> AppliedGain? {
        guard id == stream.loadedEntryID, status != .stopped, let kind = sound.applied.replayGain?.kind, kind != .none,
              let decibels = engine.appliedGainDecibels, decibels.isFinite else { return nil }
        return AppliedGain(kind: kind, decibels: decibels, measured: sound.measured != nil)
    }
}

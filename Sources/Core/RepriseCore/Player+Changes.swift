/// What the player publishes into the ``ChangeFeed``: the parts of its state a transaction changed, found by
/// comparing what clients can see before and after it (so no path can change something and forget to say so), and
/// what the engine changed on its own (``notedAspects``: the player cannot compare a value that changed before it
/// was told).
extension Player {
    /// The player's state as clients see it, part by part: each part compared as a whole.
    struct Snapshot: Equatable {
        struct Transport: Equatable {
            var status: PlaybackStatus, canGoNext: Bool, canGoPrevious: Bool, canSeek: Bool, loopRestarts: Int
        }
        struct Current: Equatable {
            let currentID: Int?
            let loadedID: Int?
            let holding: Bool
        }
        struct Options: Equatable { var shuffle: Bool, rate: Double, modes: PlayModes }
        struct Sound: Equatable {
            var replayGain: ReplayGainSettings, crossfade: CrossfadeSettings, equalizer: Equalizer, output: EngineOutput
            var measured: [MeasuredLoudness?]
        }
        struct Interstitials: Equatable {
            let schedule: InterstitialSchedule
            let active: Int?
            let skippable: Bool
        }

        let transport: Transport, current: Current, queueVersion: UInt32, volume: Double, options: Options, sound: Sound
        let chapters: ChapterPlayback, lyricsSerial: Int
        let lyricsLine: Int?
        let sleep: SleepState, interstitials: Interstitials

        /// The parts that differ from `other`.
        func aspects(changedFrom other: Snapshot) -> ChangeAspects {
            var aspects: ChangeAspects = []
            if transport != other.transport { aspects.insert(.transport) }
            if current != other.current { aspects.insert(.current) }
            if queueVersion != other.queueVersion { aspects.insert(.queue) }
            if volume != other.volume { aspects.insert(.volume) }
            if options != other.options { aspects.insert(.options) }
            if sound != other.sound { aspects.insert(.sound) }
            if chapters != other.chapters { aspects.insert(.chapters) }
            if lyricsSerial != other.lyricsSerial { aspects.insert(.lyrics) }
            if lyricsLine != other.lyricsLine { aspects.insert(.lyricsLine) }
            if sleep != other.sleep { aspects.insert(.sleep) }
            if interstitials != other.interstitials { aspects.insert(.interstitials) }
            return aspects
        }
    }

    var snapshot: Snapshot {
        Snapshot(
            transport: .init(status: status, canGoNext: canGoNext, canGoPrevious: canGoPrevious, canSeek: canSeek,
                             loopRestarts: loopRestarts),
            current: .init(currentID: queue.current?.id, loadedID: stream.loadedEntryID, holding: stream.heldTrack != nil),
            queueVersion: queue.version, volume: volume, options: .init(shuffle: shuffle, rate: rate, modes: modes),
            sound: .init(replayGain: sound.replayGain, crossfade: sound.crossfade, equalizer: sound.equalizer, output: sound.applied,
                         measured: [sound.measured?.track, sound.measured?.album ?? nil]),
            chapters: chapterPlayback,
            lyricsSerial: lyricsSerial, lyricsLine: announcedLyricsLine,
            sleep: sleep,
            interstitials: .init(schedule: interstitialPlayback.schedule, active: interstitialPlayback.active, skippable: interstitialPlayback.announcedSkippable))
    }

    /// The change a transaction made, from the state before it and what it noted on the way (edits, a jump).
    func change(since before: Snapshot) -> Change {
        var aspects = snapshot.aspects(changedFrom: before).union(pending.noted)
        pending.noted = []
        let edits = pending.queueEdits
        pending.queueEdits.removeAll()
        if !edits.isEmpty { aspects.insert(.queue) }
        // The current entry's tags (or the whole list) changed: what clients show of the current entry did.
        if let current = queue.current?.id,
           edits.contains(where: { $0 == .replaced || $0 == .metadataChanged(id: current) || $0 == .playedMetadataChanged(id: current) }) { aspects.insert(.current) }
        let seek = pending.seek
        pending.seek = nil
        if seek != nil { aspects.insert(.position) }
        return Change(aspects, queueEdits: edits, seekedToMicroseconds: seek, affectsSavedState: lastChangeAffectsSavedState)
    }
}

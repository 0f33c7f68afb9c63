import RepriseCore

/// `play`, `playid`, `pause`, `stop`, `next`, `previous`, the seeks, `random`, `repeat`, `single`, `consume`, the
/// volume and `crossfade`: each the same request MPRIS makes, told to the audio policy first.
extension MPDCommandContext {
    func playbackCommands() -> [MPDCommand] {
        [
            MPDCommand("play", .control, 0, 1) { [self] call throws(MPDError) in
                try play(call.arguments.first) { position throws(MPDError) in
                    guard let entry = player.queue.entry(atListIndex: position) else { throw .argument("Bad song index") }
                    return entry.id
                }
            },
            MPDCommand("playid", .control, 0, 1) { [self] call throws(MPDError) in
                try play(call.arguments.first) { id throws(MPDError) in
                    guard player.queue.entry(withID: id) != nil else { throw .noExist("No such song") }
                    return id
                }
            },
            MPDCommand("pause", .control, 0, 1) { [self] call throws(MPDError) in
                let pause = try call.arguments.first.map { text throws(MPDError) in try MPDArguments.bool(text) }
                    ?? (player.status == .playing)
                if pause {
                    remote.pause()
                } else if player.status == .paused {
                    remote.play()
                }
                return .done
            },
            simple("stop") { [self] in
                remote.stop()
            },
            MPDCommand("next", .control, 0, 0) { [self] _ throws(MPDError) in
                // Past the last song (repeat off), playback stops and, as MPD's, no song is current any more
                // (`status` names none; `play` starts at the first).
                try changeTrack { [self] in
                    if player.canGoNext { return player.next() }
                    player.stop()
                    shown.playedEntryID = nil
                }
            },
            MPDCommand("previous", .control, 0, 0) { [self] _ throws(MPDError) in
                try changeTrack { player.previous() }
            },
            MPDCommand("seek", .control, 2, 2) { [self] call throws(MPDError) in
                let position = try MPDArguments.unsigned(call[0])
                let seconds = try Self.nonNegativeSeconds(call[1])
                guard let entry = player.queue.entry(atListIndex: position) else { throw .argument("Bad song index") }
                seek(entry: entry.id, to: seconds)
                return .done
            },
            MPDCommand("seekid", .control, 2, 2) { [self] call throws(MPDError) in
                let id = try MPDArguments.unsigned(call[0])
                let seconds = try Self.nonNegativeSeconds(call[1])
                guard player.queue.entry(withID: id) != nil else { throw .noExist("No such song") }
                seek(entry: id, to: seconds)
                return .done
            },
            MPDCommand("seekcur", .control, 1, 1) { [self] call throws(MPDError) in
                guard let current = player.queue.current, player.status != .stopped else { throw MPDError(.playerSync, "Not playing") }
                let text = call[0]
                let value = try MPDArguments.seconds(text)
                if text.hasPrefix("+") || text.hasPrefix("-") {
                    player.seek(by: Int64((value * 1_000_000).rounded()))
                } else {
                    seek(entry: current.id, to: value)
                }
                return .done
            },
            MPDCommand("random", .control, 1, 1) { [self] call throws(MPDError) in
                player.setShuffle(try MPDArguments.bool(call[0]))
                return .done
            },
            MPDCommand("repeat", .control, 1, 1) { [self] call throws(MPDError) in
                player.setRepeat(try MPDArguments.bool(call[0]))
                return .done
            },
            // With repeat the song plays again, without it playback stops after the song; oneshot: for this song.
            MPDCommand("single", .control, 1, 1) { [self] call throws(MPDError) in
                player.setSingle(try Self.mode(call[0], SingleMode.self))
                return .done
            },
            MPDCommand("consume", .control, 1, 1) { [self] call throws(MPDError) in
                player.setConsume(try Self.mode(call[0], PlayModes.Consume.self))
                return .done
            },
            MPDCommand("setvol", .control, 1, 1) { [self] call throws(MPDError) in
                let percent = try MPDArguments.integer(call[0])
                guard (0...100).contains(percent) else { throw .argument("Number too large: \(call[0])") }
                try setVolume(percent)
                return .done
            },
            MPDCommand("volume", .control, 1, 1) { [self] call throws(MPDError) in
                let change = try MPDArguments.integer(call[0])
                guard (-100...100).contains(change) else { throw .argument("Number too large: \(call[0])") }
                try setVolume(min(max(volumePercent + change, 0), 100))
                return .done
            },
            MPDCommand("crossfade", .control, 1, 1) { [self] call throws(MPDError) in
                let seconds = try MPDArguments.unsigned(call[0])
                guard seconds == 0 || CrossfadeSettings.range.contains(Double(seconds)) else {
                    throw .argument("crossfade is 0 (off) or 1 to \(Int(CrossfadeSettings.range.upperBound)) seconds")
                }
                player.setCrossfade(CrossfadeSettings(seconds: Double(seconds)))
                return .done
            },
            MPDCommand("replay_gain_mode", .control, 1, 1) { [self] call throws(MPDError) in
                guard let mode = ReplayGainMode(rawValue: call[0]) else { throw .argument("Unrecognized replay gain mode") }
                var settings = player.sound.replayGain
                settings.mode = mode
                player.setReplayGain(settings)
                return .done
            },
        ]
    }

    /// `play`/`playid`: without an argument (or -1) plays or resumes; with one, plays the entry `entry` names.
    private func play(_ argument: String?, entry: (Int) throws(MPDError) -> Int) throws(MPDError) -> MPDOutcome {
        let number = try argument.map { text throws(MPDError) in try MPDArguments.integer(text) } ?? -1
        if number >= 0 {
            let id = try entry(number)
            remote.goTo(id: id)
        } else if currentEntry == nil, player.status == .stopped, let first = player.queue.entry(atPosition: 0) {
            // No song played yet (MPD has no current one): the first in the order of play, not the one Reprise
            // holds as current since the queue was filled.
            remote.request(.userPlayed) { player.goTo(id: first.id) }
        } else {
            remote.play()
        }
        return .done
    }

    /// `single`'s or `consume`'s argument: 0, 1 or oneshot.
    private static func mode<Mode: RawRepresentable<String>>(_ text: String, _: Mode.Type) throws(MPDError) -> Mode {
        guard let mode = Mode(rawValue: text == "0" ? "off" : text == "1" ? "on" : text == "oneshot" ? text : "") else {
            throw .argument("Boolean (0/1) expected: \(text)")
        }
        return mode
    }

    /// What `status` says of a mode: 0, 1 or oneshot.
    static func mpdValue<Mode: RawRepresentable<String>>(_ mode: Mode) -> String {
        mode.rawValue == "off" ? "0" : mode.rawValue == "on" ? "1" : mode.rawValue
    }

    /// A command without arguments that always succeeds.
    private func simple(_ name: String, _ body: @escaping () -> Void) -> MPDCommand {
        MPDCommand(name, .control, 0, 0) { _ throws(MPDError) in
            body()
            return .done
        }
    }

    /// `next`/`previous`, as MPD: refused while stopped ("Not playing"); from pause, the new entry plays.
    private func changeTrack(_ move: () -> Void) throws(MPDError) -> MPDOutcome {
        guard player.status != .stopped else { throw MPDError(.playerSync, "Not playing") }
        let wasPaused = player.status == .paused
        remote.request(.userChangedTrack) {
            player.together {
                move()
                if wasPaused, player.status == .paused { player.play() }
            }
        }
        return .done
    }

    /// Seeks entry `id` to `seconds`: the current entry seeks, another starts there — paused when playback was
    /// paused, as MPD's.
    private func seek(entry id: Int, to seconds: Double) {
        let microseconds = Int64((seconds * 1_000_000).rounded())
        if player.queue.current?.id != id || player.status == .stopped {
            remote.goTo(id: id, playing: player.status != .paused)
        }
        player.setPosition(entryID: id, microseconds: microseconds)
    }

    /// A position to seek to, as MPD reads one: a number ("Float expected"), not negative.
    private static func nonNegativeSeconds(_ text: String) throws(MPDError) -> Double {
        let seconds = try MPDArguments.seconds(text)
        guard seconds >= 0 else { throw .argument("Negative value not allowed: \(text)") }
        return seconds
    }

    private func setVolume(_ percent: Int) throws(MPDError) {
        do throws(PlayerError) {
            try player.setVolume(Double(percent) / 100)
        } catch {
            throw MPDError(error)
        }
    }
}

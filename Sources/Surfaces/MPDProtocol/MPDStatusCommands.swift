import RepriseCore

/// `status`, `currentsong`, `stats`, `idle`, `getvol`, `replay_gain_status`.
extension MPDCommandContext {
    func statusCommands() -> [MPDCommand] {
        [
            MPDCommand("status", .read, 0, 0) { [self] call throws(MPDError) in
                writeStatus(to: call)
                return .done
            },
            MPDCommand("currentsong", .read, 0, 0) { [self] call throws(MPDError) in
                if let entry = currentEntry, let position = player.queue.listIndex(of: entry.id) {
                    songs.write(player.announcedEntry(entry), position: position, to: call)
                }
                return .done
            },
            MPDCommand("stats", .read, 0, 0) { [self] call throws(MPDError) in
                guard let library else {
                    call.add("uptime", shown.playTime.uptimeSeconds)
                    call.add("playtime", shown.playTime.playtimeSeconds)
                    return .done
                }
                return try overLibrary({ snapshot in
                    (snapshot.artistCount, snapshot.albumCount, snapshot.songs.count, snapshot.totalSeconds)
                }, write: { [self] counts, finish in
                    call.add("uptime", shown.playTime.uptimeSeconds)
                    call.add("playtime", shown.playTime.playtimeSeconds)
                    call.add("artists", counts.0)
                    call.add("albums", counts.1)
                    call.add("songs", counts.2)
                    call.add("db_playtime", counts.3)
                    // When what the library holds last changed: Cantata loads the library when this grows.
                    if let changed = library.status.contentChanged { call.add("db_update", changed) }
                    finish(nil)
                })
            },
            MPDCommand("idle", .read, 0, nil) { call throws(MPDError) in
                var wanted: MPDIdle = []
                for name in call.arguments {
                    guard let subsystem = MPDIdle(name: name) else { throw .argument("Unrecognized idle event: \(name)") }
                    wanted.insert(subsystem)
                }
                return .idle(wanted.isEmpty ? .every : wanted)
            },
            MPDCommand("getvol", .read, 0, 0) { [self] call throws(MPDError) in
                call.add("volume", volumePercent)
                return .done
            },
            MPDCommand("replay_gain_status", .read, 0, 0) { [self] call throws(MPDError) in
                call.add("replay_gain_mode", player.sound.replayGain.mode.rawValue)
                return .done
            },
        ]
    }

    /// The volume in percent: Reprise's linear 0…1 volume times 100, rounded.
    var volumePercent: Int { Int((min(max(player.volume, 0), 1) * 100).rounded()) }

    private func writeStatus(to call: MPDCall) {
        let queue = player.queue
        call.add("volume", volumePercent)
        call.add("repeat", player.modes.repeats ? 1 : 0)
        call.add("random", player.shuffle ? 1 : 0)
        call.add("single", Self.mpdValue(player.single))
        call.add("consume", Self.mpdValue(player.modes.consume))
        call.add("partition", "default")
        call.add("playlist", versions.version)
        call.add("playlistlength", queue.count)
        call.add("mixrampdb", "0")
        call.add("state", player.status == .playing ? "play" : player.status == .paused ? "pause" : "stop")
        let crossfade = player.sound.crossfade.seconds
        if crossfade > 0 { call.add("xfade", Int64(crossfade.rounded())) }
        let current = currentEntry
        if let current, let position = queue.listIndex(of: current.id) {
            call.add("song", position)
            call.add("songid", current.id)
        }
        if player.status != .stopped {
            let elapsed = Double(player.positionMicroseconds) / 1_000_000
            let length = current?.lengthMicroseconds.map { Double($0) / 1_000_000 }
            call.add("time", "\(Int64(elapsed.rounded())):\(Int64((length ?? 0).rounded()))")
            call.add("elapsed", seconds: elapsed)
            call.add("bitrate", 0)
            if let length { call.add("duration", seconds: length) }
            // What the decoder gives, as MPD's: the song's format.
            if let format = current?.fileFacts?.encoding.flatMap(MPDSongWriter.format(of:)) { call.add("audio", format) }
        }
        // The next song, by MPD's rule: under single with repeat (and no consume) the current one again.
        let modes = player.modes
        let next = modes.single != .off && modes.repeats && modes.consume == .off ? current
            : current == nil ? nil : queue.nextPosition(wrap: modes.repeats).flatMap(queue.entry(atPosition:))
        if let next, let position = queue.listIndex(of: next.id) {
            call.add("nextsong", position)
            call.add("nextsongid", next.id)
        }
        // MPD's own place for an output that failed.
        if let problem = outputs.port?.outputProblem, !problem.isEmpty {
            if problem != clearedError { call.add("error", problem) }
        } else {
            clearedError = nil // it went: the next one is shown
        }
    }
}

extension MPDCommandContext {
    /// The entry MPD clients see as current: the player's, once playback has run on it. MPD has none until a song is
    /// played (a queue just filled has none, so `insert` goes to the front) and keeps it after `stop`.
    var currentEntry: QueueEntry? {
        guard let current = player.queue.current, player.status != .stopped || current.id == shown.playedEntryID else { return nil }
        return current
    }
}

extension Player {
    /// `entry` as clients see it: the current entry with the stream's tags (a radio's title) once its own stream is
    /// loaded — never the tags of the track held on screen while it prerolls (a reply never mixes two entries).
    func announcedEntry(_ entry: QueueEntry) -> QueueEntry {
        // Only a track held while the entry's stream prerolls differs from the entry itself.
        guard let track = trackHeldWhilePrerolling, track.entryID == entry.id, entry.id == queue.current?.id else { return entry }
        var shown = entry
        shown.tags = track.tags
        // A track held while the entry's stream prerolls is shown with its own length, as MPRIS shows it.
        if let length = track.lengthMicroseconds, length != shown.lengthMicroseconds {
            shown.range = nil
            shown.mediumLengthMicroseconds = length
        }
        return shown
    }
}

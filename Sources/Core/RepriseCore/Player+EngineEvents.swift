/// What the playback engine reports to ``Player``: preroll, tags, length, the end, the gapless switch, failures.
extension Player {
    // MARK: Engine events

    /// The loaded stream is ready: its length (when known) and whether it can seek.
    public func engineDidPreroll(lengthMicroseconds: Int64?, seekable: Bool) {
        transaction {
            guard let id = stream.loadedEntryID, !stream.prerolled else { return }
            stream.prerolled = true
            stream.seekBeforePreroll = nil
            stream.seekable = seekable
            stream.consecutiveFailures = 0
            if let length = lengthMicroseconds { queue.update(id: id) { $0.mediumLengthMicroseconds = length } }
            pending.queueEdits.append(.playedMetadataChanged(id: id))
            stream.heldTrack = nil
            requests.pendingOpens.removeValue(forKey: id)?(nil)
            requests.interruptions.removeValue(forKey: id)
            log.debug("prerolled entry \(id), length \(lengthMicroseconds.map(String.init) ?? "unknown") us")
        }
    }

    /// The gain the engine applies changed (see ``PlaybackEngine/appliedGainDecibels``): clients see it.
    public func engineAppliedGainDidChange() {
        transaction {
            pending.affectsSavedState = false
            pending.noted.insert(.sound)
        }
    }

    public func engineDidReadTags(_ tags: TrackTags) {
        transaction {
            guard let id = stream.loadedEntryID, let entry = queue.entry(withID: id) else { return }
            var update = tags.sanitized { [log] cut in log.info("tags of \(entry.uri): \(cut)") }
            if !LiveStream.isLive(uri: entry.uri, lengthMicroseconds: entry.lengthMicroseconds) {
                // A file's ORGANIZATION and LOCATION are a label and a place, not a station.
                update.station = nil
                update.stationURL = nil
            }
            let merged = entry.tags.merged(with: update)
            guard merged != entry.tags else { return }
            queue.update(id: id) { $0.tags = merged }
            if stream.prerolled { pending.queueEdits.append(.playedMetadataChanged(id: id)) }
        }
    }

    /// A live stream's title update (one text, often "Artist - Title"): title and artists are replaced together.
    public func engineDidReadStreamTitle(_ text: String) {
        transaction {
            guard let id = stream.loadedEntryID, let entry = queue.entry(withID: id),
                  let clean = TrackTags(title: text).sanitized().title else { return }
            let merged = LiveStream.merge(streamTitle: clean, into: entry.tags)
            guard merged != entry.tags else { return }
            queue.update(id: id) { $0.tags = merged }
            if stream.prerolled { pending.queueEdits.append(.playedMetadataChanged(id: id)) }
        }
    }

    public func engineLengthDidChange(microseconds: Int64) {
        transaction {
            guard let id = stream.loadedEntryID, microseconds > 0, queue.entry(withID: id)?.mediumLengthMicroseconds != microseconds else { return }
            queue.update(id: id) { $0.mediumLengthMicroseconds = microseconds }
            if stream.prerolled { pending.queueEdits.append(.playedMetadataChanged(id: id)) }
        }
    }

    /// The loaded stream played to its end.
    public func engineDidReachEnd() {
        transaction {
            guard let id = stream.loadedEntryID else { return }
            // Finished: nothing to resume (the position at the end is forgotten again when it is unloaded).
            if id != requests.pushedEntryID, let entry = queue.entry(withID: id) { resumePositions.forget(entry.uri) }
            if sleepTimer?.kind == .endOfTrack { return sleepAtEndOfTrack() }
            let atEnd = modes.atEnd
            modes.entryEnded()
            if atEnd == .playAgain {
                stream.loopRestarts += 1
                jump(to: 0)
            } else if atEnd == .stop {
                log.info("single: stopped after the song")
                unload()
            } else if id == requests.pushedEntryID {
                // A control point's URI ends as on a UPnP renderer: stopped, and the queue is the user's again.
                guestEnded(id)
            } else if let position = queue.nextPosition(wrap: modes.repeats) {
                go(to: position)
            } else {
                log.info("end of queue")
                unload()
            }
        }
    }

    /// The stream handed over with ``PlaybackEngine/prepareNext(_:)`` started: the gapless boundary.
    /// playbin takes the next URI well before the end (for a short file, at once), so the queue or the loop
    /// status may have changed since: when another entry should follow now, that one is loaded instead.
    public func engineDidStartNextStream(uri: String, seekable: Bool) {
        transaction {
            guard let current = queue.current, stream.loadedEntryID == current.id else { return }
            stream.preparedEntryID = nil
            let next = entryFollowing(current)
            modes.entryEnded()
            guard let following = next, let position = queue.position(of: following.id) else {
                log.info("gapless: \(uri) was handed over but the queue ends here now")
                unload()
                return
            }
            // Same entry again (LoopStatus Track): the metadata does not change, so clients learn of the restart here.
            defer { if following.id == current.id { pending.seek = 0 } }
            if following.id == current.id { stream.loopRestarts += 1 }
            guard following.uri == uri else {
                log.info("gapless: \(uri) was handed over but \(following.uri) follows now; loading it")
                queue.move(to: position)
                startLoading(playing: status == .playing, holding: announcedTrack)
                return
            }
            log.info("gapless: continuing with \(following.uri)")
            resumePositions.forget(current.uri)
            queue.move(to: position)
            stream.loadedEntryID = following.id
            if following.id != current.id {
                forgetChapters()
                forgetLyrics()
                sound.measured = nil
            }
            loadSidecar(of: following.id)
            stream.prerolled = true
            stream.seekBeforePreroll = nil
            stream.seekable = seekable
            stream.heldTrack = nil
            stream.consecutiveFailures = 0
            if following.id != current.id { resumeWhereLeft(following) }
        }
    }

    /// The stream handed over for gapless playback cannot be played: skip it as if it had been loaded.
    /// A loaded stream that never prerolled failed itself: playbin reads a tiny file whole at once and asks for the
    /// next one before finding it cannot play it, so the failure is the loaded entry's (and an open of it is answered).
    public func engineDidFailNextStream(_ message: String) {
        transaction {
            guard stream.prerolled else {
                stream.preparedEntryID = nil
                return streamFailed(message)
            }
            if let id = stream.preparedEntryID, let position = queue.position(of: id) {
                queue.move(to: position)
                stream.loadedEntryID = id
            }
            stream.preparedEntryID = nil
            streamFailed(message)
        }
    }

    /// The sound output failed (the sound server went away): nothing is wrong with the media, so the entry
    /// stays current, paused where it was; Play loads it again there.
    public func engineOutputDidFail(_ message: String) {
        transaction {
            guard stream.loadedEntryID != nil, status != .stopped else { return }
            let position = positionMicroseconds
            log.warning("the sound output failed (\(message)); paused at \(position / 1_000_000) s")
            unload()
            status = .paused
            stream.positionBeforeOutputFailure = position
        }
    }

    /// The loaded stream cannot be played (missing, not media, corrupt, or the output failed).
    public func engineDidFail(_ message: String) {
        transaction { streamFailed(message) }
    }
}

extension Player {
    /// The sleep timer under way (see ``setSleep(_:)``).
    public var sleepTimer: SleepTimer? {
        get { sleep.timer }
        set { sleep.timer = newValue }
    }

    /// Starts a sleep timer (replacing any), or cancels it with `.off`. At its end the sound has faded out over
    /// ``SleepTimer/fadeMicroseconds`` and the player pauses, its position kept.
    public func setSleep(_ request: SleepRequest) throws(PlayerError) {
        try transaction { () throws(PlayerError) in
            let kind: SleepTimer.Kind, left: Int64
            switch request {
            case .off:
                if sleepTimer != nil { log.info("sleep timer cancelled") }
                sleepTimer = nil
                return
            case .after(let microseconds):
                (kind, left) = (.duration, microseconds)
            case .endOfTrack:
                guard let toEnd = timeToEndOfTrack else {
                    throw .invalidArgument("nothing with an end is playing (a live stream has none)")
                }
                (kind, left) = (.endOfTrack, toEnd)
            case .endOfChapter:
                guard let toEnd = timeToEndOfChapter else { throw .invalidArgument("what plays has no chapters") }
                (kind, left) = (.endOfChapter, toEnd)
            }
            sleep.start(kind, left: left, chapterEnd: kind == .endOfChapter ? currentChapterEnd : nil)
            log.info("sleep timer: \(kind.rawValue), \(left / 1_000_000) s of listening to go")
        }
    }

    /// Listening time until the sleep timer ends (at the current rate), or nil when none is set.
    public var sleepRemainingMicroseconds: Int64? {
        guard let timer = sleepTimer else { return nil }
        switch timer.kind {
        case .duration: return max(0, timer.durationLeft)
        case .endOfTrack: return max(0, timeToEndOfTrack ?? 0)
        case .endOfChapter:
            // Another track loaded and its chapters not known yet: until its end, at most.
            guard let end = timer.chapterEnd else { return max(0, timeToEndOfTrack ?? 0) }
            return max(0, Int64(Double(end - positionMicroseconds) / max(rate, 0.01)))
        }
    }

    /// Advances the timer by `elapsedMicroseconds` of wall time (counted only while playing), fades, and pauses at
    /// its end. The service calls it a few times a second while a timer is set.
    public func sleepTimerTick(elapsedMicroseconds: Int64) {
        guard var timer = sleepTimer else { return }
        transaction {
            if timer.kind == .duration, status == .playing {
                timer.durationLeft -= max(0, elapsedMicroseconds)
                sleepTimer = timer
            }
            guard timer.kind == .duration || timer.chapterEnd != nil, let left = sleepRemainingMicroseconds, left <= 0 else { return }
            if timer.kind == .endOfChapter, let end = timer.chapterEnd { jump(to: end) }
            fallAsleep()
            pause()
        }
    }

    /// The timer has ended: the sound stays faded out until playback is asked for again.
    private func fallAsleep() {
        log.info("sleep timer ended: pausing")
        sleep.fallAsleep()
    }

    /// The track the timer waited for has ended: what follows is loaded, paused at its start.
    func sleepAtEndOfTrack() {
        fallAsleep()
        let before = announcedTrack
        let following: Int? = switch modes.atEnd {
        case .playAgain: queue.currentPosition
        case .stop: nil
        case .next: queue.nextPosition(wrap: modes.repeats)
        }
        modes.entryEnded()
        guard let position = following else {
            log.info("end of queue")
            return unload()
        }
        queue.move(to: position, remember: true)
        startLoading(playing: false, holding: before)
    }

    /// The sleep fade's share of the level now (a timer that ended holds it at 0 until playback is asked for again).
    func desiredSleepFade() -> Double {
        sleep.fade(left: sleepRemainingMicroseconds, playing: status == .playing)
    }

    /// A seek to `position`: an end-of-chapter timer follows the chapter it lands in.
    func sleepTimerFollowSeek(to position: Int64) {
        guard sleepTimer?.kind == .endOfChapter, let id = stream.loadedEntryID, chapters.index(at: position) != nil else { return }
        sleepTimer?.chapterEnd = chapterPlayback.end(at: position, lengthMicroseconds: queue.entry(withID: id)?.lengthMicroseconds)
    }

    /// Real time to the end of the loaded track, when it has a length.
    var timeToEndOfTrack: Int64? {
        guard status != .stopped, stream.prerolled, let id = stream.loadedEntryID,
              let length = queue.entry(withID: id)?.lengthMicroseconds, length > 0 else { return nil }
        return Int64(Double(length - positionMicroseconds) / max(rate, 0.01))
    }

    /// Real time to the end of the current chapter, when the track has chapters.
    var timeToEndOfChapter: Int64? {
        guard let end = currentChapterEnd else { return nil }
        return Int64(Double(end - positionMicroseconds) / max(rate, 0.01))
    }
}

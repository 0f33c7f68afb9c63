/// The player state machine: queue, status, loop/shuffle, rate, volume, and the MPRIS rules for each request.
/// Owned by the event loop; every method runs on its thread. Each request or event publishes one ``Change`` into its
/// ``ChangeFeed``.
public final class Player {
    public internal(set) var queue = PlayQueue()
    public internal(set) var status: PlaybackStatus = .stopped
    /// Repeat, single and consume (``PlayModes``); ``loopStatus`` is MPRIS's view of them.
    public internal(set) var modes = PlayModes()
    public internal(set) var rate = 1.0
    public internal(set) var volume = 1.0
    /// Where each long file was left, to resume there.
    public internal(set) var resumePositions = ResumePositions()
    /// Where each transaction's change goes (see ``Player/Snapshot``).
    public let feed: ChangeFeed

    let engine: PlaybackEngine
    let log: Log
    let fileSystem: FileSystem
    /// Resolves client URIs (reads playlists, checks entries); the service's works on a worker thread.
    let resolver: MediaResolving
    /// Requests under way: waiting for the resolver, opened URIs waiting for their stream.
    var requests = RequestState()
    /// The stream the engine has loaded and what is known of it.
    var stream = LoadedStream()
    /// The transaction under way (see ``transaction(_:)``).
    var pending = TransactionState()
    /// Entries whose tags are still to be read.
    var descriptions = DescriptionBacklog()
    /// The interstitials of the loaded entry, the one playing, whether it can be skipped.
    public internal(set) var interstitialPlayback = InterstitialPlayback()
    /// Levelling, crossfade, the equalizer, measured loudness and what the engine was told of them.
    public internal(set) var sound = SoundShaping()
    /// The chapters of the loaded entry, the one playing and chapter skip (see ``didFindChapters(_:for:)``).
    public internal(set) var chapterPlayback = ChapterPlayback()
    /// The lyrics of the loaded entry and the line sung now.
    public internal(set) var lyricsTiming = LyricsTiming()
    /// The sleep timer under way (see ``setSleep(_:)``).
    public internal(set) var sleep = SleepState()

    /// - Parameter resolver: resolves client URIs (nil: at once, on the caller's thread).
    public init(engine: PlaybackEngine, log: Log, fileSystem: FileSystem, feed: ChangeFeed = ChangeFeed(),
                resolver: MediaResolving? = nil) {
        self.engine = engine
        self.feed = feed
        self.log = log
        self.fileSystem = fileSystem
        self.resolver = resolver ?? ImmediateResolver(fileSystem: fileSystem)
    }

    // MARK: What clients see

    public var shuffle: Bool { queue.isShuffled }
    public var loopStatus: LoopStatus { modes.loopStatus }
    /// The output delay Position takes off (``SoundShaping/outputDelayMicroseconds``).
    public var outputDelayMicroseconds: Int64 { sound.outputDelayMicroseconds }
    /// What a UPnP control point may push (see ``open(_:pushedByRenderer:completion:)``).
    public var rendererPushRules: RendererPushRules {
        get { requests.pushRules }
        set { requests.pushRules = newValue }
    }
    public var rateRange: ClosedRange<Double> { engine.rateRange }
    public var canPlay: Bool { !queue.isEmpty }
    public var canPause: Bool { queue.current != nil }
    /// The URI of the entry loaded in the engine (nil: none).
    public var loadedURI: String? { loadedEntry?.uri }
    /// The entry loaded in the engine (nil: none).
    public var loadedEntry: QueueEntry? { stream.loadedEntryID.flatMap { queue.entry(withID: $0) } }

    /// Whether what plays is heard now: playing, and the loaded stream ready (not loading, not stopped).
    public var isSounding: Bool { status == .playing && stream.loadedEntryID != nil && stream.prerolled }

    public var canSeek: Bool { status != .stopped && stream.loadedEntryID != nil && stream.prerolled && stream.seekable }
    public var canGoNext: Bool { chapterSkipNextStart != nil || queue.nextPosition(wrap: modes.repeats) != nil }
    /// Under shuffle, Previous goes back to what actually played; in list order, to the entry before.
    public var canGoPrevious: Bool {
        if chapterSkipPreviousStart != nil { return true }
        if shuffle && queue.lastPlayedPosition != nil { return true }
        return queue.previousPosition(wrap: modes.repeats) != nil
    }

    /// The current track as clients should see it now (nil: no current track).
    public var announcedTrack: TrackInfo? {
        if let held = stream.heldTrack { return held }
        guard var track = queue.current.map(TrackInfo.init) else { return nil }
        if let index = interstitialPlayback.active { track.activeInterstitial = interstitialPlayback.schedule.interstitials[index].title ?? "" }
        track.replayGain = appliedGain(to: track.entryID)
        if track.entryID == stream.loadedEntryID, let title = chapterPlayback.title { track.chapter = title }
        if track.entryID == stream.loadedEntryID { track.lyricsText = lyrics?.plainText }
        return track
    }

    /// What clients keep seeing while a new stream prerolls (``announcedTrack`` then), nil when nothing is held.
    public var trackHeldWhilePrerolling: TrackInfo? { stream.heldTrack ?? nil }

    /// Position in the current track; 0 when stopped, never beyond the track's length.
    public var positionMicroseconds: Int64 {
        if stream.loadedEntryID == nil, status == .paused, let saved = stream.positionBeforeOutputFailure { return saved }
        guard status != .stopped, stream.loadedEntryID != nil else { return 0 }
        guard stream.prerolled else { return stream.seekBeforePreroll ?? 0 }
        var position = max(0, (engine.positionMicroseconds ?? 0) - loadedRangeStart - outputDelayMicroseconds)
        if let length = queue.current?.lengthMicroseconds { position = min(position, length) }
        return position
    }

    // MARK: Requests

    /// Appends `uris`. Each range in `directoryGroups` (indices into `uris`) came from one directory and is
    /// sorted by album, disc and track once its tags have been read.
    public func enqueue(_ uris: [String], directoryGroups: [Range<Int>] = []) {
        transaction {
            var start = 0
            for range in directoryGroups.sorted(by: { $0.lowerBound < $1.lowerBound })
            where range.lowerBound >= start && range.upperBound <= uris.count {
                appendEntries(uris[start..<range.lowerBound], group: nil)
                appendEntries(uris[range], group: range.count > 1 ? descriptions.makeGroup(count: range.count) : nil)
                start = range.upperBound
            }
            appendEntries(uris[start...], group: nil)
            pending.queueEdits.append(.replaced)
        }
    }

    /// Replaces the whole queue with `uris` (a playlist activated, say) and plays the first, keeping the shuffle setting.
    public func replaceQueue(with uris: [String]) {
        transaction {
            let before = announcedTrack
            let shuffled = shuffle
            unload()
            queue.removeAll()
            descriptions.reset()
            appendEntries(uris[...], group: nil)
            shuffleQueue(shuffled)
            pending.queueEdits.append(.replaced)
            startLoading(playing: true, holding: before)
        }
    }

    /// Refuses, with a clear error, what would take the queue past its limits (``PlayQueue/maximumCount`` entries,
    /// ``PlayQueue/maximumURIBytes`` of URIs).
    func checkRoom(for uris: [String], replacing: Bool) throws(PlayerError) {
        let fits = replacing ? PlayQueue().room(for: uris) : queue.room(for: uris)
        guard fits < uris.count else { return }
        throw .invalidArgument("the queue holds at most \(PlayQueue.maximumCount) entries (\(PlayQueue.maximumURIBytes >> 20) MiB "
            + "of URIs); \(replacing ? 0 : queue.count) queued, \(uris.count) more do not fit")
    }

    /// Empties the queue and stops.
    public func clear() {
        transaction {
            unload()
            queue.removeAll()
            descriptions.reset()
            pending.queueEdits.append(.replaced)
        }
    }

    /// Appends what fits (the command line, a restored state); the rest is logged.
    func appendEntries(_ uris: ArraySlice<String>, group: Int?) {
        guard !uris.isEmpty else { return }
        let fits = queue.room(for: uris)
        if fits < uris.count {
            log.warning("the queue is full (at most \(PlayQueue.maximumCount) entries): \(uris.count - fits) left out")
        }
        guard fits > 0 else { return }
        descriptions.add(queue.append(Array(uris.prefix(fits)), group: group))
    }

    public func play() {
        guard queue.current != nil, status != .playing else { return }
        guard status == .paused, stream.loadedEntryID != nil else {
            transaction {
                let resumeAt = stream.positionBeforeOutputFailure
                startLoading(playing: true, holding: announcedTrack)
                if let resumeAt, resumeAt > 0 { jump(to: resumeAt) }
            }
            return
        }
        // The pipeline first (the engine only hands the change to the pipeline's thread): it uncorks the stream
        // while the loop announces the new status, instead of after everything the announcement runs.
        let resumed = engine.resume()
        transaction { status = .playing }
        if !resumed { transaction { streamFailed("the audio output refused to resume") } }
    }

    public func pause() {
        guard status == .playing else { return }
        // As in play(): the stream is corked on the pipeline's thread while the loop announces.
        let paused = engine.pause()
        transaction { status = .paused }
        if !paused { transaction { streamFailed("the audio output refused to pause") } }
    }

    public func playPause() {
        if status == .playing { pause() } else { play() }
    }

    public func stop() {
        transaction {
            guard status != .stopped else { return }
            unload()
        }
    }

    public func next() {
        transaction {
            guard !interstitialPlayback.schedule.forbidsLeaving(at: positionMicroseconds) else {
                log.info("next refused: \(interstitialPlayback.active.map(interstitialPlayback.schedule.name) ?? "an interstitial") cannot be skipped yet")
                return
            }
            if let start = chapterSkipNextStart, (try? seekToChapterStart(start)) != nil { return }
            guard let position = queue.nextPosition(wrap: modes.repeats) else { return }
            go(to: position)
        }
    }

    public func previous() {
        transaction {
            if let start = chapterSkipPreviousStart, (try? seekToChapterStart(start)) != nil { return }
            let before = announcedTrack
            if shuffle, queue.moveBackInHistory() {
                if status != .stopped { startLoading(playing: status == .playing, holding: before) }
                return
            }
            guard let position = queue.previousPosition(wrap: modes.repeats) else { return }
            go(to: position, remember: false)
        }
    }

    /// Moves the position by `offset`; below 0 goes to 0, past the end acts like ``next()``.
    public func seek(by offset: Int64) {
        transaction {
            guard canSeek else { return }
            let (sum, overflow) = positionMicroseconds.addingReportingOverflow(offset)
            let target = overflow ? (offset > 0 ? Int64.max : 0) : max(0, sum)
            if let length = queue.current?.lengthMicroseconds, target > length {
                guard let position = queue.nextPosition(wrap: modes.repeats) else { return }
                guard !interstitialPlayback.schedule.forbidsLeaving(at: positionMicroseconds) else {
                    log.info("seek refused: an interstitial is playing")
                    return
                }
                go(to: position)
                return
            }
            seekRespectingInterstitials(to: target)
        }
    }

    /// Sets the position in the entry `entryID`; ignored for a stale id or a position outside [0, length]. While the
    /// entry's stream is still loading, the seek is made once it is ready (a client's seek right after a track change
    /// is not lost).
    public func setPosition(entryID: Int?, microseconds: Int64) {
        transaction {
            guard let current = queue.current, entryID == current.id, microseconds >= 0 else { return }
            if let length = current.lengthMicroseconds, microseconds > length { return }
            let loading = status != .stopped && stream.loadedEntryID == current.id && !stream.prerolled
            guard canSeek || loading else { return }
            seekRespectingInterstitials(to: microseconds)
        }
    }

    /// 0 pauses; a rate outside ``rateRange`` is refused and not applied.
    public func setRate(_ newRate: Double) throws(PlayerError) {
        guard newRate.isFinite else { throw .invalidArgument("Rate must be a finite number") }
        if newRate == 0 {
            pause()
            return
        }
        guard engine.rateRange.contains(newRate) else {
            throw .invalidArgument("Rate \(newRate) is outside [\(engine.rateRange.lowerBound), \(engine.rateRange.upperBound)]")
        }
        transaction {
            guard newRate != rate else { return }
            rate = newRate
            engine.setRate(newRate)
        }
    }

    /// Negative values set 0; values above 1 (full volume) set 1.
    public func setVolume(_ newVolume: Double) throws(PlayerError) {
        guard !newVolume.isNaN else { throw .invalidArgument("Volume must be a number") }
        let clamped = min(max(newVolume, 0), 1)
        transaction {
            guard clamped != volume else { return }
            volume = clamped
            engine.setVolume(clamped)
        }
    }

    public func setLoopStatus(_ newStatus: LoopStatus) {
        transaction { modes.setLoopStatus(newStatus) }
    }

    public func setShuffle(_ on: Bool) {
        transaction {
            shuffleQueue(on)
            if on { playByPriority() }
        }
    }

    /// The queue, current entry, position and settings, for saving.
    public var savedState: SavedState {
        var state = SavedState()
        state.uris = queue.uris
        state.ranges = queue.ranges
        state.priorities = queue.priorities
        state.modes = modes
        state.currentIndex = queue.current.flatMap { queue.listIndex(of: $0.id) }
        state.positionMicroseconds = positionMicroseconds
        state.shuffle = shuffle
        state.volume = volume
        state.rate = rate
        if let current = queue.current, current.isDescribed || current.hasSavedDescription {
            state.currentTags = current.tags
            state.currentLengthMicroseconds = current.mediumLengthMicroseconds
        }
        var resume = resumePositions
        if let current = queue.current, current.range == nil, stream.loadedEntryID == current.id, stream.prerolled {
            resume.record(uri: current.uri, position: positionMicroseconds, length: current.lengthMicroseconds)
        }
        state.resumePositions = resume.marks
        return withoutGuest(state)
    }

    /// Takes the remembered positions of long files from a saved state (when starting with other media).
    public func restoreResumePositions(_ marks: [ResumePositions.Mark]) {
        resumePositions = ResumePositions(marks: marks)
    }

    /// Replaces everything with `state` and loads the current entry paused at its saved position.
    public func restore(_ state: SavedState) {
        transaction {
            unload()
            queue.removeAll()
            descriptions.reset()
            appendEntries(state.uris[...], group: nil)
            for (index, range) in state.ranges {
                if let id = queue.entry(atListIndex: index)?.id { queue.update(id: id) { $0.range = range } }
            }
            for (index, priority) in state.priorities {
                if let id = queue.entry(atListIndex: index)?.id { queue.update(id: id) { $0.priority = priority } }
            }
            pending.queueEdits.append(.replaced)
            if let index = state.currentIndex, let id = queue.entry(atListIndex: index)?.id,
               let position = queue.position(of: id) {
                queue.move(to: position, remember: false)
                // What was known of it, until the file is read again: the first answers carry its tags.
                if state.currentTags != nil || state.currentLengthMicroseconds != nil {
                    queue.update(id: id) { entry in
                        if let tags = state.currentTags { entry.tags = tags.sanitized() }
                        entry.mediumLengthMicroseconds = state.currentLengthMicroseconds
                        entry.hasSavedDescription = true
                    }
                }
            }
            resumePositions = ResumePositions(marks: state.resumePositions)
            modes = state.modes
            shuffleQueue(state.shuffle)
            if state.shuffle { playByPriority() }
            volume = state.volume
            engine.setVolume(volume)
            if engine.rateRange.contains(state.rate) {
                rate = state.rate
                engine.setRate(rate)
            }
            guard queue.current != nil else { return }
            startLoading(playing: false, holding: announcedTrack)
            if state.positionMicroseconds > 0 { jump(to: state.positionMicroseconds) }
        }
    }

    // MARK: Internals

    /// Runs several requests as one change: listeners hear what they did together, once (MPD's `next` from pause,
    /// which moves on and plays, is one change of the player, not two).
    public func together(_ body: () -> Void) {
        transaction(body)
    }

    /// Runs one request or event; its change is published once, when the outermost one ends.
    @discardableResult
    func transaction<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if pending.depth == 0 {
            pending.affectsSavedState = true
            pending.stateBefore = snapshot
        }
        pending.depth += 1
        defer {
            // What consume and single oneshot do belongs to the same change.
            if pending.depth == 1, let before = pending.stateBefore { followQueueModes(from: before) }
            pending.depth -= 1
            if pending.depth == 0 {
                prepareNextEntry()
                applyEngineOutput()
                let before = pending.stateBefore ?? snapshot
                pending.stateBefore = nil
                feed.publish(change(since: before))
            }
        }
        return try body()
    }

    /// The output in use now delays what the pipeline plays by `microseconds` before the listener hears it (0 for a
    /// local sink; a Snapcast stream's buffer, an AirPlay speaker's latency). Position follows what is heard; while
    /// something plays, the change is announced as a jump (Seeked) to the position as now heard.
    public func setOutputDelay(microseconds: Int64) {
        let delay = max(0, min(microseconds, 60_000_000))
        guard delay != outputDelayMicroseconds else { return }
        transaction {
            sound.outputDelayMicroseconds = delay
            log.info("output delay \(delay / 1000) ms")
            if status != .stopped, stream.loadedEntryID != nil, stream.prerolled { pending.seek = positionMicroseconds }
        }
    }

    /// Announces the position as now heard (Seeked) when it has moved other than the clock would have it, without a
    /// seek: the output's own timing changed (a move to or from a network speaker).
    public func announceHeardPosition() {
        guard status != .stopped, stream.loadedEntryID != nil, stream.prerolled else { return }
        transaction { pending.seek = positionMicroseconds }
    }

    /// Tells the engine which entry follows the loaded one, to continue with it gaplessly.
    func prepareNextEntry() {
        var next: QueueEntry?
        if status != .stopped, let current = queue.current, stream.loadedEntryID == current.id { next = entryFollowing(current) }
        // One that cannot be opened is not handed over: the stream ends and loading it reports why.
        if let candidate = next, unopenableReason(candidate.uri) != nil { next = nil }
        // A range starts with a seek and ends where the pipeline is told to stop: neither survives a hand-over.
        if next?.range != nil || queue.current?.range != nil { next = nil }
        // A sleep timer for the end of this track: the stream ends by itself, and what follows waits.
        if sleepTimer?.kind == .endOfTrack { next = nil }
        guard next?.id != stream.preparedEntryID else { return }
        stream.preparedEntryID = next?.id
        engine.prepareNext(next?.uri)
    }

    /// Why `uri` must not reach the pipeline now, or nil. A queued local file replaced since by a FIFO or a
    /// device would block the open for good (GStreamer opens it with a blocking `open`); stat never blocks on one.
    func unopenableReason(_ uri: String) -> String? {
        guard let parsed = MediaURI(uri), parsed.scheme == "file" else { return nil }
        switch fileSystem.kind(of: parsed.path) {
        case .regularFile, .missing: return nil // a missing file is reported by the pipeline, as before
        case .directory: return "\(parsed.path) is a directory"
        case .other: return "\(parsed.path) is not a regular file (devices, FIFOs and sockets are not played)"
        }
    }

    /// What plays when `current` ends: itself under repeat and single, nothing under single alone (stop after this
    /// song), else the next in play order (wrapping under repeat); nothing after an entry a control point pushed
    /// (``pushedEntryID``).
    func entryFollowing(_ current: QueueEntry) -> QueueEntry? {
        switch modes.atEnd {
        case .playAgain: return current
        case .stop: return nil
        case .next: break
        }
        if current.id == requests.pushedEntryID { return nil }
        return queue.nextPosition(wrap: modes.repeats).flatMap(queue.entry(atPosition:))
    }

    func go(to position: Int, remember: Bool = true) {
        let before = announcedTrack
        queue.move(to: position, remember: remember)
        guard status != .stopped else { return }
        startLoading(playing: status == .playing, holding: before)
    }

    func startLoading(playing: Bool, holding before: TrackInfo?) {
        guard let entry = queue.current else { return }
        rememberPositionOfLoadedEntry()
        if let previous = stream.loadedEntryID, previous != entry.id {
            requests.pendingOpens.removeValue(forKey: previous)?(nil)
            requests.interruptions.removeValue(forKey: previous)
        }
        // The same entry loaded again (a restart, levelling turned on) keeps what was found beside it and measured;
        // chapters come again from the stream.
        if stream.loadedEntryID != entry.id {
            forgetLyrics()
            sound.measured = nil
        }
        stream.loadedEntryID = entry.id
        if let guest = requests.pushedEntryID, guest != entry.id { dismissGuest(guest) }
        let startPosition = requests.startPosition
        requests.startPosition = nil
        forgetChapters()
        loadSidecar(of: entry.id)
        stream.preparedEntryID = nil
        stream.positionBeforeOutputFailure = nil
        stream.prerolled = false
        stream.seekBeforePreroll = nil
        stream.seekable = false
        stream.heldTrack = .some(before)
        status = playing ? .playing : .paused
        log.info("\(playing ? "playing" : "loading") \(entry.uri)")
        if let reason = unopenableReason(entry.uri) {
            streamFailed(reason)
            return
        }
        applyEngineOutput([.replayGain]) // before the load: the stream's audio filter is made for it
        guard engine.load(entry.uri, playing: playing, range: entry.range) else {
            streamFailed("the pipeline refused the stream")
            return
        }
        if let startPosition, startPosition.entryID == entry.id, startPosition.microseconds > 0 {
            jump(to: startPosition.microseconds)
        } else if entry.range == nil, entry.id != requests.pushedEntryID {
            resumeWhereLeft(entry)
        }
    }

    /// A long file played before starts where it was left, announced with Seeked.
    func resumeWhereLeft(_ entry: QueueEntry) {
        guard let position = resumePositions.position(for: entry.uri) else { return }
        log.info("resuming \(entry.uri) at \(position / 1_000_000) s")
        jump(to: position)
    }

    /// Remembers where the loaded entry is, if it is a long file (before it is unloaded or replaced).
    func rememberPositionOfLoadedEntry() {
        // The queue may already have moved on: the position is the loaded stream's, not the current entry's.
        guard let id = stream.loadedEntryID, id != requests.pushedEntryID, stream.prerolled, status != .stopped, let entry = queue.entry(withID: id),
              entry.range == nil, let position = engine.positionMicroseconds else { return }
        resumePositions.record(uri: entry.uri, position: max(0, position), length: entry.lengthMicroseconds)
    }

    func jump(to microseconds: Int64) {
        transaction {
            let (inMedium, overflow) = loadedRangeStart.addingReportingOverflow(microseconds)
            guard !overflow, engine.seek(toMicroseconds: inMedium) else {
                log.warning("seek to \(microseconds) us refused")
                return
            }
            if !stream.prerolled { stream.seekBeforePreroll = microseconds }
            sleepTimerFollowSeek(to: microseconds)
            // What is heard next is the new place, once the output's delay has passed.
            pending.seek = stream.prerolled ? max(0, microseconds - outputDelayMicroseconds) : microseconds
        }
    }

    /// Where the loaded entry's range starts in its medium (0: it plays all of it): engine positions minus this are
    /// the entry's.
    var loadedRangeStart: Int64 {
        stream.loadedEntryID.flatMap { queue.entry(withID: $0)?.range?.startMicroseconds } ?? 0
    }

    func unload() {
        rememberPositionOfLoadedEntry()
        stream.positionBeforeOutputFailure = nil
        engine.stop()
        if let id = stream.loadedEntryID {
            requests.pendingOpens.removeValue(forKey: id)?(nil)
            requests.interruptions.removeValue(forKey: id)
        }
        stream.loadedEntryID = nil
        forgetChapters()
        forgetLyrics()
        sound.measured = nil
        stream.preparedEntryID = nil
        stream.prerolled = false
        stream.seekBeforePreroll = nil
        stream.seekable = false
        stream.heldTrack = nil
        status = .stopped
    }

    /// Goes back to what an unplayable opened URI interrupted, as if it had never been opened.
    func resume(_ interruption: Interruption, droppingEntry id: Int) {
        let held = stream.heldTrack
        queue.remove(id: id)
        pending.queueEdits.append(.removed(id: id))
        if let previous = interruption.entryID, let position = queue.position(of: previous) { queue.move(to: position, remember: false) }
        guard interruption.status != .stopped, queue.current != nil else {
            unload()
            return
        }
        startLoading(playing: interruption.status == .playing, holding: held ?? announcedTrack)
        let (inMedium, overflow) = loadedRangeStart.addingReportingOverflow(interruption.positionMicroseconds)
        if interruption.positionMicroseconds > 0, !overflow { _ = engine.seek(toMicroseconds: inMedium) }
    }

    func streamFailed(_ message: String) {
        guard let id = stream.loadedEntryID, let entry = queue.entry(withID: id) else {
            log.warning(message)
            return
        }
        requests.pendingOpens.removeValue(forKey: id)?(.unplayable(message))
        if let interruption = requests.interruptions.removeValue(forKey: id) {
            log.warning("cannot open \(entry.uri): \(message)")
            resume(interruption, droppingEntry: id)
            return
        }
        log.warning("cannot play \(entry.uri): \(message); skipping")
        stream.consecutiveFailures += 1
        if stream.consecutiveFailures < queue.count, let position = queue.nextPosition(wrap: modes.repeats) {
            go(to: position)
        } else {
            if stream.consecutiveFailures >= queue.count { log.warning("nothing in the queue can be played; stopping") }
            stream.consecutiveFailures = 0
            unload()
        }
    }
}

/// The entry, status and position an opened URI took over from.
struct Interruption {
    let entryID: Int?
    let status: PlaybackStatus
    let positionMicroseconds: Int64
}

extension Player {
    /// The chapters of the loaded entry (see ``didFindChapters(_:for:)``).
    public var chapters: ChapterList { chapterPlayback.list }
    /// The chapter playing, as of the last ``updateChapter()``.
    public var announcedChapterIndex: Int? { chapterPlayback.index }
    /// Next and Previous step through chapters (see ``setChapterSkip(_:)``).
    public var chapterSkip: Bool { chapterPlayback.skip }

    /// Chapters found for `uri` (from the stream's table of contents, its Vorbis comments, or an MP4 `chpl` box read
    /// beside it); kept when `uri` is still what is loaded and they are not empty.
    public func didFindChapters(_ found: [Chapter], for uri: String) {
        transaction {
            // Chapters are the medium's: a ranged entry (its positions counted from the range's start) shows none.
            guard let id = stream.loadedEntryID, let entry = queue.entry(withID: id), entry.uri == uri, entry.range == nil else { return }
            let list = ChapterList(found, lengthMicroseconds: entry.lengthMicroseconds)
            guard chapterPlayback.take(list, position: stream.prerolled ? positionMicroseconds : nil) else { return }
            log.info("\(list.count) chapters")
            if sleepTimer?.kind == .endOfChapter, sleepTimer?.chapterEnd == nil { sleepTimer?.chapterEnd = currentChapterEnd }
            if stream.prerolled { pending.queueEdits.append(.metadataChanged(id: id)) }
        }
    }

    /// Chapters the loaded stream carries (its table of contents, or Vorbis comments).
    public func engineDidReadChapters(_ found: [Chapter]) {
        guard let id = stream.loadedEntryID, let entry = queue.entry(withID: id) else { return }
        didFindChapters(found, for: entry.uri)
    }

    /// Call a few times a second while chapters play: announces the chapter when playback has crossed into another.
    public func updateChapter() {
        guard !chapters.isEmpty, status != .stopped, stream.prerolled, let id = stream.loadedEntryID else { return }
        var playback = chapterPlayback
        guard playback.follow(position: positionMicroseconds) else { return }
        transaction {
            pending.affectsSavedState = false
            chapterPlayback = playback
            pending.queueEdits.append(.metadataChanged(id: id))
        }
    }

    /// Goes to chapter `index` (0-based) of what plays, announced with Seeked.
    public func goToChapter(_ index: Int) throws(PlayerError) {
        guard !chapters.isEmpty else { throw .invalidArgument("what plays has no chapters") }
        guard chapters.chapters.indices.contains(index) else {
            throw .invalidArgument("there are chapters 1 to \(chapters.count), not \(index + 1)")
        }
        try seekToChapterStart(chapters.chapters[index].startMicroseconds)
    }

    /// The next chapter's start (nothing after the last).
    public func nextChapter() throws(PlayerError) {
        guard !chapters.isEmpty else { throw .invalidArgument("what plays has no chapters") }
        guard let start = chapters.nextStart(after: positionMicroseconds) else { return }
        try seekToChapterStart(start)
    }

    /// The current chapter's start when more than 3 s into it, else the previous chapter's.
    public func previousChapter() throws(PlayerError) {
        guard !chapters.isEmpty else { throw .invalidArgument("what plays has no chapters") }
        try seekToChapterStart(chapters.previousStart(before: positionMicroseconds))
    }

    func seekToChapterStart(_ start: Int64) throws(PlayerError) {
        guard stream.seekable || !stream.prerolled else { throw .invalidArgument("this stream cannot seek") }
        transaction {
            jump(to: start)
            if let id = stream.loadedEntryID, chapterPlayback.follow(position: start) { pending.queueEdits.append(.metadataChanged(id: id)) }
        }
    }

    /// Where the chapter playing now ends (the next one's start, else the track's end).
    var currentChapterEnd: Int64? {
        guard let id = stream.loadedEntryID else { return nil }
        return chapterPlayback.end(at: positionMicroseconds, lengthMicroseconds: queue.entry(withID: id)?.lengthMicroseconds)
    }

    func forgetChapters() {
        sleepTimer?.chapterEnd = nil // an end-of-chapter timer waits for the next track's chapters
        chapterPlayback.forget()
    }

    // MARK: Chapter skip

    /// Whether Next and Previous (and so media keys and a headset's buttons) step through the chapters of a
    /// chaptered track before moving to another track.
    public func setChapterSkip(_ on: Bool) {
        guard on != chapterSkip else { return }
        transaction {
            pending.affectsSavedState = false
            chapterPlayback.skip = on
            log.info("chapter skip \(on ? "on" : "off")")
        }
    }

    /// With chapter skip on: the start of the chapter Next goes to (nil: it goes to the next track).
    var chapterSkipNextStart: Int64? { canSeek ? chapterPlayback.skipNextStart(from: positionMicroseconds) : nil }

    /// With chapter skip on: where Previous goes inside the track (nil: to the previous track; see
    /// ``ChapterPlayback/skipPreviousStart(from:)``).
    var chapterSkipPreviousStart: Int64? { canSeek ? chapterPlayback.skipPreviousStart(from: positionMicroseconds) : nil }
}

extension Player {
    /// Chapters found for `uri` (from the stream's table of contents, its Vorbis comments, or an MP4 `chpl` box read
    /// beside it); kept when `uri` is still what is loaded and they are not empty.
    public func didFindChapters(_ found: [Chapter], for uri: String) {
        transaction {
            guard let id = loadedEntryID, let entry = queue.entry(withID: id), entry.uri == uri else { return }
            let list = ChapterList(found, lengthMicroseconds: entry.lengthMicroseconds)
            guard !list.isEmpty, list != chapters else { return }
            log.info("\(list.count) chapters")
            chapters = list
            if sleepTimer?.kind == .endOfChapter, sleepTimer?.chapterEnd == nil { sleepTimer?.chapterEnd = currentChapterEnd }
            announcedChapterIndex = prerolled ? chapters.index(at: positionMicroseconds) : nil
            if prerolled { trackListChanges.append(.metadataChanged(id: id)) }
        }
    }

    /// Chapters the loaded stream carries (its table of contents, or Vorbis comments).
    public func engineDidReadChapters(_ found: [Chapter]) {
        guard let id = loadedEntryID, let entry = queue.entry(withID: id) else { return }
        didFindChapters(found, for: entry.uri)
    }

    /// Call a few times a second while chapters play: announces the chapter when playback has crossed into another.
    public func updateChapter() {
        guard !chapters.isEmpty, status != .stopped, prerolled else { return }
        let index = chapters.index(at: positionMicroseconds)
        guard index != announcedChapterIndex, let id = loadedEntryID else { return }
        transaction {
            lastChangeAffectsSavedState = false
            announcedChapterIndex = index
            trackListChanges.append(.metadataChanged(id: id))
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
        guard seekable || !prerolled else { throw .invalidArgument("this stream cannot seek") }
        transaction {
            jump(to: start)
            if let id = loadedEntryID {
                let index = chapters.index(at: start)
                if index != announcedChapterIndex {
                    announcedChapterIndex = index
                    trackListChanges.append(.metadataChanged(id: id))
                }
            }
        }
    }

    /// Where the chapter playing now ends (the next one's start, else the track's end).
    var currentChapterEnd: Int64? {
        guard !chapters.isEmpty, let id = loadedEntryID, let index = chapters.index(at: positionMicroseconds) else { return nil }
        return chapters.end(of: index, lengthMicroseconds: queue.entry(withID: id)?.lengthMicroseconds)
    }

    func forgetChapters() {
        sleepTimer?.chapterEnd = nil // an end-of-chapter timer waits for the next track's chapters
        chapters = .empty
        announcedChapterIndex = nil
    }

    // MARK: Chapter skip

    /// Whether Next and Previous (and so media keys and a headset's buttons) step through the chapters of a
    /// chaptered track before moving to another track.
    public func setChapterSkip(_ on: Bool) {
        guard on != chapterSkip else { return }
        transaction {
            lastChangeAffectsSavedState = false
            chapterSkip = on
            log.info("chapter skip \(on ? "on" : "off")")
        }
    }

    /// With chapter skip on: the start of the chapter Next goes to (nil: it goes to the next track).
    var chapterSkipNextStart: Int64? {
        guard chapterSkip, !chapters.isEmpty, canSeek else { return nil }
        return chapters.nextStart(after: positionMicroseconds)
    }

    /// With chapter skip on: where Previous goes inside the track (nil: to the previous track) — past the first
    /// chapter, as the Chapters interface's Previous (the current chapter's start when more than 3 s into it, else
    /// the previous chapter's); in the first chapter, to the previous track as without chapters.
    var chapterSkipPreviousStart: Int64? {
        guard chapterSkip, !chapters.isEmpty, canSeek, let index = chapters.index(at: positionMicroseconds), index > 0 else { return nil }
        return chapters.previousStart(before: positionMicroseconds)
    }
}

extension Player {
    /// The lyrics of the loaded entry (see ``didFindLyrics(_:for:)``).
    public var lyrics: Lyrics? { lyricsTiming.lyrics }
    /// The synced line sung now, as of the last ``updateLyricsLine()``.
    public var announcedLyricsLine: Int? { lyricsTiming.line }
    /// Counts every change of ``lyrics`` (found, forgotten): what tells clients the lines changed.
    public var lyricsSerial: Int { lyricsTiming.serial }

    /// Lyrics found for `uri` (a `.lrc` beside the file, or its tags); kept when `uri` is still what is loaded.
    /// Their text goes into the Metadata (`xesam:asText`).
    public func didFindLyrics(_ found: Lyrics, for uri: String) {
        transaction {
            guard let id = stream.loadedEntryID, let entry = queue.entry(withID: id), entry.uri == uri,
                  lyricsTiming.take(found, position: stream.prerolled ? positionMicroseconds : nil) else { return }
            log.info("lyrics: \(found.lines.count) lines, \(found.isSynced ? "synced" : "not synced"), from the \(found.source.rawValue)")
            pending.affectsSavedState = false
            pending.queueEdits.append(.metadataChanged(id: id))
        }
    }

    /// Call when a synced line may have begun (at the next line's time, and after a seek): announces the line sung
    /// now when it is another than the one announced.
    public func updateLyricsLine() {
        var timing = lyricsTiming
        guard timing.follow(position: status == .stopped || !stream.prerolled ? nil : positionMicroseconds) else { return }
        transaction {
            pending.affectsSavedState = false
            lyricsTiming = timing
        }
    }

    func forgetLyrics() { lyricsTiming.forget() }
}

extension Player {
    /// Lyrics found for `uri` (a `.lrc` beside the file, or its tags); kept when `uri` is still what is loaded.
    /// Their text goes into the Metadata (`xesam:asText`).
    public func didFindLyrics(_ found: Lyrics, for uri: String) {
        transaction {
            guard let id = loadedEntryID, let entry = queue.entry(withID: id), entry.uri == uri, found != lyrics else { return }
            log.info("lyrics: \(found.lines.count) lines, \(found.isSynced ? "synced" : "not synced"), from the \(found.source.rawValue)")
            lastChangeAffectsSavedState = false
            lyrics = found
            lyricsSerial += 1
            announcedLyricsLine = prerolled ? found.lineIndex(at: positionMicroseconds) : nil
            trackListChanges.append(.metadataChanged(id: id))
        }
    }

    /// Call when a synced line may have begun (at the next line's time, and after a seek): announces the line sung
    /// now when it is another than the one announced.
    public func updateLyricsLine() {
        guard let lyrics, lyrics.isSynced else { return }
        let index = status == .stopped || !prerolled ? nil : lyrics.lineIndex(at: positionMicroseconds)
        guard index != announcedLyricsLine else { return }
        transaction {
            lastChangeAffectsSavedState = false
            announcedLyricsLine = index
        }
    }

    func forgetLyrics() {
        if lyrics != nil { lyricsSerial += 1 }
        lyrics = nil
        announcedLyricsLine = nil
    }
}

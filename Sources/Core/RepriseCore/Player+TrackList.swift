/// What the background reading found about one queued entry: its tags (nil: they could not be read), length, cover,
/// and what its file says of itself.
public typealias EntryDescription = (id: Int, tags: TrackTags?, lengthMicroseconds: Int64?, artURL: String?, file: FileFacts?)

/// Background tag reading and the track list (MPRIS TrackList requests) of ``Player``.
extension Player {
    // MARK: Reading tags in the background

    /// The next entry whose tags, length and cover should be read (the current entry first); nil when none is left.
    /// Each one taken must be answered with ``entriesDescribed(_:)``.
    public func takeEntryToDescribe() -> QueueEntry? {
        descriptions.take(preferring: queue.current, in: queue)
    }

    /// What was read about entry `id` (nil tags: it could not be read). Announced with TrackMetadataChanged;
    /// when it completes a directory group, the group is put in album order.
    public func entryDescribed(id: Int, tags: TrackTags?, lengthMicroseconds: Int64?, artURL: String?, file: FileFacts? = nil) {
        entriesDescribed([(id, tags, lengthMicroseconds, artURL, file)])
    }

    /// What was read about several entries (a batch of the background reading), as one change: listeners hear
    /// one change with an edit per entry, not one change per entry.
    public func entriesDescribed(_ read: [EntryDescription]) {
        guard !read.isEmpty else { return }
        transaction {
            var savedStateFollows = false
            for description in read where describe(description) { savedStateFollows = true }
            if pending.depth == 1 && !savedStateFollows { pending.affectsSavedState = false }
        }
    }

    /// Applies one description; returns whether the saved state follows it: the current entry's tags are saved (a
    /// restart answers with them at once), others' are not, and a group it completes is put in order.
    private func describe(_ description: EntryDescription) -> Bool {
        let (id, tags, lengthMicroseconds, artURL, file) = description
        guard let entry = queue.entry(withID: id) else {
            descriptions.cancel(id)
            return false
        }
        let completedGroup = descriptions.finish(entry)
        let savedStateFollows = completedGroup != nil || id == queue.current?.id
        var described = entry
        described.isDescribed = true
        if let tags {
            let read = tags.sanitized { [log] cut in log.info("tags of \(entry.uri): \(cut)") }
            // Tags from the saved state give way to the file's; the stream's own (a radio's title) stay above them.
            described.tags = entry.hasSavedDescription ? read : read.merged(with: entry.tags)
        }
        if described.mediumLengthMicroseconds == nil || (entry.hasSavedDescription && lengthMicroseconds != nil) {
            described.mediumLengthMicroseconds = lengthMicroseconds ?? described.mediumLengthMicroseconds
        }
        described.hasSavedDescription = false
        if described.artURL == nil { described.artURL = artURL }
        if let file { described.fileFacts = file }
        queue.update(id: id) { $0 = described }
        if TrackInfo(entry: described) != TrackInfo(entry: entry) { pending.queueEdits.append(.metadataChanged(id: id)) }
        if let group = completedGroup { sortGroup(group) }
        return savedStateFollows
    }

    /// Puts a directory group in album order. Playback that began with the directory's first file by name, and
    /// has barely started, moves to the album's first track.
    private func sortGroup(_ group: Int) {
        let members = queue.entries.filter { $0.group == group }
        guard members.count > 1 else { return }
        let sorted = members.map { (id: $0.id, key: AlbumOrderKey($0)) }.sorted { $0.key < $1.key }.map(\.id)
        guard sorted != members.map(\.id) else { return }
        let startedWithFirst = queue.current?.id == members.first?.id
        queue.rearrange(sorted)
        pending.queueEdits.append(.replaced)
        log.info("ordered \(members.count) entries by album, disc and track")
        if startedWithFirst, positionMicroseconds < 3_000_000, let position = queue.position(of: sorted[0]) {
            go(to: position, remember: false)
        }
    }

    // MARK: The track list

    /// Entry ids in list order (the order they were added, whatever the shuffle).
    public var trackIDs: [Int] { queue.ids }

    public func track(id: Int) -> TrackInfo? { queue.entry(withID: id).map(TrackInfo.init) }

    /// Inserts `uris` in order after entry `after` (nil: at the start); returns the first one's id and play-order position.
    /// Entries whose URI `known` describes are added described (their tags, length and cover as given, not read again).
    func insert(_ uris: [String], after: Int?, known: [String: KnownDescription] = [:]) -> (id: Int?, position: Int?) {
        guard let (ids, position) = queue.insert(uris, after: after), let first = ids.first else { return (nil, nil) }
        var previous = after
        var toRead: [Int] = []
        for (id, uri) in zip(ids, uris) {
            pending.queueEdits.append(.added(id: id, after: previous))
            previous = id
            if let description = known[uri] {
                queue.update(id: id) { entry in
                    entry.tags = description.tags.sanitized()
                    entry.mediumLengthMicroseconds = description.lengthMicroseconds
                    entry.artURL = description.artURL
                    entry.fileFacts = description.file
                    entry.isDescribed = true
                }
            } else {
                toRead.append(id)
            }
        }
        descriptions.add(toRead)
        return (first, position)
    }

    /// Puts the list in the order `ids` (every entry once; anything else has no effect), announced as a replaced
    /// list (MPRIS has no move): the current entry stays current, and under shuffle the play order is kept.
    public func reorder(_ ids: [Int]) {
        transaction {
            guard ids.count == queue.count, ids != queue.ids else { return }
            queue.rearrange(ids)
            if queue.ids == ids { pending.queueEdits.append(.replaced) }
        }
    }

    /// Under shuffle, the entries still to play go in groups by `rank`, highest first (MPD's priorities).
    public func playFirst(rankedBy rank: (Int) -> Int) {
        transaction { queue.playFirst(rankedBy: rank) }
    }

    /// Entry `id` plays only `range` of its medium from now on (nil: all of it), as MPD's `rangeid`: its length,
    /// positions and seeks become the range's. Refused for an unknown entry, for the entry loaded now (its stream
    /// already started where it did) and for a range starting past the medium's end; one ending at or past it
    /// plays to the end.
    public func setRange(_ range: PlayRange?, ofEntry id: Int) throws(PlayerError) {
        guard let entry = queue.entry(withID: id) else { throw .invalidArgument("no entry \(id)") }
        guard stream.loadedEntryID != id || status == .stopped else { throw .invalidArgument("entry \(id) is playing") }
        let fitted = try range?.fitted(toMedium: entry.mediumLengthMicroseconds)
        guard fitted != entry.range else { return }
        transaction {
            queue.update(id: id) { $0.range = fitted }
            pending.queueEdits.append(.metadataChanged(id: id))
            log.info("entry \(id) plays " + (fitted.map { "from \($0.startMicroseconds / 1000) ms to " + ($0.endMicroseconds.map { "\($0 / 1000) ms" } ?? "its end") } ?? "whole"))
        }
    }

    /// Changes the tags of entry `id`, a stream's (MPD's `addtagid` and `cleartagid`: a radio named in the queue);
    /// kept within the usual limits. A file's tags are its file's: refused, as for an unknown entry. The queue is
    /// told its entry changed even when the tags stay the same, as MPD counts a new version for every edit.
    public func editTags(ofEntry id: Int, _ edit: (inout TrackTags) -> Void) throws(PlayerError) {
        guard let entry = queue.entry(withID: id) else { throw .invalidArgument("no entry \(id)") }
        guard MediaURI(entry.uri)?.scheme != "file" else { throw .invalidArgument("the tags of \(entry.uri) are its file's") }
        var tags = entry.tags
        edit(&tags)
        let edited = tags.sanitized { [log] cut in log.info("tags of \(entry.uri): \(cut)") }
        transaction {
            queue.update(id: id) { $0.tags = edited }
            pending.queueEdits.append(.metadataChanged(id: id))
        }
    }

    /// Makes entry `id` current and plays it (`playing` false: loads it paused); an id not in the list has no effect.
    public func goTo(id: Int, playing: Bool = true) {
        transaction {
            guard let position = queue.position(of: id) else { return }
            let before = announcedTrack
            queue.move(to: position)
            startLoading(playing: playing, holding: before)
        }
    }

    /// Removes entry `id` (an unknown id has no effect). Removing the current entry moves on to the next,
    /// keeping the status; past the last entry playback stops.
    public func removeTrack(id: Int) {
        transaction {
            guard let position = queue.position(of: id), let entry = queue.entry(withID: id) else { return }
            let wasCurrent = queue.current?.id == id, wasLast = position == queue.count - 1
            queue.remove(id: id)
            let completedGroup = descriptions.finish(entry)
            defer { if let completedGroup { sortGroup(completedGroup) } }
            pending.queueEdits.append(.removed(id: id))
            requests.pendingOpens.removeValue(forKey: id)?(nil)
            requests.interruptions.removeValue(forKey: id)
            guard wasCurrent else { return }
            stream.heldTrack = nil
            if status == .stopped || queue.isEmpty || wasLast {
                unload()
            } else {
                startLoading(playing: status == .playing, holding: announcedTrack)
            }
        }
    }
}

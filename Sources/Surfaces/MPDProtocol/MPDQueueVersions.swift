import RepriseCore

/// The queue as MPD clients track it: a version that grows with every edit, and for each entry the version at which
/// its position or tags last changed, so `plchanges` answers with only what a client has not seen. Song ids are
/// the queue's entry ids, which never change while positions shift.
public final class MPDQueueVersions {
    public private(set) var version: UInt32 = 1
    private var changedAt: [Int: UInt32] = [:]
    /// What clients were shown of each entry (``MPDQueueVersions/shown(_:)``'s hash): a retag that changes none of it is
    /// no change (a stream that starts and reports the length the library had).
    private var shownHashes: [Int: Int] = [:]
    private var lastIDs: [Int] = []
    /// The queue's ``PlayQueue/listVersion`` when `lastIDs` was read.
    private var lastListVersion: UInt32?

    public init(ids: [Int] = [], listVersion: UInt32? = nil) {
        lastIDs = ids
        lastListVersion = listVersion
        for id in ids { changedAt[id] = version }
    }

    /// Follows a change of the queue: when an entry was added, removed or moved, or what clients see of one changed
    /// (`shown`: the hash of what they see of an entry, nil for one gone), a new version, with those entries stamped
    /// with it. Returns whether there was one (an order of play shuffled, or a retag to the same, is none).
    /// `steps`: how many versions the change counts for (MPD's `findadd` counts one per song it adds).
    /// `isFile`: whether an entry is a local file, whose tags and length heard while it plays are no change of the
    /// queue for MPD (its song is what its index says; a stream's tags, a radio's title, are).
    /// `ids` is read only when `listVersion` (the queue's ``PlayQueue/listVersion``; nil: unknown) moved, so a retag
    /// of one entry in a long queue costs no pass over it; nor is it when a few insertions and removals were all the
    /// edits did and `count` (the queue's length now) agrees: they are applied to what was read before, and only
    /// the entries from the first one on are compared.
    @discardableResult
    public func update(listVersion: UInt32? = nil, count: Int? = nil, ids readIDs: () -> [Int], edits: [TrackListChange],
                       steps: UInt32 = 1, shown: (Int) -> Int?, isFile: (Int) -> Bool = { _ in false }) -> Bool {
        let (sum, overflow) = version.addingReportingOverflow(max(1, steps))
        let next = overflow ? 1 : sum
        var changed = false
        let listMoved = listVersion == nil || listVersion != lastListVersion
        lastListVersion = listVersion
        if listMoved {
            let edited = count.flatMap { applying(edits, expecting: $0) }
            changed = follow(edited?.ids ?? readIDs(), from: edited?.from ?? 0, version: next, shown: shown)
        }
        for edit in edits {
            let touched: (id: Int, played: Bool)? = switch edit {
            case .metadataChanged(let id), .priorityChanged(let id): (id, false)
            case .playedMetadataChanged(let id): (id, true)
            default: nil
            }
            guard let (id, played) = touched, changedAt[id] != nil, let hash = shown(id), hash != shownHashes[id] else { continue }
            shownHashes[id] = hash
            if played, isFile(id) { continue }
            changedAt[id] = next
            changed = true
        }
        if changed { version = next }
        return changed
    }

    /// Insertions and removals applied one at a time beyond this many in one change cost more than reading the list.
    static let editsAppliedAtMost = 64

    /// The list after `edits`' insertions and removals applied to the one read before, and the first position they
    /// touched; nil when they cannot be applied (a replacement, an id not found, too many) or the result is not
    /// `count` long (the list changed in a way no edit says).
    private func applying(_ edits: [TrackListChange], expecting count: Int) -> (ids: [Int], from: Int)? {
        var ids = lastIDs
        var from = ids.count
        var applied = 0
        /// Where the edit before happened: a run of insertions or removals there is found without a search.
        var hint = ids.count
        func position(of id: Int) -> Int? {
            if ids.indices.contains(hint), ids[hint] == id { return hint }
            if ids.indices.contains(hint - 1), ids[hint - 1] == id { return hint - 1 }
            return ids.lastIndex(of: id)
        }
        for edit in edits {
            switch edit {
            case .added(let id, let after):
                let found: Int? = if let after { position(of: after).map { $0 + 1 } } else { 0 }
                guard let at = found else { return nil }
                ids.insert(id, at: at)
                (from, hint) = (min(from, at), at)
            case .removed(let id):
                guard let at = position(of: id) else { return nil }
                ids.remove(at: at)
                (from, hint) = (min(from, at), at)
            case .replaced: return nil
            case .metadataChanged, .playedMetadataChanged, .priorityChanged: continue
            }
            applied += 1
            if applied > Self.editsAppliedAtMost { return nil }
        }
        return ids.count == count ? (ids, from) : nil
    }

    /// Takes `ids` as the list, the same as before up to position `from`: an entry whose position changed counts as
    /// changed (stamped `version`), a new entry's look is recorded, removed ones are forgotten. Returns whether the
    /// list differs.
    private func follow(_ ids: [Int], from: Int, version next: UInt32, shown: (Int) -> Int?) -> Bool {
        let before = lastIDs
        var differs = ids.count != before.count
        for position in from..<ids.count where position >= before.count || before[position] != ids[position] {
            let id = ids[position]
            // One queued before this follower began is not known until it changes.
            if changedAt[id] == nil { shownHashes[id] = shown(id) }
            changedAt[id] = next
            differs = true
        }
        guard differs else { return false }
        lastIDs = ids
        if ids.count < before.count || from < before.count {
            for id in Set(before[min(from, before.count)...]).subtracting(ids[min(from, ids.count)...]) {
                changedAt[id] = nil
                shownHashes[id] = nil
            }
        }
        return true
    }

    /// The hash of what clients see of `entry`: its file, the tags ``MPDSongWriter`` writes, length, range and
    /// priority.
    public static func shown(_ entry: QueueEntry) -> Int {
        var hasher = Hasher()
        var tags = entry.tags
        (tags.comments, tags.description, tags.stationURL) = ([], nil, nil)
        hasher.combine(entry.uri)
        hasher.combine(tags)
        hasher.combine(entry.lengthMicroseconds.map { $0 / 1000 }) // as `duration` shows it: to the millisecond
        hasher.combine(entry.range)
        hasher.combine(entry.priority)
        return hasher.finalize()
    }

    /// A new version in which entries `ids` changed (none: an empty queue cleared, a version all the same).
    public func touch(_ ids: [Int]) {
        version = version == UInt32.max ? 1 : version + 1
        for id in ids where changedAt[id] != nil { changedAt[id] = version }
    }

    /// Positions and ids of the entries changed after version `since` (every one when `since` is not a version
    /// this queue had).
    public func changes(since: UInt32) -> [(position: Int, id: Int)] {
        lastIDs.enumerated().compactMap { position, id in
            since > version || (changedAt[id] ?? version) > since ? (position, id) : nil
        }
    }
}

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
    /// `ids` is read only when `listVersion` (the queue's ``PlayQueue/listVersion``; nil: unknown) moved, so a retag
    /// of one entry in a long queue costs no pass over it; nor is it when the edits only appended entries and
    /// `count` (the queue's length now) agrees, so adding one entry to a long queue costs none either.
    @discardableResult
    public func update(listVersion: UInt32? = nil, count: Int? = nil, ids readIDs: () -> [Int], edits: [TrackListChange],
                       steps: UInt32 = 1, shown: (Int) -> Int?) -> Bool {
        let (sum, overflow) = version.addingReportingOverflow(max(1, steps))
        let next = overflow ? 1 : sum
        var changed = false
        let listMoved = listVersion == nil || listVersion != lastListVersion
        lastListVersion = listVersion
        if listMoved, let appended = appendedIDs(edits), !appended.isEmpty, lastIDs.count + appended.count == count {
            // No entry moved: only the new ones are stamped.
            for id in appended {
                changedAt[id] = next
                shownHashes[id] = shown(id)
            }
            lastIDs.append(contentsOf: appended)
            changed = true
        } else if listMoved, case let ids = readIDs(), ids != lastIDs {
            // An entry whose position changed counts as changed; removed ones are forgotten.
            var stillThere = Set<Int>()
            stillThere.reserveCapacity(ids.count)
            for (position, id) in ids.enumerated() {
                stillThere.insert(id)
                // A new entry's look is recorded; one queued before this follower began is not known until it changes.
                if changedAt[id] == nil { shownHashes[id] = shown(id) }
                if position >= lastIDs.count || lastIDs[position] != id { changedAt[id] = next }
            }
            if changedAt.count > ids.count { changedAt = changedAt.filter { stillThere.contains($0.key) } }
            if shownHashes.count > ids.count { shownHashes = shownHashes.filter { stillThere.contains($0.key) } }
            lastIDs = ids
            changed = true
        }
        for edit in edits {
            let touched: Int? = switch edit {
            case .metadataChanged(let id), .priorityChanged(let id): id
            default: nil
            }
            guard let id = touched, changedAt[id] != nil, let hash = shown(id), hash != shownHashes[id] else { continue }
            shownHashes[id] = hash
            changedAt[id] = next
            changed = true
        }
        if changed { version = next }
        return changed
    }

    /// The ids `edits` added after the last entry, in order, when adding them at the end is all they did to the
    /// list; nil when they did anything else to it (inserted elsewhere, removed, replaced).
    private func appendedIDs(_ edits: [TrackListChange]) -> [Int]? {
        var appended: [Int] = []
        var last = lastIDs.last
        for edit in edits {
            switch edit {
            case .added(let id, let after):
                guard after == last else { return nil }
                appended.append(id)
                last = id
            case .removed, .replaced: return nil
            case .metadataChanged, .priorityChanged: continue
            }
        }
        return appended
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

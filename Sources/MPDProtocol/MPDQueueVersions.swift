import RepriseCore

/// The queue as MPD clients track it: a version that grows with every edit, and for each entry the version at which
/// its position or tags last changed, so `plchanges` answers with only what a client has not seen. Song ids are
/// the queue's entry ids, which never change while positions shift.
public final class MPDQueueVersions {
    public private(set) var version: UInt32 = 1
    private var changedAt: [Int: UInt32] = [:]
    private var lastIDs: [Int] = []

    public init(ids: [Int] = []) {
        lastIDs = ids
        for id in ids { changedAt[id] = version }
    }

    /// Follows a change of the queue: a new version, with the entries added, moved or retagged stamped with it.
    public func update(ids: [Int], edits: [TrackListChange]) {
        version = version == UInt32.max ? 1 : version + 1
        if ids != lastIDs {
            // An entry whose position changed counts as changed; removed ones are forgotten.
            var stillThere = Set<Int>()
            stillThere.reserveCapacity(ids.count)
            for (position, id) in ids.enumerated() {
                stillThere.insert(id)
                if position >= lastIDs.count || lastIDs[position] != id { changedAt[id] = version }
            }
            if changedAt.count > ids.count { changedAt = changedAt.filter { stillThere.contains($0.key) } }
            lastIDs = ids
        }
        for edit in edits {
            if case .metadataChanged(let id) = edit, changedAt[id] != nil { changedAt[id] = version }
        }
    }

    /// A new version in which entries `ids` changed (their priority).
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

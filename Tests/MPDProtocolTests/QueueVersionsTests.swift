import RepriseCore
import Testing
@testable import MPDProtocol

/// ``MPDQueueVersions``: a few insertions and removals are applied as edits without reading the whole queue, and
/// give the same versions and `plchanges` answers as reading it; a replacement, many edits or a length that
/// disagrees read it.
@Suite struct QueueVersionsTests {
    /// A queue's ids and the two ways of following it: told its length (appends applied as edits) and not told.
    final class Followers {
        var ids: [Int]
        var listVersion: UInt32 = 0
        var hashes: [Int: Int] = [:]
        let applied: MPDQueueVersions
        let read: MPDQueueVersions
        var idsRead = 0

        init(_ ids: [Int]) {
            self.ids = ids
            applied = MPDQueueVersions(ids: ids, listVersion: 0)
            read = MPDQueueVersions(ids: ids, listVersion: 0)
        }

        /// Changes the list to `newIDs` (nil: unchanged) with `edits`, and lets both follow.
        func change(to newIDs: [Int]?, _ edits: [TrackListChange], count: Int? = nil) {
            if let newIDs {
                ids = newIDs
                listVersion += 1
            }
            for edit in edits { if case .added(let id, _) = edit { hashes[id] = id * 7 } }
            let appliedChanged = applied.update(listVersion: listVersion, count: count ?? ids.count,
                                                ids: { idsRead += 1; return ids }, edits: edits, shown: { self.hashes[$0] ?? $0 })
            let readChanged = read.update(listVersion: listVersion, ids: { ids }, edits: edits, shown: { self.hashes[$0] ?? $0 })
            #expect(appliedChanged == readChanged)
            #expect(applied.version == read.version)
        }

        func expectSameAnswers() {
            for since in 0...read.version + 1 {
                #expect(applied.changes(since: since).map(\.id) == read.changes(since: since).map(\.id), "since \(since)")
                #expect(applied.changes(since: since).map(\.position) == read.changes(since: since).map(\.position))
            }
        }
    }

    @Test func appendsAreAppliedWithoutReadingTheQueue() {
        let queue = Followers([1, 2, 3])
        queue.change(to: [1, 2, 3, 4], [.added(id: 4, after: 3)])
        queue.change(to: [1, 2, 3, 4, 5, 6], [.added(id: 5, after: 4), .added(id: 6, after: 5), .metadataChanged(id: 2)])
        #expect(queue.idsRead == 0)
        queue.expectSameAnswers()
        // Entry 2 was queued before the versions began: how clients saw it is not known, so its retag counts.
        #expect(queue.applied.changes(since: 2).map(\.id) == [2, 5, 6])
        queue.change(to: nil, [.metadataChanged(id: 2)])
        #expect(queue.applied.changes(since: 3).isEmpty, "a retag to the same look is no change")
    }

    @Test func insertionsAndRemovalsAreAppliedAsEdits() {
        let queue = Followers(Array(1...6))
        queue.change(to: [1, 9, 2, 3, 4, 5, 6], [.added(id: 9, after: 1)])
        #expect(queue.applied.changes(since: 1).map(\.id) == [9, 2, 3, 4, 5, 6], "an insertion moves the entries after it")
        queue.change(to: [1, 9, 2, 4, 5, 6], [.removed(id: 3)])
        queue.change(to: [10, 11, 1, 9, 2, 4, 5], [.added(id: 10, after: nil), .added(id: 11, after: 10), .removed(id: 6)])
        // Added and removed in the same change: the entries around it did not move.
        queue.change(to: [10, 11, 1, 9, 2, 4, 5], [.added(id: 12, after: 9), .removed(id: 12)])
        queue.change(to: [10, 11, 1, 9, 4, 2, 5], [.removed(id: 2), .added(id: 2, after: 4)])
        #expect(queue.idsRead == 0)
        queue.expectSameAnswers()
        #expect(queue.applied.changes(since: queue.applied.version - 1).map(\.id) == [4, 2])
    }

    @Test func aReplacementOrManyEditsReadTheQueue() {
        let queue = Followers([1, 2, 3])
        queue.change(to: [3, 1, 2], [.replaced])
        #expect(queue.idsRead == 1)
        let many = Array(100..<(100 + MPDQueueVersions.editsAppliedAtMost + 1))
        queue.change(to: [3] + many + [1, 2], zip(many, [3] + many).map { TrackListChange.added(id: $0, after: $1) })
        #expect(queue.idsRead == 2)
        queue.change(to: [3, 1, 2], many.map { .removed(id: $0) })
        #expect(queue.idsRead == 3)
        queue.expectSameAnswers()
    }

    @Test func anAppendWhoseLengthDisagreesReadsTheQueue() {
        let queue = Followers([1, 2, 3])
        // Entry 1 went without an edit in the same change: the length tells.
        queue.change(to: [2, 3, 4], [.added(id: 4, after: 3)])
        #expect(queue.idsRead == 1)
        queue.expectSameAnswers()
        #expect(queue.applied.changes(since: 1).map(\.id) == [2, 3, 4])
    }

    @Test func aRetagWithoutAMoveReadsNothing() {
        let queue = Followers([1, 2, 3])
        queue.hashes[2] = 99
        queue.change(to: nil, [.metadataChanged(id: 2)])
        #expect(queue.idsRead == 0)
        queue.expectSameAnswers()
        #expect(queue.applied.changes(since: 1).map(\.id) == [2])
    }
}

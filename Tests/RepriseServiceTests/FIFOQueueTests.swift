import LoopKit
import Testing

/// The queue the workers and the metadata reader take from: first in, first out, across interleaved appends and
/// takes and its compaction, and a long drain in one go (what `removeFirst()` made quadratic).
@Suite struct FIFOQueueTests {
    @Test func takesInOrderAcrossCompaction() {
        var queue = FIFOQueue<Int>()
        var expected: [Int] = [], taken: [Int] = [], next = 0
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 20) { queue.append(next); expected.append(next); next += 1 }
            for _ in 0..<(round % 5 + 18) { if let value = queue.popFirst() { taken.append(value) } }
            #expect(queue.count == expected.count - taken.count && queue.elements == Array(expected[taken.count...]))
        }
        while let value = queue.popFirst() { taken.append(value) }
        #expect(taken == expected && queue.isEmpty && queue.popFirst() == nil)
        queue.append(contentsOf: [1, 2])
        queue.removeAll()
        #expect(queue.isEmpty)
    }

    @Test func aMillionAreDrainedOneByOne() {
        var queue = FIFOQueue<(id: Int, uri: String)>()
        queue.append(contentsOf: (0..<1_000_000).map { ($0, "file:///m/\($0).ogg") })
        var sum = 0
        while let entry = queue.popFirst() { sum += entry.id }
        #expect(sum == 999_999 * 1_000_000 / 2)
    }
}

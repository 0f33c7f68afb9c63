import Testing
@testable import RepriseCore

@Suite struct RankedListTests {
    /// Thousands of random inserts, removals and lookups agree with a plain array doing the same.
    @Test func agreesWithAnArrayUnderRandomEdits() {
        var generator = SplitMixGenerator(seed: 42)
        var list = RankedList()
        var model: [Int] = []
        var nextID = 0
        for step in 0..<20_000 {
            let choice = Int.random(in: 0..<10, using: &generator)
            if choice < 6 || model.isEmpty {
                let index = Int.random(in: 0...model.count, using: &generator)
                list.insert(nextID, at: index)
                model.insert(nextID, at: index)
                nextID += 1
            } else if choice < 9 {
                let id = model.remove(at: Int.random(in: 0..<model.count, using: &generator))
                let removed = list.remove(id)
                #expect(removed)
            } else {
                list.append(nextID)
                model.append(nextID)
                nextID += 1
            }
            if step % 500 == 0 || step == 19_999 {
                #expect(list.ids == model)
                for (index, id) in model.enumerated() where index % 7 == 0 {
                    #expect(list.index(of: id) == index && list.id(at: index) == id)
                }
            }
        }
        let removedUnknown = list.remove(-1)
        #expect(list.count == model.count && !removedUnknown && list.index(of: -1) == nil)
        #expect(RankedList(model).ids == model)
    }

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        var original = RankedList([1, 2, 3])
        var copy = original
        copy.insert(9, at: 1)
        copy.remove(3)
        #expect(original.ids == [1, 2, 3] && copy.ids == [1, 9, 2])
        original.removeAll()
        #expect(copy.ids == [1, 9, 2] && original.isEmpty)
    }

    @Test func aQueueCopyIsAValue() {
        var queue = PlayQueue()
        queue.append(["file:///a", "file:///b"])
        let snapshot = queue
        _ = queue.insert("file:///c", after: nil)
        queue.remove(id: 1)
        #expect(snapshot.entries.map(\.uri) == ["file:///a", "file:///b"] && snapshot.current?.uri == "file:///a")
        #expect(queue.entries.map(\.uri) == ["file:///c", "file:///b"])
    }
}

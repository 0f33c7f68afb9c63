/// A sequence of distinct ids where inserting, removing, finding an id's index and the id at an index all take
/// O(log n) expected time: a treap ordered by position (each node knows its subtree's size and its parent).
/// ``PlayQueue`` keeps its list order and its play order in two of these, so editing a queue of 200,000 entries
/// costs about what editing one of 20 does. A value type: a copy that is changed gets its own nodes first.
struct RankedList: @unchecked Sendable {
    private final class Node {
        let id: Int
        let priority: UInt64
        var size = 1
        var left: Node?
        var right: Node?
        /// Not a weak reference (each would cost the node a side table): a node's parent owns it, and every
        /// edit below resets the parent of each node it moves and clears it on each root.
        unowned(unsafe) var parent: Node?

        init(id: Int, priority: UInt64) {
            self.id = id
            self.priority = priority
        }

        func update() {
            size = 1 + (left?.size ?? 0) + (right?.size ?? 0)
            left?.parent = self
            right?.parent = self
        }
    }

    /// The tree, shared between copies until one of them changes.
    private final class Storage {
        var root: Node?
        var nodes: [Int: Node] = [:]
        var random = SplitMixGenerator(seed: 0x5EED)
    }

    private var storage = Storage()
    private var root: Node? {
        get { storage.root }
        set { storage.root = newValue }
    }
    private var nodes: [Int: Node] {
        get { storage.nodes }
        _modify { yield &storage.nodes }
        set { storage.nodes = newValue }
    }

    /// Gives this copy its own tree before it changes (copy on write).
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        let copy = RankedList(ids, seed: storage.random)
        storage = copy.storage
    }

    init() {}

    /// A list of `ids` in that order, built in O(n).
    init(_ ids: [Int]) { self.init(ids, seed: SplitMixGenerator(seed: 0x5EED)) }

    private init(_ ids: [Int], seed: SplitMixGenerator) {
        storage.random = seed
        root = Self.build(ids, random: &storage.random, nodes: &nodes)
    }

    /// A tree of new nodes for `ids` in that order, built in O(n) (each registered in `nodes`); its root's parent is nil.
    private static func build(_ ids: [Int], random: inout SplitMixGenerator, nodes: inout [Int: Node]) -> Node? {
        nodes.reserveCapacity(nodes.count + ids.count)
        var spine: [Node] = []
        for id in ids {
            let node = Node(id: id, priority: random.next())
            nodes[id] = node
            var last: Node?
            while let top = spine.last, top.priority < node.priority { last = spine.removeLast() }
            node.left = last
            spine.last?.right = node
            spine.append(node)
        }
        let root = spine.first
        computeSizes(root)
        root?.parent = nil
        return root
    }

    var count: Int { root?.size ?? 0 }
    var isEmpty: Bool { root == nil }
    func contains(_ id: Int) -> Bool { nodes[id] != nil }

    /// The ids in order.
    var ids: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        var stack: [Node] = []
        var node = root
        while node != nil || !stack.isEmpty {
            while let current = node {
                stack.append(current)
                node = current.left
            }
            let next = stack.removeLast()
            result.append(next.id)
            node = next.right
        }
        return result
    }

    var first: Int? { count > 0 ? id(at: 0) : nil }
    var last: Int? { count > 0 ? id(at: count - 1) : nil }

    /// The index of `id`, or nil when it is not in the list.
    func index(of id: Int) -> Int? {
        guard var node = nodes[id] else { return nil }
        var index = node.left?.size ?? 0
        while let parent = node.parent {
            if parent.right === node { index += (parent.left?.size ?? 0) + 1 }
            node = parent
        }
        return index
    }

    /// The id at `index` (0 ..< count).
    func id(at index: Int) -> Int {
        precondition(index >= 0 && index < count, "index out of range")
        var node = root!
        var index = index
        while true {
            let leftSize = node.left?.size ?? 0
            if index < leftSize {
                node = node.left!
            } else if index == leftSize {
                return node.id
            } else {
                index -= leftSize + 1
                node = node.right!
            }
        }
    }

    /// Inserts `id` (not in the list yet) so that it ends up at `index` (0 ... count).
    mutating func insert(_ id: Int, at index: Int) {
        precondition(nodes[id] == nil && index >= 0 && index <= count, "bad insert")
        makeUnique()
        let node = Node(id: id, priority: storage.random.next())
        nodes[id] = node
        let (left, right) = Self.split(root, index)
        root = Self.merge(Self.merge(left, node), right)
        root?.parent = nil
    }

    mutating func append(_ id: Int) { insert(id, at: count) }

    /// Appends `ids` in order (see ``insert(contentsOf:at:)``).
    mutating func append(contentsOf ids: [Int]) { insert(contentsOf: ids, at: count) }

    /// Inserts `ids` (none in the list yet), in order, so that the first ends up at `index` (0 ... count), in
    /// O(k + log n) expected: the new ids are built into a tree of their own, which is merged in at `index`.
    mutating func insert(contentsOf ids: [Int], at index: Int) {
        precondition(index >= 0 && index <= count, "bad insert")
        guard ids.count > 1 else {
            if let id = ids.first { insert(id, at: index) }
            return
        }
        makeUnique()
        let added = Self.build(ids, random: &storage.random, nodes: &nodes)
        let (left, right) = Self.split(root, index)
        root = Self.merge(Self.merge(left, added), right)
        root?.parent = nil
    }

    /// Removes `id`; false when it was not in the list.
    @discardableResult
    mutating func remove(_ id: Int) -> Bool {
        guard let index = index(of: id) else { return false }
        makeUnique()
        nodes[id] = nil
        let (left, rest) = Self.split(root, index)
        let (_, right) = Self.split(rest, 1)
        root = Self.merge(left, right)
        root?.parent = nil
        return true
    }

    mutating func removeAll() { storage = Storage() }

    // MARK: Treap internals (recursion depth is the tree's height: O(log n) expected)

    /// The first `count` nodes and the rest, as two trees (their roots' parents cleared).
    private static func split(_ node: Node?, _ count: Int) -> (Node?, Node?) {
        guard let node else { return (nil, nil) }
        let leftSize = node.left?.size ?? 0
        if count <= leftSize {
            let (left, right) = split(node.left, count)
            node.left = right
            node.update()
            left?.parent = nil
            node.parent = nil
            return (left, node)
        } else {
            let (left, right) = split(node.right, count - leftSize - 1)
            node.right = left
            node.update()
            right?.parent = nil
            node.parent = nil
            return (node, right)
        }
    }

    /// `a` followed by `b`.
    private static func merge(_ a: Node?, _ b: Node?) -> Node? {
        guard let a else { return b }
        guard let b else { return a }
        if a.priority > b.priority {
            a.right = merge(a.right, b)
            a.update()
            return a
        } else {
            b.left = merge(a, b.left)
            b.update()
            return b
        }
    }

    /// Sizes and parents of a freshly built tree, bottom up, without recursion.
    private static func computeSizes(_ root: Node?) {
        guard let root else { return }
        var stack: [Node] = [root]
        var postOrder: [Node] = []
        while let node = stack.popLast() {
            postOrder.append(node)
            if let left = node.left { stack.append(left) }
            if let right = node.right { stack.append(right) }
        }
        for node in postOrder.reversed() { node.update() }
    }
}

/// A small, fast, seedable generator (SplitMix64) for the treap's priorities.
struct SplitMixGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

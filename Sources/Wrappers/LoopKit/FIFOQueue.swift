/// A first-in, first-out queue whose take is O(1) amortised. An array's `removeFirst()` moves every element after
/// the one taken, so draining n items that way costs n² (thousands of files waiting for a reader, thousands of work
/// items waiting for a worker while the loop wants to hand over one more).
public struct FIFOQueue<Element> {
    private var items: [Element?] = []
    private var head = 0

    public init() {}

    public var isEmpty: Bool { head == items.count }
    public var count: Int { items.count - head }

    public mutating func append(_ element: Element) { items.append(element) }

    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        items.append(contentsOf: elements.lazy.map { Optional($0) })
    }

    /// The oldest element, taken out; nil when empty. What is taken is let go at once (a closure's captures too).
    public mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let element = items[head]
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head) // once per as many takes as there are elements left: O(1) amortised
            head = 0
        }
        return element
    }

    public mutating func removeAll() {
        items.removeAll()
        head = 0
    }

    /// The elements waiting, oldest first.
    public var elements: [Element] { items[head...].map { $0! } }
}

extension FIFOQueue: Sendable where Element: Sendable {}

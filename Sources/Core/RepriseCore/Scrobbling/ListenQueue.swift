/// The listens not yet accepted by the server, oldest first: no listen twice, at most ``capacity`` (months of
/// listening offline; past that the oldest go, counted in ``dropped`` and logged, never silently). Written to disk
/// as one JSON payload item per line, the format ListenBrainz takes; read back as hostile input.
public struct ListenQueue: Sendable {
    public static let defaultCapacity = 50_000
    public let capacity: Int
    public private(set) var listens: [Listen] = []
    /// Listens pushed out by newer ones since the queue was made.
    public private(set) var dropped = 0
    private var keys: Set<Listen.Key> = []

    public init(capacity: Int = ListenQueue.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    public var count: Int { listens.count }
    public var isEmpty: Bool { listens.isEmpty }

    /// Adds `listen` unless it is queued already; false when it was.
    @discardableResult
    public mutating func add(_ listen: Listen) -> Bool {
        guard keys.insert(listen.key).inserted else { return false }
        listens.append(listen)
        trimToCapacity()
        return true
    }

    /// Forgets listens the server accepted (or refused for good).
    public mutating func remove(_ sent: [Listen]) {
        let gone = Set(sent.map(\.key))
        guard !gone.isEmpty else { return }
        listens.removeAll { gone.contains($0.key) }
        keys.subtract(gone)
    }

    /// The oldest listens, at most `count`.
    public func first(_ count: Int) -> [Listen] { Array(listens.prefix(count)) }

    // MARK: The file

    /// One line of the queue file.
    public static func line(for listen: Listen) -> String {
        listen.json(client: "Reprise", version: RepriseVersion.current).text + "\n"
    }

    /// The whole queue file's text.
    public var fileText: String { listens.map(Self.line(for:)).joined() }

    /// The most bytes a queue file may have: every line at ListenBrainz's largest, a line's worth to spare.
    public static func largestFile(capacity: Int) -> Int {
        capacity.multipliedReportingOverflow(by: Listen.maximumEncodedLength + 1).partialValue
    }

    /// What a queue file held: the queue and how many lines were not listens (a torn last line after a crash,
    /// damage, hostile text). Linear in the file's size: every listen is gathered first and the oldest beyond
    /// ``capacity`` go at once (one `removeFirst` per listen over it made 120,000 listens take seconds).
    /// `isCancelled` is asked every thousand lines; nil when it said so (the service is stopping).
    public static func reading(_ bytes: [UInt8], capacity: Int = ListenQueue.defaultCapacity,
                               isCancelled: () -> Bool = { false }) -> (queue: ListenQueue, refusedLines: Int)? {
        var queue = ListenQueue(capacity: capacity)
        var refused = 0
        var lines = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            lines += 1
            if lines % 1000 == 0, isCancelled() { return nil }
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
            guard line.count <= Listen.maximumEncodedLength, let value = JSONValue(parsing: Array(line)),
                  let listen = Listen(json: value) else {
                refused += 1
                continue
            }
            if queue.keys.insert(listen.key).inserted { queue.listens.append(listen) }
        }
        queue.trimToCapacity()
        return (queue, refused)
    }

    /// Gives up the oldest listens beyond ``capacity``, in one step.
    private mutating func trimToCapacity() {
        guard listens.count > capacity else { return }
        let excess = listens.count - capacity
        for old in listens[..<excess] { keys.remove(old.key) }
        listens.removeFirst(excess)
        dropped += excess
    }
}

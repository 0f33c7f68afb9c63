/// One entry of the play queue.
public struct QueueEntry: Sendable, Equatable {
    /// Unique for the life of the process; never reused.
    public let id: Int
    public let uri: String
    public var tags = TrackTags()
    public var lengthMicroseconds: Int64?
    public var artURL: String?
    /// Its tags, length and art have been read in the background (or could not be).
    public var isDescribed = false
    /// Entries expanded from one directory argument share a group, sorted by album, disc and track once described.
    public var group: Int?
    /// What `NAME.reprise.json` beside the file says (title, subtitle, description, interstitials); read when
    /// the entry is first loaded.
    public var sidecar: MediaSidecar?

    public init(id: Int, uri: String) {
        self.id = id
        self.uri = uri
    }
}

/// The ordered list of entries, the play order (shuffled or not) and the current entry.
public struct PlayQueue: Sendable {
    public private(set) var entries: [QueueEntry] = []
    /// Index into `entries` of each entry id, so lookups by id stay O(1) in long queues.
    private var indexByID: [Int: Int] = [:]
    /// Indices into `entries` in the order they play.
    private var order: [Int] = []
    /// Index into `order` of the current entry.
    public private(set) var currentPosition: Int?
    private var nextID = 1
    public private(set) var isShuffled = false
    /// Ids of the entries that were current before, oldest first (what actually played, for Previous under shuffle).
    /// Ids of removed entries are skipped when read.
    public private(set) var history: [Int] = []
    static let historyLimit = 1000

    /// The most entries the queue holds: at this size every reply and signal (Tracks, TrackListReplaced, the whole
    /// queue's metadata) stays well inside D-Bus's message limits.
    public static let maximumCount = 200_000
    /// The most bytes of URIs the queue holds (with ``MediaLocation/maximumURILength`` per URI).
    public static let maximumURIBytes = 32 << 20
    /// Bytes of all queued URIs.
    public private(set) var uriBytes = 0

    public init() {}

    /// How many of `uris`, from the first, fit in the queue as it is.
    public func room<C: Collection<String>>(for uris: C) -> Int {
        var count = 0, bytes = uriBytes
        for uri in uris {
            bytes += uri.utf8.count
            guard entries.count + count < Self.maximumCount, bytes <= Self.maximumURIBytes else { break }
            count += 1
        }
        return count
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public var current: QueueEntry? {
        currentPosition.map { entries[order[$0]] }
    }

    /// Appends entries at the end of the list and of the play order; the first becomes current if none is.
    @discardableResult
    public mutating func append(_ uris: [String], group: Int? = nil) -> [Int] {
        uris.map { uri in
            let id = makeID()
            var entry = QueueEntry(id: id, uri: uri)
            entry.group = group
            uriBytes += uri.utf8.count
            entries.append(entry)
            indexByID[id] = entries.count - 1
            order.append(entries.count - 1)
            if currentPosition == nil { currentPosition = order.count - 1 }
            return id
        }
    }

    /// Inserts an entry right after the current one (in list and play order); returns its id and play-order position.
    public mutating func insertAfterCurrent(_ uri: String) -> (id: Int, position: Int) {
        guard let current else { return insert(uri, atListIndex: entries.count, orderIndex: order.count) }
        return insert(uri, after: current.id)!
    }

    /// Inserts an entry after entry `after` (in list and play order), or at the start when `after` is nil.
    /// Returns nil when `after` is not in the queue.
    public mutating func insert(_ uri: String, after: Int?) -> (id: Int, position: Int)? {
        guard let after else { return insert(uri, atListIndex: 0, orderIndex: 0) }
        guard let listIndex = indexByID[after], let orderIndex = order.firstIndex(of: listIndex) else {
            return nil
        }
        return insert(uri, atListIndex: listIndex + 1, orderIndex: orderIndex + 1)
    }

    private mutating func insert(_ uri: String, atListIndex listIndex: Int, orderIndex: Int) -> (id: Int, position: Int) {
        let id = makeID()
        uriBytes += uri.utf8.count
        entries.insert(QueueEntry(id: id, uri: uri), at: listIndex)
        reindex(from: listIndex)
        order = order.map { $0 >= listIndex ? $0 + 1 : $0 }
        order.insert(listIndex, at: orderIndex)
        if let position = currentPosition, position >= orderIndex { currentPosition = position + 1 }
        if currentPosition == nil { currentPosition = orderIndex }
        return (id, orderIndex)
    }

    /// The play-order position after the current one, wrapping around when `wrap` is set.
    public func nextPosition(wrap: Bool) -> Int? {
        guard let position = currentPosition else { return order.isEmpty ? nil : 0 }
        if position + 1 < order.count { return position + 1 }
        return wrap ? 0 : nil
    }

    public func previousPosition(wrap: Bool) -> Int? {
        guard let position = currentPosition else { return nil }
        if position > 0 { return position - 1 }
        return wrap && !order.isEmpty ? order.count - 1 : nil
    }

    /// Makes the entry at play-order `position` current; the one it replaces joins the history unless `remember` is false.
    public mutating func move(to position: Int, remember: Bool = true) {
        precondition(order.indices.contains(position), "queue position out of range")
        if remember, let current, order[position] != order[currentPosition!] {
            history.append(current.id)
            if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        }
        currentPosition = position
    }

    /// The play-order position of the entry that was current last (still queued), if any.
    public var lastPlayedPosition: Int? {
        for id in history.reversed() { if let position = position(of: id) { return position } }
        return nil
    }

    /// Goes back to the entry that was current last, taking it (and removed entries after it) off the history.
    public mutating func moveBackInHistory() -> Bool {
        while let id = history.popLast() {
            if let position = position(of: id) {
                currentPosition = position
                return true
            }
        }
        return false
    }

    /// Entries that were current before, most recent last, skipping removed ones.
    public var playedEntries: [QueueEntry] { history.compactMap { entry(withID: $0) } }

    public func entry(atPosition position: Int) -> QueueEntry? {
        order.indices.contains(position) ? entries[order[position]] : nil
    }

    public func entry(withID id: Int) -> QueueEntry? { indexByID[id].map { entries[$0] } }

    /// The play-order position of entry `id`.
    public func position(of id: Int) -> Int? {
        guard let index = indexByID[id] else { return nil }
        return order.firstIndex(of: index)
    }

    /// Removes entry `id`. The current entry stays current; removing it makes the one after it current.
    @discardableResult
    public mutating func remove(id: Int) -> Bool {
        guard let index = indexByID[id], let removedPosition = order.firstIndex(of: index) else {
            return false
        }
        uriBytes -= entries[index].uri.utf8.count
        entries.remove(at: index)
        indexByID[id] = nil
        reindex(from: index)
        order.remove(at: removedPosition)
        order = order.map { $0 > index ? $0 - 1 : $0 }
        if let position = currentPosition {
            if order.isEmpty {
                currentPosition = nil
            } else if removedPosition < position {
                currentPosition = position - 1
            } else if removedPosition == position {
                currentPosition = min(position, order.count - 1)
            }
        }
        return true
    }

    public mutating func update(id: Int, _ change: (inout QueueEntry) -> Void) {
        guard let index = indexByID[id] else { return }
        change(&entries[index])
    }

    private mutating func reindex(from start: Int) {
        for index in start..<entries.count { indexByID[entries[index].id] = index }
    }

    /// Empties the queue and its history; shuffle is off afterwards. Ids are still never reused.
    public mutating func removeAll() {
        entries.removeAll()
        uriBytes = 0
        indexByID.removeAll()
        order.removeAll()
        currentPosition = nil
        history.removeAll()
        isShuffled = false
    }

    /// Puts the entries `sortedIDs` in that order, in the list slots they occupy now; the current entry stays
    /// current and, under shuffle, every entry keeps its place in the play order.
    public mutating func rearrange(_ sortedIDs: [Int]) {
        let oldSlots = sortedIDs.compactMap { indexByID[$0] }
        guard oldSlots.count == sortedIDs.count, Set(oldSlots).count == oldSlots.count else { return }
        let slots = oldSlots.sorted()
        let moved = oldSlots.map { entries[$0] }
        let currentIndex = currentPosition.map { order[$0] }
        var newIndexOfOld: [Int: Int] = [:]
        for (k, oldSlot) in oldSlots.enumerated() {
            newIndexOfOld[oldSlot] = slots[k]
            entries[slots[k]] = moved[k]
            indexByID[moved[k].id] = slots[k]
        }
        if isShuffled {
            order = order.map { newIndexOfOld[$0] ?? $0 }
        } else if let currentIndex {
            currentPosition = newIndexOfOld[currentIndex] ?? currentIndex
        }
    }

    /// Turns shuffle on (the current entry first, the rest in random order) or off (list order).
    public mutating func setShuffled<R: RandomNumberGenerator>(_ shuffled: Bool, using generator: inout R) {
        guard shuffled != isShuffled else { return }
        isShuffled = shuffled
        let currentIndex = currentPosition.map { order[$0] }
        if shuffled {
            var rest = Array(entries.indices).filter { $0 != currentIndex }
            rest.shuffle(using: &generator)
            order = (currentIndex.map { [$0] } ?? []) + rest
            currentPosition = currentIndex == nil ? nil : 0
        } else {
            order = Array(entries.indices)
            currentPosition = currentIndex
        }
    }

    /// Entries in the order they will play.
    public var playOrder: [QueueEntry] { order.map { entries[$0] } }

    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}

/// One entry of the play queue. What is read about it later (tags, length, art, sidecar) lives in a shared box
/// until it is written, so an entry that has not been described yet costs a few words (the queue holds up to
/// 200,000 of them).
public struct QueueEntry: Sendable, Equatable {
    /// Unique for the life of the process; never reused.
    public let id: Int
    public let uri: String
    /// Its tags, length and art have been read in the background (or could not be).
    public var isDescribed = false
    /// Entries expanded from one directory argument share a group, sorted by album, disc and track once described.
    public var group: Int?
    private var details: Details?

    public init(id: Int, uri: String) {
        self.id = id
        self.uri = uri
    }

    public var tags: TrackTags {
        get { details?.tags ?? TrackTags() }
        set { changeDetails { $0.tags = newValue } }
    }

    /// The length it plays: the medium's, or its range's (see ``range``).
    public var lengthMicroseconds: Int64? {
        guard let range else { return mediumLengthMicroseconds }
        return range.length(ofMedium: mediumLengthMicroseconds)
    }

    /// The length of the whole medium, as read or as the pipeline found it.
    public var mediumLengthMicroseconds: Int64? {
        get { details?.lengthMicroseconds }
        set { changeDetails { $0.lengthMicroseconds = newValue } }
    }

    /// The part of the medium it plays (nil: all of it), as MPD's `rangeid` sets it.
    public var range: PlayRange? {
        get { details?.values.range }
        set { changeDetails { $0.range = newValue } }
    }

    /// How early it plays under shuffle (MPD's priority, 0 to 255; 0 by default): higher ones first.
    public var priority: Int {
        get { details?.values.priority ?? 0 }
        set { changeDetails { $0.priority = newValue } }
    }

    /// When its file last changed and how its audio is encoded, as read with its tags (nil: not a file, or not read).
    public var fileFacts: FileFacts? {
        get { details?.values.fileFacts }
        set { changeDetails { $0.fileFacts = newValue } }
    }

    public var artURL: String? {
        get { details?.artURL }
        set { changeDetails { $0.artURL = newValue } }
    }

    /// The tags and length are what the saved state said (a restart's first answers): the file, once read, replaces
    /// them instead of being merged under them.
    public var hasSavedDescription: Bool {
        get { details?.hasSavedDescription ?? false }
        set { changeDetails { $0.hasSavedDescription = newValue } }
    }

    /// What `NAME.reprise.json` beside the file says (title, subtitle, description, interstitials); read when
    /// the entry is first loaded.
    public var sidecar: MediaSidecar? {
        get { details?.sidecar }
        set { changeDetails { $0.sidecar = newValue } }
    }

    public static func == (a: QueueEntry, b: QueueEntry) -> Bool {
        a.id == b.id && a.uri == b.uri && a.isDescribed == b.isDescribed && a.group == b.group
            && (a.details === b.details || a.details?.values == b.details?.values)
    }

    /// Changes the details in this entry's own box (copied first when another entry shares it).
    private mutating func changeDetails(_ change: (inout Details.Values) -> Void) {
        if isKnownUniquelyReferenced(&details) {
            change(&details!.values)
        } else {
            var values = details?.values ?? Details.Values()
            change(&values)
            details = Details(values)
        }
    }

    /// The box (immutable once shared: a write to a shared box makes a new one).
    private final class Details: @unchecked Sendable {
        struct Values: Equatable {
            var hasSavedDescription = false
            var tags = TrackTags()
            var lengthMicroseconds: Int64?
            var artURL: String?
            var fileFacts: FileFacts?
            var sidecar: MediaSidecar?
            var range: PlayRange?
            var priority = 0
        }
        var values: Values
        init(_ values: Values) { self.values = values }
        var tags: TrackTags { values.tags }
        var lengthMicroseconds: Int64? { values.lengthMicroseconds }
        var artURL: String? { values.artURL }
        var sidecar: MediaSidecar? { values.sidecar }
        var hasSavedDescription: Bool { values.hasSavedDescription }
    }
}

/// The ordered list of entries, the play order (shuffled or not) and the current entry. Lookups and edits by id
/// or position take O(log n) (two ``RankedList``s: list order and play order); whole-queue reads are O(n).
public struct PlayQueue: Sendable {
    private var byID: [Int: QueueEntry] = [:] { didSet { version &+= 1 } }
    /// Entry ids in list order.
    private var list = RankedList() { didSet { version &+= 1; listVersion &+= 1 } }
    /// Entry ids in the order they play.
    private var order = RankedList() { didSet { version &+= 1 } }
    /// Counts every edit of the entries (added, removed, moved, reordered, their details): the same version, the
    /// same queue (MPD's playlist version). Moving to another entry is no edit.
    public private(set) var version: UInt32 = 0
    /// Counts edits of the list order alone (added, removed, moved, reordered): the same, the same ``ids``.
    public private(set) var listVersion: UInt32 = 0
    /// The current entry's id.
    private var currentID: Int?
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
            guard self.count + count < Self.maximumCount, bytes <= Self.maximumURIBytes else { break }
            count += 1
        }
        return count
    }

    public var isEmpty: Bool { byID.isEmpty }
    public var count: Int { byID.count }

    /// The entries in list order (O(n)).
    public var entries: [QueueEntry] { list.ids.map { byID[$0]! } }

    /// The entries' ids in list order (O(n), without copying the entries).
    public var ids: [Int] { list.ids }

    /// The entries' URIs in list order (O(n), without copying the entries).
    public var uris: [String] { list.ids.map { byID[$0]!.uri } }
    /// The entries that play part of their medium, by list index.
    public var ranges: [Int: PlayRange] {
        var ranges: [Int: PlayRange] = [:]
        for (index, id) in list.ids.enumerated() { if let range = byID[id]!.range { ranges[index] = range } }
        return ranges
    }

    /// The entries' priorities other than 0, by list index.
    public var priorities: [Int: Int] {
        var priorities: [Int: Int] = [:]
        for (index, id) in list.ids.enumerated() where byID[id]!.priority != 0 { priorities[index] = byID[id]!.priority }
        return priorities
    }

    /// The last entry's id in list order.
    public var lastEntryID: Int? { list.last }

    /// The list index of entry `id`.
    public func listIndex(of id: Int) -> Int? { list.index(of: id) }

    /// The entry at list index `index`.
    public func entry(atListIndex index: Int) -> QueueEntry? {
        index >= 0 && index < list.count ? byID[list.id(at: index)] : nil
    }

    public var current: QueueEntry? { currentID.flatMap { byID[$0] } }

    /// Index into the play order of the current entry.
    public var currentPosition: Int? { currentID.flatMap { order.index(of: $0) } }

    /// Appends entries at the end of the list and of the play order; the first becomes current if none is.
    @discardableResult
    public mutating func append(_ uris: [String], group: Int? = nil) -> [Int] {
        byID.reserveCapacity(byID.count + uris.count)
        let ids = uris.map { uri in
            let id = makeID()
            var entry = QueueEntry(id: id, uri: uri)
            entry.group = group
            uriBytes += uri.utf8.count
            byID[id] = entry
            return id
        }
        list.append(contentsOf: ids)
        order.append(contentsOf: ids)
        if currentID == nil { currentID = ids.first }
        return ids
    }

    /// Inserts an entry right after the current one (in list and play order); returns its id and play-order position.
    public mutating func insertAfterCurrent(_ uri: String) -> (id: Int, position: Int) {
        guard let current else { return insert(uri, atListIndex: list.count, orderIndex: order.count) }
        return insert(uri, after: current.id)!
    }

    /// Inserts an entry after entry `after` (in list and play order), or at the start when `after` is nil.
    /// Returns nil when `after` is not in the queue.
    public mutating func insert(_ uri: String, after: Int?) -> (id: Int, position: Int)? {
        guard let after else { return insert(uri, atListIndex: 0, orderIndex: 0) }
        guard let listIndex = list.index(of: after), let orderIndex = order.index(of: after) else { return nil }
        return insert(uri, atListIndex: listIndex + 1, orderIndex: orderIndex + 1)
    }

    /// Inserts entries for `uris`, in order, after entry `after` (nil: at the start), in O(k log n) or, for many, O(n).
    /// Returns their ids and the first one's play-order position; nil when `after` is not in the queue.
    public mutating func insert(_ uris: [String], after: Int?) -> (ids: [Int], position: Int)? {
        var listIndex = 0, orderIndex = 0
        if let after {
            guard let afterList = list.index(of: after), let afterOrder = order.index(of: after) else { return nil }
            (listIndex, orderIndex) = (afterList + 1, afterOrder + 1)
        }
        byID.reserveCapacity(byID.count + uris.count)
        let ids = uris.map { uri in
            let id = makeID()
            uriBytes += uri.utf8.count
            byID[id] = QueueEntry(id: id, uri: uri)
            return id
        }
        list.insert(contentsOf: ids, at: listIndex)
        order.insert(contentsOf: ids, at: orderIndex)
        if currentID == nil { currentID = ids.first }
        return (ids, orderIndex)
    }

    private mutating func insert(_ uri: String, atListIndex listIndex: Int, orderIndex: Int) -> (id: Int, position: Int) {
        let id = makeID()
        uriBytes += uri.utf8.count
        byID[id] = QueueEntry(id: id, uri: uri)
        list.insert(id, at: listIndex)
        order.insert(id, at: orderIndex)
        if currentID == nil { currentID = id }
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
        precondition(position >= 0 && position < order.count, "queue position out of range")
        let id = order.id(at: position)
        if remember, let currentID, currentID != id {
            history.append(currentID)
            if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        }
        currentID = id
    }

    /// The play-order position of the entry that was current last (still queued), if any.
    public var lastPlayedPosition: Int? {
        for id in history.reversed() { if let position = position(of: id) { return position } }
        return nil
    }

    /// Goes back to the entry that was current last, taking it (and removed entries after it) off the history.
    public mutating func moveBackInHistory() -> Bool {
        while let id = history.popLast() {
            if byID[id] != nil {
                currentID = id
                return true
            }
        }
        return false
    }

    /// Entries that were current before, most recent last, skipping removed ones.
    public var playedEntries: [QueueEntry] { history.compactMap { entry(withID: $0) } }

    public func entry(atPosition position: Int) -> QueueEntry? {
        position >= 0 && position < order.count ? byID[order.id(at: position)] : nil
    }

    public func entry(withID id: Int) -> QueueEntry? { byID[id] }

    /// The play-order position of entry `id`.
    public func position(of id: Int) -> Int? { order.index(of: id) }

    /// Removes entry `id`. The current entry stays current; removing it makes the one after it (in play order)
    /// current, or the new last one when it was last.
    @discardableResult
    public mutating func remove(id: Int) -> Bool {
        guard let entry = byID[id], let removedPosition = order.index(of: id) else { return false }
        uriBytes -= entry.uri.utf8.count
        byID[id] = nil
        list.remove(id)
        order.remove(id)
        if currentID == id {
            currentID = order.isEmpty ? nil : order.id(at: min(removedPosition, order.count - 1))
        }
        return true
    }

    public mutating func update(id: Int, _ change: (inout QueueEntry) -> Void) {
        guard byID[id] != nil else { return }
        change(&byID[id]!)
    }

    /// Empties the queue and its history; shuffle is off afterwards. Ids are still never reused.
    public mutating func removeAll() {
        byID.removeAll()
        list.removeAll()
        order.removeAll()
        currentID = nil
        uriBytes = 0
        history.removeAll()
        // Shuffle is a mode of playback, not of these entries: it stays on for what is added next.
    }

    /// Puts the entries `sortedIDs` in that order, in the list slots they occupy now; the current entry stays
    /// current and, under shuffle, every entry keeps its place in the play order.
    public mutating func rearrange(_ sortedIDs: [Int]) {
        let oldSlots = sortedIDs.compactMap { list.index(of: $0) }
        guard oldSlots.count == sortedIDs.count, Set(oldSlots).count == oldSlots.count else { return }
        var ids = list.ids
        for (slot, id) in zip(oldSlots.sorted(), sortedIDs) { ids[slot] = id }
        list = RankedList(ids)
        if !isShuffled { order = RankedList(ids) }
    }

    /// Under shuffle, puts the entries still to play (those after the current one in the play order) in groups by
    /// `rank`, highest first, each group keeping its order (MPD's priorities). Without shuffle the list order plays.
    public mutating func playFirst(rankedBy rank: (Int) -> Int) {
        guard isShuffled else { return }
        var ids = order.ids
        let start = currentID.flatMap { order.index(of: $0) }.map { $0 + 1 } ?? 0
        let upcoming = ids[start...].enumerated()
            .map { (offset: $0.offset, id: $0.element, rank: rank($0.element)) }
            .sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.offset < $1.offset }
            .map(\.id)
        guard !upcoming.elementsEqual(ids[start...]) else { return }
        ids.replaceSubrange(start..., with: upcoming)
        order = RankedList(ids)
    }

    /// Turns shuffle on (the current entry first, the rest in random order) or off (list order).
    public mutating func setShuffled<R: RandomNumberGenerator>(_ shuffled: Bool, using generator: inout R) {
        guard shuffled != isShuffled else { return }
        isShuffled = shuffled
        if shuffled {
            var rest = list.ids.filter { $0 != currentID }
            rest.shuffle(using: &generator)
            order = RankedList((currentID.map { [$0] } ?? []) + rest)
        } else {
            order = RankedList(list.ids)
        }
    }

    /// Entries in the order they will play.
    public var playOrder: [QueueEntry] { order.ids.map { byID[$0]! } }

    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}

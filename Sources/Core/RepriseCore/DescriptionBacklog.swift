/// Which entries still need their tags, length and cover read in the background, which are being read,
/// and how many entries of each directory group are still unread (a group is sorted once all are read).
struct DescriptionBacklog {
    private var pending: [Int] = []
    private var head = 0
    private(set) var inFlight: Set<Int> = []
    private var unreadByGroup: [Int: Int] = [:]
    private var nextGroup = 1

    /// A new directory group of `count` entries.
    mutating func makeGroup(count: Int) -> Int {
        defer { nextGroup += 1 }
        unreadByGroup[nextGroup] = count
        return nextGroup
    }

    mutating func add(_ ids: [Int]) { pending += ids }

    /// The next entry to read: `current` first when it is unread, then entries in the order they were added.
    mutating func take(preferring current: QueueEntry?, in queue: PlayQueue) -> QueueEntry? {
        if let current, !current.isDescribed, !inFlight.contains(current.id) {
            inFlight.insert(current.id)
            return current
        }
        while head < pending.count {
            let id = pending[head]
            head += 1
            if let entry = queue.entry(withID: id), !entry.isDescribed, !inFlight.contains(id) {
                inFlight.insert(id)
                return entry
            }
        }
        pending.removeAll()
        head = 0
        return nil
    }

    /// `entry` was read (or left the queue unread); returns its group when that was the group's last unread entry.
    mutating func finish(_ entry: QueueEntry) -> Int? {
        inFlight.remove(entry.id)
        guard !entry.isDescribed, let group = entry.group, let unread = unreadByGroup[group] else { return nil }
        guard unread > 1 else {
            unreadByGroup[group] = nil
            return group
        }
        unreadByGroup[group] = unread - 1
        return nil
    }

    /// Entry `id` left the queue while it was being read.
    mutating func cancel(_ id: Int) { inFlight.remove(id) }

    mutating func reset() { self = DescriptionBacklog() }
}

/// How the queue is played — MPD's repeat, single and consume, which MPRIS's LoopStatus is a view of — kept by the
/// ``Player`` so that every surface and the saved state see the same modes (each entry's priority is the entry's
/// own, ``QueueEntry/priority``). Single without repeat is "stop after this song".
public struct PlayModes: Equatable, Sendable {
    /// An entry playback moves away from leaves the queue; `oneshot`: once, then consume is off.
    public enum Consume: String, Sendable, CaseIterable {
        case off, on, oneshot
    }

    /// What follows when the entry playing ends by itself.
    public enum AtEnd: Equatable, Sendable {
        case playAgain, stop, next
    }

    /// The queue starts over after its end (with single: the entry does).
    public var repeats = false
    public var single = SingleMode.off
    public var consume = Consume.off

    public init(repeats: Bool = false, single: SingleMode = .off, consume: Consume = .off) {
        self.repeats = repeats
        self.single = single
        self.consume = consume
    }

    /// MPRIS's view: Track only when the entry repeats (repeat and single), Playlist when the queue does.
    public var loopStatus: LoopStatus { !repeats ? .none : single == .off ? .playlist : .track }

    /// Sets both modes as the loop status means them (None also ends a stop after this song).
    public mutating func setLoopStatus(_ loop: LoopStatus) {
        repeats = loop != .none
        single = loop == .track ? .on : .off
    }

    public var atEnd: AtEnd { single == .off ? .next : repeats ? .playAgain : .stop }

    /// The entry ended by itself (played again or stopped after): a `single oneshot` has had its one song.
    mutating func entryEnded() {
        if single == .oneshot { single = .off }
    }
}

/// MPD's `single`: after the entry ends, it plays again (with repeat) or playback stops (without); `oneshot`: for
/// this entry only.
public enum SingleMode: String, Sendable, CaseIterable {
    case off, on, oneshot
}

extension Player {
    /// Sets consume (published with the options).
    public func setConsume(_ mode: PlayModes.Consume) {
        transaction { modes.consume = mode }
    }

    /// What `single` is now.
    public var single: SingleMode { modes.single }

    /// Sets `single` (published with the options).
    public func setSingle(_ mode: SingleMode) {
        transaction { modes.single = mode }
    }

    /// Sets `repeat` (published with the options).
    public func setRepeat(_ on: Bool) {
        transaction { modes.repeats = on }
    }

    /// Sets the priority of entries `ids` (those not in the queue are passed over): under shuffle, the entries still
    /// to play go by priority, highest first. Returns the ids whose priority changed.
    @discardableResult
    public func setPriority(_ priority: Int, ofEntries ids: [Int]) -> [Int] {
        transaction {
            let changed = ids.filter { queue.entry(withID: $0).map { $0.priority != priority } ?? false }
            for id in changed {
                queue.update(id: id) { $0.priority = priority }
                pending.queueEdits.append(.priorityChanged(id: id))
            }
            if !changed.isEmpty { playByPriority() }
            return changed
        }
    }

    /// Under shuffle, the entries still to play go by priority, highest first.
    func playByPriority() {
        queue.playFirst { [queue] id in queue.entry(withID: id)?.priority ?? 0 }
    }

    /// What consume does at the end of a request or event that began at `before`: the entry playback moved away
    /// from leaves the queue (in the same change).
    func followQueueModes(from before: Snapshot) {
        let current = queue.current?.id
        if modes.consume != .off, let previous = before.current.currentID, previous != current,
           queue.entry(withID: previous) != nil {
            if modes.consume == .oneshot { modes.consume = .off }
            removeTrack(id: previous)
        }
    }
}

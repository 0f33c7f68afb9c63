/// How the queue is played beyond the loop status and shuffle — MPD's `consume` and `single oneshot` — kept by the
/// ``Player`` so that every surface and the saved state see the same modes (each entry's priority is the entry's
/// own, ``QueueEntry/priority``).
public struct QueueModes: Equatable, Sendable {
    /// An entry playback moves away from leaves the queue; `oneshot`: once, then consume is off.
    public enum Consume: String, Sendable, CaseIterable {
        case off, on, oneshot
    }

    /// `single oneshot` under way: the entry loops once more, then the loop status is `loopBefore` again.
    public struct SingleOneshot: Equatable, Sendable {
        public var loopBefore: LoopStatus
        /// The player's ``Player/loopRestarts`` when it was asked.
        var restarts: Int
    }

    public var consume = Consume.off
    public var singleOneshot: SingleOneshot?

    public init() {}
}

/// MPD's `single`: the entry repeats (``Player/loopStatus`` `.track`), once (`oneshot`), or not.
public enum SingleMode: String, Sendable {
    case off, on, oneshot
}

extension Player {
    /// Sets consume (published with the options).
    public func setConsume(_ mode: QueueModes.Consume) {
        transaction { queueModes.consume = mode }
    }

    /// What `single` is now.
    public var single: SingleMode { queueModes.singleOneshot != nil ? .oneshot : loopStatus == .track ? .on : .off }

    /// Sets `single`: on repeats the entry; off gives back the loop status from before a oneshot (else the list
    /// repeats); oneshot plays the entry once more (or, when it is not looping yet, to its end and again), then the
    /// loop status is what it was.
    public func setSingle(_ mode: SingleMode) {
        transaction {
            let before = queueModes.singleOneshot?.loopBefore
            queueModes.singleOneshot = nil
            switch mode {
            case .on: loopStatus = .track
            case .off: if loopStatus == .track { loopStatus = before ?? .playlist }
            case .oneshot:
                let previous = before ?? loopStatus
                queueModes.singleOneshot = .init(loopBefore: previous == .track ? .playlist : previous, restarts: loopRestarts)
                loopStatus = .track
            }
        }
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

    /// What the modes do at the end of a request or event that began at `before`: with consume, the entry playback
    /// moved away from leaves the queue (in the same change); a `single oneshot` whose entry started again (or
    /// whose loop status someone changed) ends.
    func followQueueModes(from before: Snapshot) {
        let current = queue.current?.id
        if queueModes.consume != .off, let previous = before.current.currentID, previous != current,
           queue.entry(withID: previous) != nil {
            if queueModes.consume == .oneshot { queueModes.consume = .off }
            removeTrack(id: previous)
        }
        if let oneshot = queueModes.singleOneshot {
            if loopStatus != .track {
                queueModes.singleOneshot = nil
            } else if loopRestarts != oneshot.restarts {
                queueModes.singleOneshot = nil
                loopStatus = oneshot.loopBefore
            }
        }
    }
}

extension Player {
    /// Turns crossfade on (seconds) or off (0); the next transition follows at once.
    public func setCrossfade(_ settings: CrossfadeSettings) {
        transaction { sound.crossfade = settings }
    }

    /// How the loaded entry should give way to the prepared one.
    func desiredCrossfadePlan() -> CrossfadePlan {
        var current: QueueEntry?
        if status != .stopped, let id = stream.loadedEntryID { current = queue.entry(withID: id) }
        let next = stream.preparedEntryID.flatMap { queue.entry(withID: $0) }
        return sound.crossfade.plan(current: current ?? queue.current, next: next)
    }
}

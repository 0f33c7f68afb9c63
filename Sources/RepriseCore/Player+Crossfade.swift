extension Player {
    /// Turns crossfade on (seconds) or off (0); the next transition follows at once.
    public func setCrossfade(_ settings: CrossfadeSettings) {
        transaction { crossfade = settings }
    }

    /// Tells the engine how the loaded entry gives way to the prepared one, when that changed.
    func applyCrossfadePlan() {
        var current: QueueEntry?
        if status != .stopped, let id = loadedEntryID { current = queue.entry(withID: id) }
        let next = preparedEntryID.flatMap { queue.entry(withID: $0) }
        let plan = crossfade.plan(current: current ?? queue.current, next: next)
        guard plan != sentCrossfadePlan else { return }
        sentCrossfadePlan = plan
        engine.setCrossfadePlan(plan)
    }
}

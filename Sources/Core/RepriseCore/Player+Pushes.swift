/// URIs a UPnP control point pushes through a renderer bridge (Rygel's MPRIS plugin turns SetAVTransportURI into
/// OpenUri). The control point is a network peer: what it may open is ``Player/rendererPushRules``. What it pushes is
/// a guest in the user's queue: loaded paused, as a renderer takes a URI (the control point's Play starts it), never
/// resumed where it was once left and never remembered for resume; the next push takes its place; it stops on its own
/// end. When it ends, fails, or anything else loads, it leaves the queue, and the user's entry and place are theirs
/// again as they were before the first push (stopped after an end, so the control point sees its track end).
extension Player {
    func openPushed(_ uri: String, completion: @escaping (PlayerError?) -> Void) {
        resolver.vet(uri, by: rendererPushRules) { [self] refusal in
            if let refusal {
                log.warning("refused a control point's URI: \(refusal)")
                return completion(.invalidArgument(refusal))
            }
            resolving([uri], completion) { [self] uris throws(PlayerError) in
                // One medium: a playlist would name files the rules never saw.
                guard uris.count == 1 else { throw .invalidArgument("a control point pushes one medium, not a playlist") }
                try checkRoom(for: uris, replacing: false)
                transaction { loadGuest(uris[0], completion: completion) }
            }
        }
    }

    private func loadGuest(_ uri: String, completion: @escaping (PlayerError?) -> Void) {
        let before = announcedTrack
        let previousGuest = requests.pushedEntryID.flatMap { queue.entry(withID: $0) != nil ? $0 : nil }
        // The user's state before the first push in a row; a push replacing a push keeps it.
        let host = previousGuest != nil ? requests.guestHost ?? Interruption(entryID: nil, status: .stopped, positionMicroseconds: 0)
            : Interruption(entryID: queue.current?.id, status: status, positionMicroseconds: positionMicroseconds)
        let anchor = previousGuest ?? queue.current?.id
        let inserted = insert([uri], after: anchor)
        guard let id = inserted.id, let position = inserted.position else { return completion(.invalidArgument("nothing to open")) }
        queue.move(to: position, remember: false)
        if let previousGuest, queue.remove(id: previousGuest) {
            pending.queueEdits.append(.removed(id: previousGuest))
            requests.pendingOpens.removeValue(forKey: previousGuest)?(nil)
            requests.interruptions.removeValue(forKey: previousGuest)
        }
        requests.pendingOpens[id] = completion
        requests.interruptions[id] = host
        requests.pushedEntryID = id
        requests.guestHost = host
        startLoading(playing: false, holding: before)
    }

    /// The pushed entry played to its end: it leaves, and the user's entry is current again, stopped, starting where
    /// the user was when it plays.
    func guestEnded(_ id: Int) {
        let host = requests.guestHost
        log.info("end of the pushed URI; stopping")
        unload()
        dismissGuest(id)
        guard let host, let entryID = host.entryID, let position = queue.position(of: entryID) else { return }
        queue.move(to: position, remember: false)
        requests.startPosition = (entryID, host.positionMicroseconds)
    }

    /// Takes the pushed entry `id` out of the queue (something else loaded, or it ended).
    func dismissGuest(_ id: Int) {
        requests.pushedEntryID = nil
        requests.guestHost = nil
        if queue.remove(id: id) { pending.queueEdits.append(.removed(id: id)) }
    }

    /// `state` without a pushed entry: the user's queue, entry and place, as a restart should find them.
    func withoutGuest(_ state: SavedState) -> SavedState {
        guard let guest = requests.pushedEntryID, let index = queue.listIndex(of: guest), index < state.uris.count else { return state }
        var kept = state
        kept.uris.remove(at: index)
        func shifted<Value>(_ values: [Int: Value]) -> [Int: Value] {
            Dictionary(uniqueKeysWithValues: values.compactMap { key, value in
                key == index ? nil : (key > index ? key - 1 : key, value)
            })
        }
        kept.ranges = shifted(state.ranges)
        kept.priorities = shifted(state.priorities)
        let host = requests.guestHost
        let hostEntry = host?.entryID.flatMap { queue.entry(withID: $0) }
        kept.currentIndex = hostEntry.flatMap { queue.listIndex(of: $0.id) }.map { $0 > index ? $0 - 1 : $0 }
        kept.positionMicroseconds = hostEntry == nil ? 0 : host?.positionMicroseconds ?? 0
        kept.currentTags = hostEntry.flatMap { $0.isDescribed || $0.hasSavedDescription ? $0.tags : nil }
        kept.currentLengthMicroseconds = kept.currentTags == nil ? nil : hostEntry?.mediumLengthMicroseconds
        let pushedURI = queue.entry(withID: guest)?.uri
        kept.resumePositions = state.resumePositions.filter { $0.uri != pushedURI || resumePositions.marks.contains($0) }
        return kept
    }
}

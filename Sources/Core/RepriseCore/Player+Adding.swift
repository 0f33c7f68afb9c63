/// Requests that add client URIs to the queue (MPRIS AddTrack and OpenUri, Reprise's OpenMedia, an activated
/// playlist). The URIs are resolved first: at once when that is quick, else by the ``MediaResolving`` resolver
/// (the service's reads playlists on a worker thread while the loop answers other calls). Resolving requests
/// finish in the order they came; each one's `completion` hears its outcome.
extension Player {
    /// Inserts `uri` after entry `after` (nil: at the start); with `makeCurrent` it plays at once.
    /// A playlist file inserts its entries, in order.
    public func addTrack(_ uri: String, after: Int?, makeCurrent: Bool, completion: @escaping (PlayerError?) -> Void) {
        if let after, queue.entry(withID: after) == nil {
            return completion(.invalidArgument("no track \(after) in the track list"))
        }
        resolving([uri], completion) { [self] uris throws(PlayerError) in
            if let after, queue.entry(withID: after) == nil {
                throw .invalidArgument("track \(after) was removed while \(uri) was read")
            }
            try checkRoom(for: uris, replacing: false)
            transaction {
                let before = announcedTrack
                let (first, position) = insert(uris, after: after)
                if makeCurrent, let position {
                    queue.move(to: position)
                    startLoading(playing: true, holding: before)
                }
                log.debug("added entry \(first.map(String.init) ?? "-") and \(uris.count - 1) more")
            }
            completion(nil)
        }
    }

    /// Adds `uri` after the current entry and plays it at once (a playlist: its entries, playing the first).
    /// `completion` hears whether it could be played.
    ///
    /// `pushedByRenderer`: a UPnP control point pushed it through a renderer bridge (Rygel's MPRIS plugin turns
    /// SetAVTransportURI into OpenUri): see ``openPushed(_:completion:)``.
    public func open(_ uri: String, pushedByRenderer: Bool = false, completion: @escaping (PlayerError?) -> Void) {
        if pushedByRenderer { return openPushed(uri, completion: completion) }
        resolving([uri], completion) { [self] uris throws(PlayerError) in
            try checkRoom(for: uris, replacing: false)
            transaction {
                let before = announcedTrack
                let interrupted = Interruption(entryID: queue.current?.id, status: status, positionMicroseconds: positionMicroseconds)
                let inserted = insert(uris, after: queue.current?.id)
                guard let id = inserted.id, let position = inserted.position else {
                    return completion(.invalidArgument("nothing to open"))
                }
                queue.move(to: position)
                requests.pendingOpens[id] = completion
                requests.interruptions[id] = interrupted
                startLoading(playing: true, holding: before)
            }
        }
    }

    /// Adds `uris` (playlists become their entries; the unplayable ones are logged and left out) at the end of
    /// the list, each announced with TrackAdded.
    /// `known`: what the library already read of some of them (queued described, not read again).
    public func appendTracks(_ uris: [String], known: [String: KnownDescription] = [:], completion: @escaping (PlayerError?) -> Void) {
        resolving(uris, completion) { [self] resolved throws(PlayerError) in
            try checkRoom(for: resolved, replacing: false)
            transaction { _ = insert(resolved, after: queue.lastEntryID, known: known) }
            completion(nil)
        }
    }

    /// Inserts `uris` in order after entry `after` (nil: at the start), as ``appendTracks(_:known:completion:)`` appends.
    public func insertTracks(_ uris: [String], after: Int?, known: [String: KnownDescription] = [:],
                             completion: @escaping (PlayerError?) -> Void) {
        if let after, queue.entry(withID: after) == nil {
            return completion(.invalidArgument("no track \(after) in the track list"))
        }
        resolving(uris, completion) { [self] resolved throws(PlayerError) in
            if let after, queue.entry(withID: after) == nil {
                throw .invalidArgument("track \(after) was removed while the tracks were read")
            }
            try checkRoom(for: resolved, replacing: false)
            transaction { _ = insert(resolved, after: after, known: known) }
            completion(nil)
        }
    }

    /// Replaces the queue with `uris` (playlists become their entries; the unplayable ones are logged and left
    /// out) and plays the first.
    public func replaceQueue(validating uris: [String], completion: @escaping (PlayerError?) -> Void) {
        resolving(uris, completion) { [self] resolved throws(PlayerError) in
            try checkRoom(for: resolved, replacing: true)
            replaceQueue(with: resolved)
            completion(nil)
        }
    }

    /// Resolves `uris`, then runs `carryOut` with the playable ones; when there are none, or `carryOut` refuses,
    /// `completion` hears why.
    func resolving(_ uris: [String], _ completion: @escaping (PlayerError?) -> Void,
                   carryOut: @escaping ([String]) throws(PlayerError) -> Void) {
        let finish: (MediaResolution) -> Void = { [self] resolution in
            resolution.problems.forEach { log.warning("skipping \($0)") }
            if resolution.moreProblems > 0 { log.warning("skipping \(resolution.moreProblems) more") }
            do throws(PlayerError) {
                try carryOut(try resolution.outcome.get())
            } catch {
                completion(error)
            }
        }
        let long = MediaResolution.mayTakeLong(uris)
        guard requests.resolutionsUnderWay > 0 || long else {
            return finish(MediaResolution(resolving: uris, in: fileSystem))
        }
        // Requests finish in order, so every one waits for the long ones before it: a client sending playlist
        // after playlist must not make everyone's next request wait for minutes.
        if long && requests.longResolutionsUnderWay >= Self.maximumLongResolutions {
            log.warning("refused to read more media while \(requests.longResolutionsUnderWay) playlists or long lists are read")
            return completion(.busy("already reading \(requests.longResolutionsUnderWay) playlists or long lists; ask again when they are done"))
        }
        requests.resolutionsUnderWay += 1
        if long { requests.longResolutionsUnderWay += 1 }
        resolver.resolve(uris) { [self] resolution in
            requests.resolutionsUnderWay -= 1
            if long { requests.longResolutionsUnderWay -= 1 }
            finish(resolution)
        }
    }

    /// How many playlists (or long lists of URIs) may wait to be read at once; more are refused as ``PlayerError/busy(_:)``.
    public static let maximumLongResolutions = 2
}

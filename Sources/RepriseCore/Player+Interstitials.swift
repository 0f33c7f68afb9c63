/// The media's sidecar (title, subtitle, description, interstitials) and the interstitial rules: Seek,
/// SetPosition and Next respect "no seeking within" and "no skipping past"; an allowed skip ends one early.
extension Player {
    /// Reads the entry's `NAME.reprise.json` the first time it loads, and starts its interstitial schedule afresh.
    func loadSidecar(of id: Int) {
        guard let entry = queue.entry(withID: id) else { return }
        if entry.sidecar == nil {
            let sidecar = MediaSidecar.read(for: entry.uri, in: fileSystem) { log.warning("sidecar \($0)") }
            if let sidecar {
                queue.update(id: id) { $0.sidecar = sidecar }
                pending.queueEdits.append(.metadataChanged(id: id))
                if !sidecar.interstitials.isEmpty { log.info("\(sidecar.interstitials.count) interstitials in \(entry.uri)") }
            }
        }
        interstitials = InterstitialSchedule(queue.entry(withID: id)?.sidecar?.interstitials ?? [])
        activeInterstitialIndex = nil
        interstitialPlayback.lastCheck = 0
    }

    /// Jumps to `target` unless an interstitial forbids it; one that may not be skipped plays first.
    func seekRespectingInterstitials(to target: Int64) {
        switch interstitials.decideSeek(from: positionMicroseconds, to: target) {
        case .allow(let position):
            jump(to: position)
        case .playInterstitialFirst(let start):
            log.info("seek to \(target / 1_000_000) s: the interstitial at \(start / 1_000_000) s plays first")
            jump(to: start)
            setActiveInterstitial(interstitials.active(at: start))
        case .refuse(let reason):
            log.info("seek refused: \(reason)")
        }
    }

    /// Whether the interstitial playing now may be skipped (``skipInterstitial()``).
    public var canSkipInterstitial: Bool { status != .stopped && interstitials.canSkip(at: positionMicroseconds) }

    /// Ends the interstitial playing now, if it has played long enough to be skipped.
    public func skipInterstitial() throws(PlayerError) {
        try transaction { () throws(PlayerError) in
            guard activeInterstitialIndex != nil || interstitials.active(at: positionMicroseconds) != nil else {
                throw .invalidArgument("no interstitial is playing")
            }
            guard let target = interstitials.skip(at: positionMicroseconds) else {
                throw .invalidArgument("this interstitial cannot be skipped yet")
            }
            jump(to: target)
            setActiveInterstitial(nil)
        }
    }

    /// Call a few times a second while playing: notices entering and leaving interstitials (announcing the
    /// change) and carries on to a seek's target once the interstitial it had to play first has ended.
    public func updateInterstitials() {
        guard !interstitials.interstitials.isEmpty, status != .stopped, stream.prerolled else { return }
        let position = positionMicroseconds
        let target = interstitials.advance(from: interstitialPlayback.lastCheck, to: position)
        interstitialPlayback.lastCheck = position
        let active = interstitials.active(at: position), skippable = canSkipInterstitial
        guard target != nil || active != activeInterstitialIndex || skippable != interstitialPlayback.announcedSkippable else { return }
        transaction {
            lastChangeAffectsSavedState = false
            if let target { jump(to: target) }
            setActiveInterstitial(target == nil ? active : interstitials.active(at: target!))
            interstitialPlayback.announcedSkippable = canSkipInterstitial
        }
    }

    private func setActiveInterstitial(_ index: Int?) {
        guard index != activeInterstitialIndex else { return }
        activeInterstitialIndex = index
        if let index { log.info("\(interstitials.name(index)) begins") }
    }
}

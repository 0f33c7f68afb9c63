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
        interstitialPlayback.schedule = InterstitialSchedule(queue.entry(withID: id)?.sidecar?.interstitials ?? [])
        interstitialPlayback.active = nil
        interstitialPlayback.lastCheck = 0
    }

    /// Jumps to `target` unless an interstitial forbids it; one that may not be skipped plays first.
    func seekRespectingInterstitials(to target: Int64) {
        switch interstitialPlayback.schedule.decideSeek(from: positionMicroseconds, to: target) {
        case .allow(let position):
            jump(to: position)
        case .playInterstitialFirst(let start):
            log.info("seek to \(target / 1_000_000) s: the interstitial at \(start / 1_000_000) s plays first")
            jump(to: start)
            setActiveInterstitial(interstitialPlayback.schedule.active(at: start))
        case .refuse(let reason):
            log.info("seek refused: \(reason)")
        }
    }

    /// Whether the interstitial playing now may be skipped (``skipInterstitial()``).
    public var canSkipInterstitial: Bool { status != .stopped && interstitialPlayback.schedule.canSkip(at: positionMicroseconds) }

    /// Ends the interstitial playing now, if it has played long enough to be skipped.
    public func skipInterstitial() throws(PlayerError) {
        try transaction { () throws(PlayerError) in
            guard interstitialPlayback.active != nil || interstitialPlayback.schedule.active(at: positionMicroseconds) != nil else {
                throw .invalidArgument("no interstitial is playing")
            }
            guard let target = interstitialPlayback.schedule.skip(at: positionMicroseconds) else {
                throw .invalidArgument("this interstitial cannot be skipped yet")
            }
            jump(to: target)
            setActiveInterstitial(nil)
        }
    }

    /// Call a few times a second while playing: notices entering and leaving interstitials (announcing the
    /// change) and carries on to a seek's target once the interstitial it had to play first has ended.
    public func updateInterstitials() {
        guard !interstitialPlayback.schedule.interstitials.isEmpty, status != .stopped, stream.prerolled else { return }
        let position = positionMicroseconds
        let target = interstitialPlayback.schedule.advance(from: interstitialPlayback.lastCheck, to: position)
        interstitialPlayback.lastCheck = position
        let active = interstitialPlayback.schedule.active(at: position), skippable = canSkipInterstitial
        guard target != nil || active != interstitialPlayback.active || skippable != interstitialPlayback.announcedSkippable else { return }
        transaction {
            pending.affectsSavedState = false
            if let target { jump(to: target) }
            setActiveInterstitial(target == nil ? active : interstitialPlayback.schedule.active(at: target!))
            interstitialPlayback.announcedSkippable = canSkipInterstitial
        }
    }

    private func setActiveInterstitial(_ index: Int?) {
        guard index != interstitialPlayback.active else { return }
        interstitialPlayback.active = index
        if let index { log.info("\(interstitialPlayback.schedule.name(index)) begins") }
    }
}

/// The audio-session policy (docs/AUDIO-POLICY.md) as a state machine: events in, decisions out. It knows only
/// what events tell it; whether Reprise is playing is passed with each event. Pure logic, unit-tested on its own.
public struct AudioPolicy: Sendable {
    public private(set) var category: AudioCategory = .playback
    public private(set) var options: AudioOptions = []
    public private(set) var silent = false
    public private(set) var locked = false
    /// What keeps the current resumable interruption going: "cork" (a sound-server request) and "call:<stream>".
    private var interruptionSources: Set<String> = []
    /// Reprise was playing when the interruption began and the user has not acted since.
    private var resumeWhenInterruptionEnds = false
    private var shortSounds: Set<Int> = []
    private var ducked = false
    private var muted = false
    /// Other MPRIS players playing now, and those Reprise paused (to resume with notifyOthersOnDeactivation).
    private var othersPlaying: Set<String> = []
    public private(set) var othersPausedByReprise: [String] = []
    /// Other clients' streams are lowered (duckOthers) while Reprise plays.
    public private(set) var isLoweringOthers = false
    /// Other clients' streams are muted (soloAmbient) while Reprise plays.
    public private(set) var isSilencingOthers = false

    public init() {}

    public var isInterrupted: Bool { !interruptionSources.isEmpty }
    public var isMuted: Bool { muted }
    public var isDucked: Bool { ducked }

    /// Whether Reprise's audio plays along with other players' (else it pauses them, and they pause it).
    public var mixesWithOthers: Bool {
        category == .ambient || options.contains(.mixWithOthers) || options.contains(.duckOthers)
    }

    /// Changes the category and options; returns what that changes now (muting under silent mode, lowering others).
    public mutating func configure(category: AudioCategory, options: AudioOptions, playing: Bool) -> [PolicyDecision] {
        self.category = category
        self.options = options
        var decisions = applySilentMode()
        if isLoweringOthers && !options.contains(.duckOthers) {
            isLoweringOthers = false
            decisions.append(.restoreOtherStreams)
        } else if playing && !isLoweringOthers && options.contains(.duckOthers) {
            isLoweringOthers = true
            decisions.append(.lowerOtherStreams)
        }
        if isSilencingOthers && category != .soloAmbient {
            isSilencingOthers = false
            decisions.append(.unmuteOtherStreams)
        } else if playing && !isSilencingOthers && category == .soloAmbient {
            isSilencingOthers = true
            decisions.append(.muteOtherStreams)
        }
        return decisions
    }

    /// What to do about `event`; `playing` is whether Reprise is playing when it happens.
    public mutating func handle(_ event: PolicyEvent, playing: Bool) -> [PolicyDecision] {
        switch event {
        case .userPlayed, .userPaused, .userStopped, .userChangedTrack:
            // The user decided: an interruption in progress no longer resumes by itself.
            resumeWhenInterruptionEnds = false
            return []
        case .playbackStarted:
            return started()
        case .playbackEnded:
            return ended()
        case .corkRequested:
            return beginInterruption(source: "cork", playing: playing)
        case .uncorkRequested:
            return endInterruption(source: "cork", playing: playing)
        case .callStarted(let stream):
            return beginInterruption(source: "call:\(stream)", playing: playing)
        case .callEnded(let stream):
            return endInterruption(source: "call:\(stream)", playing: playing)
        case .shortSoundStarted(let stream):
            shortSounds.insert(stream)
            guard playing, !ducked else { return [] }
            ducked = true
            return [.duck, .interruptionBegan(.ducking)]
        case .shortSoundEnded(let stream):
            shortSounds.remove(stream)
            guard shortSounds.isEmpty, ducked else { return [] }
            ducked = false
            return [.unduck, .interruptionEnded(.ducking, shouldResume: true)]
        case .otherPlayerStarted(let name):
            othersPlaying.insert(name)
            othersPausedByReprise.removeAll { $0 == name }
            guard playing, !mixesWithOthers else { return [] }
            resumeWhenInterruptionEnds = false
            return pause() + [.interruptionBegan(.nonResumable), .interruptionEnded(.nonResumable, shouldResume: false)]
        case .otherPlayerFoundPlaying(let name):
            othersPlaying.insert(name)
            guard playing else { return [] }
            return started()
        case .otherPlayerStopped(let name):
            othersPlaying.remove(name)
            return []
        case .outputAdded:
            return [.routeChanged(.newDeviceAvailable)]
        case .outputLost:
            resumeWhenInterruptionEnds = false
            // The server's cork bookkeeping stayed with the output that went: PulseAudio's role-cork never uncorks a
            // stream it corked there. A call still going on keeps the interruption through its own source.
            return (playing ? pause() : []) + [.routeChanged(.oldDeviceUnavailable)]
                + endInterruption(source: "cork", playing: false)
        case .silentModeChanged(let on):
            silent = on
            return applySilentMode()
        case .sessionLockChanged(let on):
            locked = on
            guard on, playing, category.stopsWhenLocked else { return [] }
            resumeWhenInterruptionEnds = false
            return pause()
        }
    }

    private mutating func started() -> [PolicyDecision] {
        var decisions: [PolicyDecision] = []
        if !mixesWithOthers && !othersPlaying.isEmpty {
            let names = othersPlaying.sorted()
            decisions.append(.pauseOthers(names))
            othersPausedByReprise += names.filter { !othersPausedByReprise.contains($0) }
        }
        if options.contains(.duckOthers) && !isLoweringOthers {
            isLoweringOthers = true
            decisions.append(.lowerOtherStreams)
        }
        if category == .soloAmbient && !isSilencingOthers {
            isSilencingOthers = true
            decisions.append(.muteOtherStreams)
        }
        return decisions
    }

    /// Reprise's audio ended on its own or by the user: put back what it changed in others.
    private mutating func ended() -> [PolicyDecision] {
        var decisions = restoreOthers()
        let paused = othersPausedByReprise
        othersPausedByReprise.removeAll()
        if options.contains(.notifyOthersOnDeactivation) && !paused.isEmpty { decisions.append(.resumeOthers(paused)) }
        return decisions
    }

    private mutating func restoreOthers() -> [PolicyDecision] {
        var decisions: [PolicyDecision] = []
        if isLoweringOthers {
            isLoweringOthers = false
            decisions.append(.restoreOtherStreams)
        }
        if isSilencingOthers {
            isSilencingOthers = false
            decisions.append(.unmuteOtherStreams)
        }
        return decisions
    }

    /// Pausing by policy also stops lowering other streams (Reprise is quiet now).
    private mutating func pause() -> [PolicyDecision] { [.pause] + restoreOthers() }

    private mutating func beginInterruption(source: String, playing: Bool) -> [PolicyDecision] {
        let first = interruptionSources.isEmpty
        interruptionSources.insert(source)
        guard first else { return [] }
        resumeWhenInterruptionEnds = playing
        return (playing ? pause() : []) + [.interruptionBegan(.resumable)]
    }

    private mutating func endInterruption(source: String, playing: Bool) -> [PolicyDecision] {
        // An uncork request with no interruption (PulseAudio sends them to paused streams too) changes nothing.
        guard interruptionSources.remove(source) != nil, interruptionSources.isEmpty else { return [] }
        let shouldResume = resumeWhenInterruptionEnds
        resumeWhenInterruptionEnds = false
        return (shouldResume && !playing ? [.resume] : []) + [.interruptionEnded(.resumable, shouldResume: shouldResume)]
    }

    private mutating func applySilentMode() -> [PolicyDecision] {
        let shouldMute = silent && category.isMutedWhileSilent
        guard shouldMute != muted else { return [] }
        muted = shouldMute
        return [shouldMute ? .mute : .unmute]
    }
}

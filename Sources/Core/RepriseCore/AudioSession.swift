/// An audio-session category: how Reprise's sound relates to everything else (see docs/AUDIO-POLICY.md).
public enum AudioCategory: String, Sendable, CaseIterable {
    case ambient, soloAmbient, playback, record, playAndRecord

    /// The PulseAudio `media.role` of the stream.
    public var streamRole: String {
        switch self {
        case .ambient, .soloAmbient: "game"
        case .playback: "music"
        case .record: "production"
        case .playAndRecord: "phone"
        }
    }

    /// Goes quiet while silent mode is on.
    public var isMutedWhileSilent: Bool { self == .ambient || self == .soloAmbient }

    /// Stops when the session is locked.
    public var stopsWhenLocked: Bool { self == .ambient || self == .soloAmbient }

    /// Parses a name case-insensitively ("playAndRecord", "playandrecord").
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = found
    }
}

/// Options that refine a category.
public struct AudioOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let mixWithOthers = AudioOptions(rawValue: 1)
    public static let duckOthers = AudioOptions(rawValue: 2)
    public static let notifyOthersOnDeactivation = AudioOptions(rawValue: 4)

    public static let named: [(name: String, option: AudioOptions)] = [
        ("mixWithOthers", .mixWithOthers), ("duckOthers", .duckOthers),
        ("notifyOthersOnDeactivation", .notifyOthersOnDeactivation),
    ]

    public var names: [String] { Self.named.filter { contains($0.option) }.map(\.name) }

    /// Parses option names (case-insensitive); throws naming the first unknown one.
    public init(names: [String]) throws(PlayerError) {
        var options: AudioOptions = []
        for name in names where !name.isEmpty {
            guard let found = Self.named.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw .invalidArgument("unknown audio option '\(name)' (known: \(Self.named.map(\.name).joined(separator: ", ")))")
            }
            options.insert(found.option)
        }
        self = options
    }
}

/// The kinds of interruption clients hear about.
public enum InterruptionKind: String, Sendable {
    /// A call or other high-priority stream: Reprise pauses and may resume when it ends.
    case resumable
    /// Another player started: Reprise pauses for good.
    case nonResumable = "non-resumable"
    /// A short sound: Reprise is lowered for its duration.
    case ducking
}

/// Why the output changed.
public enum RouteChangeReason: String, Sendable {
    case newDeviceAvailable = "new-device-available"
    case oldDeviceUnavailable = "old-device-unavailable"
    case userChoice = "user-choice"
}

/// Something that happened, as the policy needs to know it.
public enum PolicyEvent: Equatable, Sendable {
    /// The user pressed play, pause, stop or changed track (any client: MPRIS, CLI, keys).
    case userPlayed, userPaused, userStopped, userChangedTrack
    /// Reprise's audio started or stopped for any other reason than a policy decision.
    case playbackStarted, playbackEnded
    /// The sound server asked the stream to cork (pause) or uncork.
    case corkRequested, uncorkRequested
    /// A stream with a trigger role (a call) appeared on, or left, Reprise's output.
    case callStarted(stream: Int), callEnded(stream: Int)
    /// A short sound (event, a11y role) started or ended on Reprise's output.
    case shortSoundStarted(stream: Int), shortSoundEnded(stream: Int)
    /// Another MPRIS player started or stopped playing (by bus name).
    case otherPlayerStarted(String), otherPlayerStopped(String)
    /// Another player found playing already (when Reprise looked at the bus): Reprise is the newcomer.
    case otherPlayerFoundPlaying(String)
    /// A new output became the default and the stream followed.
    case outputAdded
    /// The output in use went away (removed, or its active port became unavailable).
    case outputLost
    case silentModeChanged(Bool)
    case sessionLockChanged(Bool)
}

/// What the policy wants done.
public enum PolicyDecision: Equatable, Sendable {
    case pause, resume, duck, unduck, mute, unmute
    /// Pause (or resume) these other MPRIS players.
    case pauseOthers([String]), resumeOthers([String])
    /// Lower other clients' streams (duckOthers) or put them back exactly.
    case lowerOtherStreams, restoreOtherStreams
    /// Silence other clients' streams (soloAmbient) or unmute the ones silenced.
    case muteOtherStreams, unmuteOtherStreams
    case interruptionBegan(InterruptionKind)
    case interruptionEnded(InterruptionKind, shouldResume: Bool)
    case routeChanged(RouteChangeReason)
}

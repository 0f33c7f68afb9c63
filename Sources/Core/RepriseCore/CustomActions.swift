/// A control beyond play/pause, previous and next (the seeds' "custom action"), as clients show it.
public struct CustomAction: Sendable, Equatable {
    public let id: String
    public let label: String
    /// A freedesktop icon name.
    public let icon: String
    public let enabled: Bool

    /// Picture in Picture for the video window (offered by the service while a video window is open).
    public static func pictureInPicture(isOn: Bool) -> CustomAction {
        CustomAction(id: "picture-in-picture", label: isOn ? "Leave Picture in Picture" : "Picture in Picture",
                     icon: "view-restore", enabled: true)
    }
}

/// Where controls go, as the seeds lay them out: a bottom row of at most five (custom · previous or custom ·
/// play/pause · next or custom · overflow or custom) and, when expanded, a top row of up to five custom actions.
public struct ControlLayout: Sendable, Equatable {
    public static let playPause = "play-pause", previous = "previous", next = "next", overflow = "overflow"
    public let bottomRow: [String]
    public let expandedRow: [String]

    /// Lays out `customIDs` (in order of importance) around the standard controls.
    public init(customIDs: [String], hasPrevious: Bool, hasNext: Bool) {
        var customs = customIDs[...]
        let total = customIDs.count + 1 + (hasPrevious ? 1 : 0) + (hasNext ? 1 : 0)
        var bottom: [String] = []
        if let first = customs.popFirst() { bottom.append(first) }
        if hasPrevious { bottom.append(Self.previous) } else if let custom = customs.popFirst() { bottom.append(custom) }
        bottom.append(Self.playPause)
        if hasNext { bottom.append(Self.next) } else if let custom = customs.popFirst() { bottom.append(custom) }
        if total > 5 { bottom.append(Self.overflow) } else if let custom = customs.popFirst() { bottom.append(custom) }
        bottomRow = bottom
        expandedRow = Array(customs.prefix(5))
    }
}

/// Reprise's built-in custom actions: skip back and forward 10 s, playback speed, repeat and shuffle.
/// They act through the player's ordinary requests (Seek, Rate, LoopStatus, Shuffle), so every client sees
/// the same result; none repurposes Previous or Next.
public enum CustomActions {
    /// The seeds' skip interval.
    public static let skipMicroseconds: Int64 = 10_000_000
    /// The speeds the speed action steps through: the system list.
    public static let speeds: [Double] = SpeedList.systemDefault

    public static func all(for player: Player) -> [CustomAction] {
        let hasMedia = player.canPlay
        // Chapter actions while what plays has chapters.
        let chapters = player.chapters.isEmpty ? [] : [
            CustomAction(id: "previous-chapter", label: "Previous chapter", icon: "media-skip-backward", enabled: player.canSeek),
            CustomAction(id: "next-chapter", label: "Next chapter", icon: "media-skip-forward",
                         enabled: player.canSeek && player.chapters.nextStart(after: player.positionMicroseconds) != nil),
        ]
        return [
            CustomAction(id: "skip-backward", label: "Back 10 s", icon: "media-seek-backward", enabled: player.canSeek),
            CustomAction(id: "skip-forward", label: "Forward 10 s", icon: "media-seek-forward", enabled: player.canSeek),
        ] + chapters + [
            CustomAction(id: "speed", label: "Speed \(speedLabel(player.rate))", icon: "speedometer", enabled: hasMedia),
            CustomAction(id: "repeat", label: "Repeat: \(repeatLabel(player.loopStatus))", icon: "media-playlist-repeat",
                         enabled: hasMedia),
            CustomAction(id: "shuffle", label: "Shuffle: \(player.shuffle ? "on" : "off")", icon: "media-playlist-shuffle",
                         enabled: hasMedia),
        ]
    }

    public static func layout(for player: Player) -> ControlLayout {
        ControlLayout(customIDs: all(for: player).map(\.id), hasPrevious: player.canGoPrevious, hasNext: player.canGoNext)
    }

    /// Carries out action `id`; unknown and disabled actions are refused.
    public static func invoke(_ id: String, on player: Player) throws(PlayerError) {
        guard let action = all(for: player).first(where: { $0.id == id }) else {
            throw .invalidArgument("no action '\(id)' (known: \(all(for: player).map(\.id).joined(separator: ", ")))")
        }
        guard action.enabled else { throw .unplayable("'\(id)' is not available now") }
        switch id {
        case "skip-backward": player.seek(by: -skipMicroseconds)
        case "skip-forward": player.seek(by: skipMicroseconds)
        case "speed": try player.setRate(nextSpeed(after: player.rate))
        case "repeat": player.setLoopStatus(nextLoopStatus(after: player.loopStatus))
        case "shuffle": player.setShuffle(!player.shuffle)
        case "previous-chapter": try player.previousChapter()
        case "next-chapter": try player.nextChapter()
        default: break
        }
    }

    /// The next speed in ``speeds`` (from any rate, the next one up; after the last, the first).
    public static func nextSpeed(after rate: Double) -> Double {
        speeds.first { $0 > rate + 0.001 } ?? speeds[0]
    }

    /// Off → all (Playlist) → one (Track) → off.
    public static func nextLoopStatus(after status: LoopStatus) -> LoopStatus {
        switch status {
        case .none: .playlist
        case .playlist: .track
        case .track: .none
        }
    }

    static func speedLabel(_ rate: Double) -> String {
        let text = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        return text + "×"
    }

    static func repeatLabel(_ status: LoopStatus) -> String {
        switch status {
        case .none: "off"
        case .playlist: "all"
        case .track: "one"
        }
    }
}

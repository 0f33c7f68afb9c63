/// How the engine goes from what plays to what follows.
public struct CrossfadePlan: Sendable, Equatable {
    /// Seconds the end of the current track overlaps the start of the prepared next one; nil: a gapless hand-over.
    public var nextOverlapSeconds: Double?
    /// Seconds a user's change of track (Next, Previous, GoTo…) fades out what played; nil: it cuts.
    public var userChangeFadeSeconds: Double?

    /// Gapless hand-overs, cuts on a user's change: crossfade off.
    public static let off = CrossfadePlan()
}

/// Crossfade between tracks: off (0) or the overlap in seconds. Tracks of one album that follow each other are
/// joined gaplessly instead, as are video and a track repeating itself.
public struct CrossfadeSettings: Sendable, Equatable {
    public var seconds: Double = 0

    /// What a crossfade may be set to (0 turns it off).
    public static let range: ClosedRange<Double> = 0.5...12
    /// How long a user's change of track fades out what played, when crossfade is on.
    public static let userChangeFadeSeconds = 0.3

    public init(seconds: Double = 0) { self.seconds = seconds }

    public var isOn: Bool { seconds > 0 }

    /// Parses "off", "0" or seconds within ``range`` ("4", "2.5", "3s").
    public static func seconds(_ text: String) throws(PlayerError) -> Double {
        var value = text.trimmingWhitespace().lowercased()
        if value == "off" || value == "none" { return 0 }
        if value.hasSuffix("s") { value.removeLast() }
        guard let seconds = Double(value.trimmingWhitespace()) else {
            throw .invalidArgument("crossfade must be off or seconds (\(range.lowerBound)–\(Int(range.upperBound))), not '\(text)'")
        }
        return try checked(seconds)
    }

    /// `seconds` when it is 0 or within ``range``.
    public static func checked(_ seconds: Double) throws(PlayerError) -> Double {
        guard seconds == 0 || range.contains(seconds) else {
            throw .invalidArgument("crossfade must be 0 (off) or between \(range.lowerBound) and \(Int(range.upperBound)) seconds")
        }
        return seconds
    }

    /// The plan while `current` plays with `next` prepared after it (nil: nothing follows).
    public func plan(current: QueueEntry?, next: QueueEntry?) -> CrossfadePlan {
        guard isOn, let current, !Self.isVideo(current.uri) else { return .off }
        var plan = CrossfadePlan(userChangeFadeSeconds: Self.userChangeFadeSeconds)
        if let next, next.id != current.id, !Self.isVideo(next.uri),
           AlbumKey(current.tags) == nil || AlbumKey(current.tags) != AlbumKey(next.tags) {
            plan.nextOverlapSeconds = seconds
        }
        return plan
    }

    /// Whether `uri` names a video file (by its extension): video never crossfades.
    public static func isVideo(_ uri: String) -> Bool {
        guard let name = MediaURI(uri)?.lastPathComponent, let dot = name.lastIndex(of: ".") else { return false }
        return MediaLocation.videoExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}

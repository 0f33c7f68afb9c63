/// How Reprise levels loudness between tracks, from the ReplayGain values in their tags (applied inside its own
/// pipeline, never to the sound server's stream volume).
public enum ReplayGainMode: String, CaseIterable, Sendable {
    /// No levelling: every track plays as recorded.
    case off
    /// Each track at its own gain.
    case track
    /// Each track at its album's gain (the album keeps its own dynamics).
    case album
    /// Album gain while an album plays in order, track gain under shuffle or in a mixed queue.
    case auto
}

/// Which gain a track plays at.
public enum ReplayGainKind: String, Sendable, Equatable {
    case none, track, album
}

/// The gain the pipeline applies to the current track, as it reported it.
public struct AppliedGain: Sendable, Equatable {
    public var kind: ReplayGainKind
    /// Decibels, pre-amplification and clipping prevention included (0 when levelling is off).
    public var decibels: Double
    /// From the library's measurement of the file's loudness (its tags carry none), not from tags.
    public var measured = false
}

/// The ReplayGain settings: the mode, a pre-amplification and the gain of tracks without ReplayGain tags.
public struct ReplayGainSettings: Sendable, Equatable {
    public var mode: ReplayGainMode = .auto
    /// Added to every tagged track's gain, in dB.
    public var preampDecibels = 0.0
    /// The gain of tracks without ReplayGain tags, in dB.
    public var fallbackDecibels = 0.0

    /// What pre-amplification and fallback may be set to.
    public static let decibelRange: ClosedRange<Double> = -15...15

    /// Parses a mode name (`off`, `track`, `album`, `auto`).
    public static func mode(named name: String) throws(PlayerError) -> ReplayGainMode {
        guard let mode = ReplayGainMode(rawValue: name.lowercased()) else {
            throw .invalidArgument("unknown ReplayGain mode '\(name)' (known: \(ReplayGainMode.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return mode
    }

    /// Parses decibels ("-6", "+3.5", "2 dB") within ``decibelRange``.
    public static func decibels(_ text: String, for what: String) throws(PlayerError) -> Double {
        var number = text.trimmingWhitespace().lowercased()
        if number.hasSuffix("db") { number = String(number.dropLast(2)).trimmingWhitespace() }
        if number.hasPrefix("+") { number.removeFirst() }
        guard let value = Double(number), value.isFinite else { throw .invalidArgument("\(what) must be a number of dB, not '\(text)'") }
        return try checked(value, for: what)
    }

    /// `value` when it lies within ``decibelRange``.
    public static func checked(_ value: Double, for what: String) throws(PlayerError) -> Double {
        guard value.isFinite, decibelRange.contains(value) else {
            throw .invalidArgument("\(what) must be between \(Int(decibelRange.lowerBound)) and \(Int(decibelRange.upperBound)) dB")
        }
        return value
    }

    /// The gain a track plays at: `current` and its neighbours in play order are their albums (nil: not known).
    /// In `auto`, album gain applies when the queue is in order and a neighbour belongs to the same album.
    public func kind(current: AlbumKey?, previous: AlbumKey?, next: AlbumKey?, shuffled: Bool) -> ReplayGainKind {
        switch mode {
        case .off: return .none
        case .track: return .track
        case .album: return .album
        case .auto:
            guard !shuffled, let current else { return .track }
            return previous == current || next == current ? .album : .track
        }
    }
}

/// What makes two tracks parts of one album: its title and whose album it is (album artist, else artist).
public struct AlbumKey: Hashable, Sendable {
    public let title: String
    public let artist: String

    /// Nil when the tags name no album.
    public init?(_ tags: TrackTags) {
        guard let album = tags.album?.trimmingWhitespace(), !album.isEmpty else { return nil }
        title = album.lowercased()
        artist = (tags.albumArtists.first ?? tags.artists.first ?? "").lowercased()
    }
}

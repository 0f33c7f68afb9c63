/// MPRIS playback status.
public enum PlaybackStatus: String, Sendable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"
}

/// MPRIS loop status.
public enum LoopStatus: String, Sendable, CaseIterable {
    case none = "None"
    case track = "Track"
    case playlist = "Playlist"
}

/// Why the player refused a request.
public enum PlayerError: Error, Equatable, Sendable {
    /// The argument can never be valid (NaN rate, unknown loop status…).
    case invalidArgument(String)
    /// The URI's scheme is not one the player reads.
    case unsupportedScheme(String)
    /// The media does not exist, cannot be read or cannot be decoded.
    case unplayable(String)
    /// Too much of the same work is already waiting (playlists being read): asked again later, it can succeed.
    case busy(String)

    public var message: String {
        switch self {
        case .invalidArgument(let m), .unsupportedScheme(let m), .unplayable(let m), .busy(let m): m
        }
    }
}

/// URI schemes the player accepts.
public enum SupportedSchemes {
    public static let all = ["file", "http", "https"]
}

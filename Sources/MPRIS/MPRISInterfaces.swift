import SDBus

/// Names and interface descriptions of MPRIS 2.2 as Reprise exports them.
public enum MPRIS {
    public static let objectPath = "/org/mpris/MediaPlayer2"
    public static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// Reprise's own name (another instance takes `.instance<PID>` after it).
    public static let repriseBusName = busNamePrefix + "reprise"
    public static let rootInterface = "org.mpris.MediaPlayer2"
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"
    public static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"
    public static let playlistsInterface = "org.mpris.MediaPlayer2.Playlists"
    /// Playlist ids live under Reprise's own path.
    public static let playlistPathPrefix = "/org/reprise/Reprise/Playlist/"
    /// Track ids live under Reprise's own path, never under /org/mpris.
    public static let trackPathPrefix = "/org/reprise/Reprise/Track/"
    public static let noTrackPath = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// The MPRIS object carries only the MPRIS interfaces (playerctld aborts on a PropertiesChanged for any
    /// other interface there); Reprise's own interfaces (app.reprise.*) live on this object instead.
    public static let repriseObjectPath = "/app/reprise/Reprise"

    /// The object an interface lives on: Reprise's own for app.reprise.*, the MPRIS object for the rest.
    public static func objectPath(for interface: String) -> String {
        interface.hasPrefix("app.reprise.") ? repriseObjectPath : objectPath
    }

    public static let root = InterfaceDescription(
        name: rootInterface,
        methods: [.init("Raise"), .init("Quit")],
        properties: [
            .init("CanQuit", "b"),
            .init("Fullscreen", "b", writable: true),
            .init("CanSetFullscreen", "b"),
            .init("CanRaise", "b"),
            .init("HasTrackList", "b"),
            .init("Identity", "s"),
            .init("DesktopEntry", "s"),
            .init("SupportedUriSchemes", "as"),
            .init("SupportedMimeTypes", "as"),
        ])

    public static let player = InterfaceDescription(
        name: playerInterface,
        methods: [
            .init("Next"), .init("Previous"), .init("Pause"), .init("PlayPause"), .init("Stop"), .init("Play"),
            .init("Seek", in: "x", ["Offset"]),
            .init("SetPosition", in: "ox", ["TrackId", "Position"]),
            .init("OpenUri", in: "s", ["Uri"]),
        ],
        properties: [
            .init("PlaybackStatus", "s"),
            .init("LoopStatus", "s", writable: true),
            .init("Rate", "d", writable: true),
            .init("Shuffle", "b", writable: true),
            .init("Metadata", "a{sv}"),
            .init("Volume", "d", writable: true),
            .init("Position", "x", emits: .none),
            .init("MinimumRate", "d"),
            .init("MaximumRate", "d"),
            .init("CanGoNext", "b"),
            .init("CanGoPrevious", "b"),
            .init("CanPlay", "b"),
            .init("CanPause", "b"),
            .init("CanSeek", "b"),
            .init("CanControl", "b", emits: .none),
        ],
        signals: [.init("Seeked", "x", ["Position"])])

    public static let trackList = InterfaceDescription(
        name: trackListInterface,
        methods: [
            .init("GetTracksMetadata", in: "ao", ["TrackIds"], out: "aa{sv}", ["Metadata"]),
            .init("AddTrack", in: "sob", ["Uri", "AfterTrack", "SetAsCurrent"]),
            .init("RemoveTrack", in: "o", ["TrackId"]),
            .init("GoTo", in: "o", ["TrackId"]),
        ],
        properties: [
            .init("Tracks", "ao", emits: .invalidation),
            .init("CanEditTracks", "b"),
        ],
        signals: [
            .init("TrackListReplaced", "aoo", ["Tracks", "CurrentTrack"]),
            .init("TrackAdded", "a{sv}o", ["Metadata", "AfterTrack"]),
            .init("TrackRemoved", "o", ["TrackId"]),
            .init("TrackMetadataChanged", "oa{sv}", ["TrackId", "Metadata"]),
        ])

    public static let playlists = InterfaceDescription(
        name: playlistsInterface,
        methods: [
            .init("ActivatePlaylist", in: "o", ["PlaylistId"]),
            .init("GetPlaylists", in: "uusb", ["Index", "MaxCount", "Order", "ReverseOrder"], out: "a(oss)", ["Playlists"]),
        ],
        properties: [
            .init("PlaylistCount", "u"),
            .init("Orderings", "as"),
            .init("ActivePlaylist", "(b(oss))"),
        ],
        signals: [.init("PlaylistChanged", "(oss)", ["Playlist"])])

    /// Player properties announced through PropertiesChanged (all but Position and CanControl).
    public static let announcedPlayerProperties = player.properties.filter { $0.emits == .change }.map(\.name)

    public static func trackPath(forEntry id: Int) -> String { trackPathPrefix + String(id) }

    /// The queue entry a track id names, or nil for anything that is not one of ours.
    public static func entryID(fromTrackPath path: String) -> Int? {
        guard path.hasPrefix(trackPathPrefix) else { return nil }
        return Int(path.dropFirst(trackPathPrefix.count))
    }
}

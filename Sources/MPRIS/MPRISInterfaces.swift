import BusInterfaces
import SDBus

/// Names and interface descriptions of MPRIS 2.2 as Reprise exports them.
public enum MPRIS {
    public static let objectPath = RepriseObjects.mprisPath
    public static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// Reprise's own name (another instance takes `.instance<PID>` after it).
    public static let repriseBusName = RepriseObjects.busName
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
    public static let repriseObjectPath = RepriseObjects.ownPath

    /// The object an interface lives on (``RepriseObjects/path(for:)``).
    public static func objectPath(for interface: String) -> String { RepriseObjects.path(for: interface) }

    public static let root = DBusInterfaces.orgMprisMediaPlayer2

    public static let player = DBusInterfaces.orgMprisMediaPlayer2Player

    public static let trackList = DBusInterfaces.orgMprisMediaPlayer2TrackList

    public static let playlists = DBusInterfaces.orgMprisMediaPlayer2Playlists

    /// Player properties announced through PropertiesChanged (all but Position and CanControl).
    public static let announcedPlayerProperties = player.properties.filter { $0.emits == .change }.map(\.name)

    public static func trackPath(forEntry id: Int) -> String { trackPathPrefix + String(id) }

    /// The queue entry a track id names, or nil for anything that is not one of ours.
    public static func entryID(fromTrackPath path: String) -> Int? {
        guard path.hasPrefix(trackPathPrefix) else { return nil }
        return Int(path.dropFirst(trackPathPrefix.count))
    }
}

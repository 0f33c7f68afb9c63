import BusInterfaces
import SDBus

/// Names and interface descriptions of MPRIS 2.2 as Reprise exports them.
public enum MPRIS {
    public static let busNamePrefix = "org.mpris.MediaPlayer2."
    public static let rootInterface = MediaPlayer2Export.interface
    public static let playerInterface = MediaPlayer2PlayerExport.interface
    public static let trackListInterface = MediaPlayer2TrackListExport.interface
    public static let playlistsInterface = MediaPlayer2PlaylistsExport.interface
    /// Playlist ids live under Reprise's own path.
    public static let playlistPathPrefix = "/org/reprise/Reprise/Playlist/"
    /// Track ids live under Reprise's own path, never under /org/mpris.
    public static let trackPathPrefix = "/org/reprise/Reprise/Track/"
    public static let noTrackPath = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
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

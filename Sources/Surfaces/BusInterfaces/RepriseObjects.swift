/// Where Reprise's objects live, the one place that says so (the service exports there, clients call there): the
/// MPRIS interfaces on the MPRIS object, Reprise's own (app.reprise.*) on an object of their own — playerctld aborts
/// on a PropertiesChanged for any other interface on the MPRIS object — and the desktop search providers and the
/// MediaServer2 tree on theirs.
public enum RepriseObjects {
    /// Reprise's name (another instance takes `.instance<PID>` after it).
    public static let busName = "org.mpris.MediaPlayer2.reprise"
    /// The MPRIS object: the spec's path, the same on every MPRIS player (the other players are called there too).
    public static let mprisPath = "/org/mpris/MediaPlayer2"
    public static let ownPath = "/app/reprise/Reprise"
    public static let searchProviderPath = "/app/reprise/SearchProvider"
    public static let krunnerPath = "/app/reprise/KRunner"
    public static let mediaServerRoot = "/org/gnome/UPnP/MediaServer2/Reprise"

    /// The object path that carries `interface` (the MPRIS object for everything else).
    public static func path(for interface: String) -> String {
        if interface.hasPrefix("app.reprise.") { return ownPath }
        if interface == "org.gnome.Shell.SearchProvider2" { return searchProviderPath }
        if interface == "org.kde.krunner1" { return krunnerPath }
        if interface.hasPrefix("org.gnome.UPnP.") { return mediaServerRoot }
        return mprisPath
    }
}

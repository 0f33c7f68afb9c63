/// Where Reprise's interfaces live, as a client addresses them: the MPRIS interfaces on the MPRIS object,
/// Reprise's own (app.reprise.*) on an object of their own.
public enum RepriseObjects {
    public static let busName = "org.mpris.MediaPlayer2.reprise"
    public static let mprisPath = "/org/mpris/MediaPlayer2"
    public static let ownPath = "/app/reprise/Reprise"

    /// The object path that carries `interface` (the MPRIS object for everything that is not app.reprise.*).
    public static func path(for interface: String) -> String {
        interface.hasPrefix("app.reprise.") ? ownPath : mprisPath
    }
}

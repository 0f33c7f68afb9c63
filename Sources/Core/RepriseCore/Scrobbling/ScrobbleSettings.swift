/// Where listens go: `scrobble = listenbrainz` (or off), `listenbrainz-url` (the public service by default; Maloja
/// and Koito under their own address), `listenbrainz-token-file` (a file of its own, mode 0600; by default
/// `$XDG_CONFIG_HOME/reprise/listenbrainz-token`).
public struct ScrobbleSettings: Sendable, Equatable {
    public var enabled = false
    public var url = ListenBrainz.defaultURL
    /// Absolute, or starting with `~/`; nil: the default file.
    public var tokenFile: String?

    public init() {}

    mutating func set(_ key: String, _ value: String) throws(PlayerError) -> Bool {
        switch key {
        case "scrobble":
            switch value.lowercased() {
            case "listenbrainz": enabled = true
            case "off", "none", "false", "no": enabled = false
            default: throw .invalidArgument("scrobble takes listenbrainz or off")
            }
        case "listenbrainz-url":
            guard ListenBrainz.isValidBase(value) else { throw .invalidArgument("listenbrainz-url must be an http:// or https:// address") }
            url = value
        case "listenbrainz-token-file":
            guard value.hasPrefix("/") || value.hasPrefix("~/"), !value.contains("\0"), value.utf8.count <= 4096 else {
                throw .invalidArgument("listenbrainz-token-file must be an absolute path (or ~/…)")
            }
            tokenFile = value
        default:
            return false
        }
        return true
    }
}

/// The MPD protocol server's settings (config keys `mpd`, `mpd-address`, `mpd-port`, `mpd-socket`,
/// `mpd-password-file`, `mpd-default-permissions`).
public struct MPDSettings: Sendable, Equatable {
    /// Whether the server runs (`mpd = off`: no).
    public var enabled = true
    /// The address to listen on: an IPv4 address, `localhost`, or `any`. Anything but loopback needs a password file.
    public var address = "127.0.0.1"
    /// The TCP port; 0: no TCP, the socket only.
    public var port = 6600
    /// The Unix socket's path (absolute, or `~/…`); nil: `$XDG_RUNTIME_DIR/reprise/mpd.socket`; "" none.
    public var socketPath: String?
    /// MPD's password file (lines `PASSWORD@read,add,control,admin`).
    public var passwordFile: String?
    /// What a client that sent no password may do: `read,add,control,admin` words.
    public var defaultPermissions = "read,add,control,admin"

    public init() {}

    /// Whether `address` is a loopback address (only the local machine reaches it).
    public var isLoopback: Bool { ["127.0.0.1", "localhost", "::1"].contains(address) || address.hasPrefix("127.") }

    mutating func set(_ key: String, _ value: String) throws(PlayerError) -> Bool {
        switch key {
        case "mpd":
            guard let on = AudioSettings.switchValue(value) else { throw .invalidArgument("mpd takes on or off") }
            enabled = on
        case "mpd-address":
            let valid = value == "any" || value == "localhost" || Self.isIPv4(value)
            guard valid else { throw .invalidArgument("mpd-address takes an IPv4 address, localhost or any") }
            address = value
        case "mpd-port":
            guard let number = Int(value), (0...65535).contains(number) else { throw .invalidArgument("mpd-port takes 0 to 65535") }
            port = number
        case "mpd-socket":
            guard value.isEmpty || value == "off" || Self.isPathSetting(value) else {
                throw .invalidArgument("mpd-socket takes an absolute path (or ~/…) or off")
            }
            socketPath = value == "off" ? "" : value
        case "mpd-password-file":
            guard Self.isPathSetting(value) else { throw .invalidArgument("mpd-password-file takes an absolute path (or ~/…)") }
            passwordFile = value
        case "mpd-default-permissions":
            let words = value.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }
            guard words.allSatisfy({ ["read", "add", "control", "player", "admin"].contains($0) }) else {
                throw .invalidArgument("mpd-default-permissions takes read, add, control and admin, separated by commas")
            }
            defaultPermissions = words.joined(separator: ",")
        default:
            return false
        }
        return true
    }

    private static func isPathSetting(_ value: String) -> Bool {
        (value.hasPrefix("/") || value.hasPrefix("~/")) && !value.contains("\0") && value.utf8.count <= 4096
    }

    private static func isIPv4(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in part.count <= 3 && UInt8(part) != nil }
    }
}

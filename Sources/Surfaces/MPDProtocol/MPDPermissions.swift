/// What a connection may do (MPD's permissions; its `player` permission is part of `control` here).
public struct MPDPermissions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let read = MPDPermissions(rawValue: 1 << 0)
    public static let add = MPDPermissions(rawValue: 1 << 1)
    public static let control = MPDPermissions(rawValue: 1 << 2)
    public static let admin = MPDPermissions(rawValue: 1 << 3)
    public static let all: MPDPermissions = [.read, .add, .control, .admin]

    /// Parses MPD's list, `read,add,control,admin` (`player` counts as `control`); nil for an unknown word.
    public init?(list: String) {
        self = []
        for word in list.split(separator: ",").map({ $0.filter { $0 != " " }.lowercased() }) where !word.isEmpty {
            switch word {
            case "read": insert(.read)
            case "add": insert(.add)
            case "control", "player": insert(.control)
            case "admin": insert(.admin)
            default: return nil
            }
        }
    }
}

/// The subsystems an `idle` waits on, in MPD's order (the order `changed:` lines come in).
public struct MPDIdle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let names = ["database", "stored_playlist", "playlist", "player", "mixer", "output", "options",
                               "sticker", "update", "subscription", "message", "neighbor", "mount", "partition"]

    public static let database = MPDIdle(rawValue: 1 << 0)
    public static let storedPlaylist = MPDIdle(rawValue: 1 << 1)
    public static let playlist = MPDIdle(rawValue: 1 << 2)
    public static let player = MPDIdle(rawValue: 1 << 3)
    public static let mixer = MPDIdle(rawValue: 1 << 4)
    public static let output = MPDIdle(rawValue: 1 << 5)
    public static let options = MPDIdle(rawValue: 1 << 6)
    public static let update = MPDIdle(rawValue: 1 << 8)
    public static let subscription = MPDIdle(rawValue: 1 << 9)
    public static let message = MPDIdle(rawValue: 1 << 10)
    public static let every = MPDIdle(rawValue: (1 << UInt16(names.count)) - 1)

    /// The subsystem called `name` (any case), nil for an unknown one.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name.lowercased()) else { return nil }
        self.init(rawValue: 1 << UInt16(index))
    }

    /// The names of the subsystems in this set, in MPD's order.
    public var names: [String] { Self.names.indices.filter { rawValue & (1 << UInt16($0)) != 0 }.map { Self.names[$0] } }
}

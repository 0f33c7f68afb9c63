import BusInterfaces
import MPRIS
import SDBus
import TestSupport

/// One generated call: where it goes and what it carries.
struct HostileCall {
    var path: String
    var interface: String
    var member: String
    var arguments: [DBusValue]
}

/// Generates hostile calls to every method and property of Reprise's interfaces: right signatures with
/// extreme values, wrong signatures, huge strings and arrays, unknown paths, interfaces and members.
/// Calls that legitimately end the service or replace its queue (Quit, Clear, OpenMedia without enqueue) are
/// left out, so what the run proves is that nothing else can.
struct HostileCalls {
    private var random: SplitMix
    /// URIs of hostile files and playlists (``HostileFiles``), used for a third of the strings.
    var fileURIs: [String] = []
    /// Object paths of the playlists Reprise lists, for ActivatePlaylist.
    var playlistPaths: [String] = []

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    /// Methods that end or empty the session: left out (Quit stops the service; Clear empties the queue, which the
    /// after-run check would then find empty).
    static let spared: Set<String> = ["org.mpris.MediaPlayer2.Quit", "app.reprise.Controls1.Clear"]

    /// (interface, member, signature of the arguments it expects): every method of every interface Reprise exports, as
    /// its XML declares it (`DBusInterfaces`, generated: MPRIS, Reprise's own, the search providers, MediaServer2),
    /// then standard ones and a few that do not exist.
    static let methods: [(String, String, String)] = DBusInterfaces.all.flatMap { interface in
        interface.methods.filter { !spared.contains(interface.name + "." + $0.name) }.map { (interface.name, $0.name, $0.inSignature) }
    } + [
        ("org.freedesktop.DBus.Introspectable", "Introspect", ""), ("org.freedesktop.DBus.Peer", "Ping", ""),
        ("org.example.Unknown", "Frobnicate", "s"), ("org.mpris.MediaPlayer2.Player", "Explode", ""),
    ]
    static let interfaces = ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList",
                             "org.mpris.MediaPlayer2.Playlists", "app.reprise.AudioSession1", "app.reprise.Controls1",
                             "app.reprise.Video1", "app.reprise.Sound1", "app.reprise.Chapters1", "app.reprise.Sleep1",
                             "app.reprise.Library1", "app.reprise.Lyrics1", "app.reprise.Scrobble1", "org.gnome.UPnP.MediaObject2", "org.gnome.UPnP.MediaContainer2",
                             "org.gnome.UPnP.MediaItem2", "org.example.Unknown", ""]
    static let properties = ["PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume", "Position", "MinimumRate",
                             "MaximumRate", "CanGoNext", "CanSeek", "Tracks", "CanEditTracks", "PlaylistCount", "Orderings",
                             "ActivePlaylist", "Category", "Options", "Silent", "Output", "Interrupted", "Actions", "Layout",
                             "History", "Fullscreen", "Identity", "HasVideo", "AspectMode", "AudioTracks", "SubtitleTrack",
                             "Interstitials", "CanSkipInterstitial", "Loading", "SupportedMimeTypes", "ReplayGain",
                             "ReplayGainPreamp", "ReplayGainFallback", "Crossfade", "AppliedGain", "Chapters", "Current", "Timer",
                             "Remaining", "Folders", "Scanning", "ToScan", "Searchable", "ChildCount", "DisplayName", "Parent",
                             "URLs", "Enabled", "Queued", "LastError", "Lines", "NoSuchProperty", ""]

    mutating func next() -> HostileCall {
        // Mostly the object that carries the interface; now and then the other one, or none at all.
        func path(for interface: String) -> String {
            // The MediaServer2 tree: its containers, and objects that are not (or no longer) there.
            if interface.hasPrefix("org.gnome.UPnP."), chance(0.7) {
                let root = RepriseObjects.mediaServerRoot
                return pick([root + "/Artists", root + "/Albums", root + "/Genres", root + "/Folders", root + "/Playlists",
                             root + "/Folders/_2f", root + "/Albums/_" + String(repeating: "41", count: 5000), root + "/Albums/_zz",
                             root + "/Albums/_ff", root + "/Artists/_41/_42/_43", root + "/Nowhere", root + "/Playlists/_31",
                             // Item paths as a client keeps them across restarts: index ids, real, made up and malformed.
                             root + "/Genres/_" + String(repeating: "41", count: 3) + "/t1", root + "/Folders/_2f/t2",
                             root + "/Albums/_1f41/t9223372036854775807", root + "/Albums/_1f41/t-1", root + "/Albums/_1f41/t",
                             root + "/Albums/_1f41/t99999999999999999999", root + "/Playlists/_31/_31", root + "/Playlists/_31/_ffff",
                             root + "/Artists/_41/_42/t1"])
            }
            if chance(0.05) {
                return pick(["/", "/org/mpris", "/org/reprise/Reprise/Track/1", "/org/mpris/MediaPlayer2/Player", "/app/reprise"])
            }
            return chance(0.05) ? pick([RepriseObjects.mprisPath, RepriseObjects.ownPath]) : RepriseObjects.path(for: interface)
        }
        switch random.next() % 10 {
        case 0, 1:
            let interface = pick(Self.interfaces)
            return HostileCall(path: path(for: interface), interface: "org.freedesktop.DBus.Properties", member: "Get",
                               arguments: chance(0.1) ? randomArguments() : [.string(interface), .string(pick(Self.properties))])
        case 2:
            let interface = pick(Self.interfaces)
            return HostileCall(path: path(for: interface), interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                               arguments: [.string(interface)])
        case 3, 4:
            let interface = pick(Self.interfaces)
            let value: DBusValue = chance(0.5) ? self.value(of: pick(["d", "s", "b", "x", "as", "a{sv}"])) : randomValue(depth: 0)
            return HostileCall(path: path(for: interface), interface: "org.freedesktop.DBus.Properties", member: "Set",
                               arguments: [.string(interface), .string(pick(Self.properties)), .variant(value)])
        default:
            let (interface, member, signature) = pick(Self.methods)
            var arguments = chance(0.75) ? arguments(for: signature) : randomArguments()
            // OpenMedia (and Library1.Play) replacing the queue is, like Clear, a legitimate way to empty it: only enqueue.
            if member == "OpenMedia", arguments.count == 2, case .bool = arguments[1] { arguments[1] = .bool(true) }
            if member == "Play", arguments.count == 3, case .bool = arguments[2] { arguments[2] = .bool(true) }
            return HostileCall(path: path(for: interface), interface: interface, member: member, arguments: arguments)
        }
    }

    // MARK: Values

    private mutating func arguments(for signature: String) -> [DBusValue] {
        var types: [String] = []
        var rest = Substring(signature)
        while let first = rest.first {
            if first == "a" {
                types.append(String(rest.prefix(2)))
                rest = rest.dropFirst(2)
            } else {
                types.append(String(first))
                rest = rest.dropFirst()
            }
        }
        return types.map { value(of: $0) }
    }

    private mutating func randomArguments() -> [DBusValue] {
        (0..<Int(random.next() % 4)).map { _ in randomValue(depth: 0) }
    }

    private mutating func randomValue(depth: Int) -> DBusValue {
        let kinds = depth < 2 ? ["s", "o", "x", "d", "b", "u", "as", "ao", "v", "(sx)", "a{sv}", "y", "n"] : ["s", "x", "d", "b"]
        return value(of: pick(kinds), depth: depth)
    }

    private mutating func value(of type: String, depth: Int = 0) -> DBusValue {
        switch type {
        case "s": return .string(hostileString())
        case "o":
            if !playlistPaths.isEmpty && chance(0.2) { return .objectPath(pick(playlistPaths)) }
            return .objectPath(pick(["/", "/org/mpris/MediaPlayer2/TrackList/NoTrack", "/org/reprise/Reprise/Track/0",
                                           "/org/reprise/Reprise/Track/999999999", "/org/reprise/Reprise/Track/x",
                                           "/org/reprise/Reprise/Playlist/ffffffffffffffff", "/a/b/c", "/org/mpris/MediaPlayer2"]))
        case "x": return .int64(pick([Int64.min, Int64.max, 0, -1, 1, 10_000_000, -10_000_000, Int64.max / 1000]))
        case "d": return .double(pick([Double.nan, .infinity, -.infinity, -1, 0, -0.0, 0.5, 1, 2, 2.5, 1e308, -1e308, 1e-300]))
        case "b": return .bool(chance(0.5))
        case "u": return .uint32(pick([0, 1, UInt32.max, 7, 100]))
        case "i": return .int32(pick([Int32.min, Int32.max, -1, 0, 1, 2, 64]))
        case "y": return .byte(UInt8(truncatingIfNeeded: random.next()))
        case "n": return .int16(Int16(truncatingIfNeeded: random.next()))
        case "as":
            let count = arrayLength()
            return .array(elementSignature: "s", count > 1000 ? Array(repeating: .string("a"), count: count)
                          : (0..<count).map { _ in .string(hostileString(small: true)) })
        case "ao":
            let count = arrayLength()
            return .array(elementSignature: "o", count > 1000 ? Array(repeating: .objectPath("/a"), count: count)
                          : (0..<count).map { _ in value(of: "o") })
        case "v": return .variant(randomValue(depth: depth + 1))
        case "(sx)": return .structure([value(of: "s"), value(of: "x")])
        case "a{sv}": return .vardict((0..<Int(random.next() % 4)).map { _ in (hostileString(small: true), randomValue(depth: depth + 1)) })
        default: return .string("")
        }
    }

    /// Mostly a few elements; one time in a hundred, 100,000.
    private mutating func arrayLength() -> Int {
        chance(0.01) ? 100_000 : Int(random.next() % 5)
    }

    private mutating func hostileString(small: Bool = false) -> String {
        if !fileURIs.isEmpty && chance(0.33) { return pick(fileURIs) }
        if !small && chance(0.01) { return String(repeating: "a", count: 100_000) }
        return pick(["", "x", "None", "Track", "Playlist", "Alphabetical", "ModifiedDate", "playback", "ambient", "loud",
                     "mixWithOthers", "skip-forward", "speed", "warp", "file:///dev/zero", "file:///etc/passwd", "file:///",
                     "v4l2:///dev/video0", "pulse://source", "fd://0", "http://", "https://example.invalid/x.ogg", "not a uri",
                     "file:///nonexistent/a.ogg", "%%%", "é\u{1F3B5}\u{202E}", "../../../../etc/shadow", "speakers", "headphones",
                     String(repeating: "/", count: 300), "artist", "album", "genre", "playlist", "playlists", "folder",
                     "search", "artists", "albums", "tone", "1s", "end-of-track", "end-of-chapter", "-5m", "99999999h", "off",
                     "*", #"Type derivedfrom "audio""#, #"DisplayName contains "tone""#, #"Artist = ""#, "((((((", #"A exists maybe"#,
                     #"Type = "container" or (Duration > "1" and TrackNumber < "-1")"#, "album\u{241F}tone", "track\u{241F}/dev/zero",
                     "album\u{1F}tone", "\u{1F}", "\u{1F}\u{1F}", "track\u{1F}/dev/zero", "track\u{1F}/etc/passwd", "artist\u{1F}",
                     #"upnp:class derivedfrom "object.item""#, #"upnp:class = "object.container.album.musicAlbum" or dc:title = "x""#,
                     #"@id exists true"#, String(repeating: "é", count: 50_000), String(repeating: "àé ", count: 20_000)])
    }

    private mutating func chance(_ probability: Double) -> Bool { Double(random.next() % 10_000) < probability * 10_000 }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
}

import BusInterfaces
import SDBus
import TestSupport

/// The mixed random workload of a soak: transport calls, seeks, property reads and writes, and queue edits
/// (kept between 3 and 30 entries), sent one at a time so each reply's latency is its own.
struct Workload {
    static let name = "org.mpris.MediaPlayer2.reprise"
    static let path = RepriseObjects.mprisPath
    static let player = "org.mpris.MediaPlayer2.Player"
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    let bus: Bus
    /// `file://` URIs of the media that queue edits add.
    let media: [String]
    private var random: SplitMix
    private var trackIDs: [String] = []

    /// Reply latencies in seconds, errors by D-Bus error name, and calls that got no reply at all.
    private(set) var latencies: [Double] = []
    private(set) var errors: [String: Int] = [:]
    private(set) var unanswered = 0

    init(bus: Bus, media: [String], seed: UInt64) {
        self.bus = bus
        self.media = media
        random = SplitMix(seed: seed)
    }

    /// Sends one randomly chosen call and records how it went.
    mutating func step() {
        let (interface, member, arguments) = nextCall()
        let started = monotonicSeconds()
        do {
            // Properties calls go to the object of the interface they name.
            let target = interface == "org.freedesktop.DBus.Properties" ? arguments.first?.stringValue ?? interface : interface
            let reply = try bus.call(destination: Self.name, path: RepriseObjects.path(for: target), interface: interface,
                                     member: member, arguments,
                                     timeoutMicroseconds: 10_000_000)
            latencies.append(monotonicSeconds() - started)
            if member == "Get", case .variant(.array(_, let ids))? = reply.first, arguments.last == .string("Tracks") {
                trackIDs = ids.compactMap { if case .objectPath(let id) = $0 { id } else { nil } }
            }
        } catch {
            latencies.append(monotonicSeconds() - started)
            if ["org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.NoReply"].contains(error.name) {
                unanswered += 1
            }
            errors[error.name, default: 0] += 1
        }
    }

    private mutating func nextCall() -> (String, String, [DBusValue]) {
        let properties = "org.freedesktop.DBus.Properties"
        switch random.next() % 20 {
        case 0...5:
            return (Self.player, pick(["Play", "Play", "Pause", "PlayPause", "Next", "Previous", "Stop"]), [])
        case 6, 7:
            return (Self.player, "Seek", [.int64(Int64(pick([-10, -3, 2, 5, 10]) * 1_000_000))])
        case 8:
            guard let id = trackIDs.randomElement(using: &random) else { return readTracks() }
            return (Self.player, "SetPosition", [.objectPath(id), .int64(Int64(random.next() % 25) * 1_000_000)])
        case 9...11:
            return (properties, "Get", [.string(Self.player), .string(pick(["PlaybackStatus", "Metadata", "Position", "Volume"]))])
        case 12:
            return (properties, "GetAll", [.string(pick([Self.player, Self.trackList, "app.reprise.AudioSession1"]))])
        case 13:
            let (name, value): (String, DBusValue) = pick([
                ("Volume", .double(Double(random.next() % 100) / 100)), ("Rate", .double(pick([0.5, 1, 1.25, 1.5, 2]))),
                ("LoopStatus", .string(pick(["None", "Track", "Playlist"]))), ("Shuffle", .bool(random.next() % 2 == 0)),
            ])
            return (properties, "Set", [.string(Self.player), .string(name), .variant(value)])
        case 14, 15:
            return readTracks()
        case 16, 17:
            guard trackIDs.count < 30 else { return removeTrack() }
            let after = trackIDs.randomElement(using: &random) ?? "/org/mpris/MediaPlayer2/TrackList/NoTrack"
            return (Self.trackList, "AddTrack", [.string(pick(media)), .objectPath(after), .bool(random.next() % 4 == 0)])
        case 18:
            guard trackIDs.count > 3 else { return readTracks() }
            return removeTrack()
        default:
            guard let id = trackIDs.randomElement(using: &random) else { return readTracks() }
            return (Self.trackList, "GoTo", [.objectPath(id)])
        }
    }

    private mutating func readTracks() -> (String, String, [DBusValue]) {
        ("org.freedesktop.DBus.Properties", "Get", [.string(Self.trackList), .string("Tracks")])
    }

    private mutating func removeTrack() -> (String, String, [DBusValue]) {
        guard let index = trackIDs.indices.randomElement(using: &random) else { return readTracks() }
        return (Self.trackList, "RemoveTrack", [.objectPath(trackIDs.remove(at: index))])
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
}

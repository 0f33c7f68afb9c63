import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2.TrackList
final class TrackListInterface: InterfaceImplementation {
    private let player: Player
    var onUserAction: ((PolicyEvent) -> Void)?
    var allowsPlayPause: (() -> Bool)?

    init(player: Player) { self.player = player }

    /// The most bytes of metadata one GetTracksMetadata reply carries (half of D-Bus's array limit).
    static let metadataReplyLimit = 32 << 20

    /// An upper estimate of a track's encoded metadata: its strings plus the keys and framing around them.
    static func estimatedMetadataBytes(_ track: TrackInfo) -> Int {
        let tags = track.tags
        let texts = [tags.title, tags.album, tags.contentCreated, tags.description, track.artURL].compactMap { $0 }
        let lists = tags.artists + tags.albumArtists + tags.genres + tags.composers + tags.comments
        return 600 + track.url.utf8.count + (texts + lists).reduce(0) { $0 + $1.utf8.count + 40 }
    }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let args = call.arguments
        switch (call.member, args.first) {
        case ("GetTracksMetadata", .array(_, let ids)?):
            let tracks = ids.compactMap { $0.stringValue.flatMap(MPRIS.entryID(fromTrackPath:)).flatMap(player.track(id:)) }
            // D-Bus arrays end at 64 MiB: a reply that could come near is refused before it is built.
            let estimate = tracks.reduce(0) { $0 + Self.estimatedMetadataBytes($1) }
            guard estimate <= Self.metadataReplyLimit else {
                throw DBusError(name: "org.freedesktop.DBus.Error.LimitsExceeded",
                                message: "the metadata of \(tracks.count) tracks is too much for one reply; ask for fewer at a time")
            }
            return .reply([.array(elementSignature: "a{sv}", tracks.map(MetadataEncoding.encode))])
        case ("AddTrack", .string(let uri)?):
            guard args.count == 3, case .objectPath(let afterPath) = args[1], case .bool(let makeCurrent) = args[2] else {
                throw .invalidArgs("AddTrack takes (s, o, b)")
            }
            var after: Int? = nil
            if afterPath != MPRIS.noTrackPath {
                guard let id = MPRIS.entryID(fromTrackPath: afterPath) else { throw .invalidArgs("\(afterPath) is not a track of this list") }
                after = id
            }
            if makeCurrent { onUserAction?(.userChangedTrack) }
            player.addTrack(uri, after: after, makeCurrent: makeCurrent, completion: call.answer)
            return .deferred
        case ("RemoveTrack", .objectPath(let path)?):
            if let id = MPRIS.entryID(fromTrackPath: path) { player.removeTrack(id: id) }
        case ("GoTo", .objectPath(let path)?):
            onUserAction?(.userChangedTrack)
            if let id = MPRIS.entryID(fromTrackPath: path) { player.goTo(id: id) }
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
        return .reply([])
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "Tracks": .objectPaths(player.trackIDs.map(MPRIS.trackPath))
        case "CanEditTracks": .bool(true)
        default: throw DBusError.unknownProperty(property)
        }
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.readOnly(property)
    }
}

import BusInterfaces
import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2.TrackList
final class TrackListInterface: MediaPlayer2TrackListHandler {
    private let remote: RemoteControl
    private var player: Player { remote.player }

    init(remote: RemoteControl) { self.remote = remote }

    /// The most bytes of metadata one GetTracksMetadata reply carries (half of D-Bus's array limit).
    static let metadataReplyLimit = 32 << 20

    /// An upper estimate of a track's encoded metadata: its strings plus the keys and framing around them.
    static func estimatedMetadataBytes(_ track: TrackInfo) -> Int {
        let tags = track.tags
        let texts = [tags.title, tags.album, tags.contentCreated, tags.description, track.artURL].compactMap { $0 }
        let lists = tags.artists + tags.albumArtists + tags.genres + tags.composers + tags.comments
        return 600 + track.url.utf8.count + (texts + lists).reduce(0) { $0 + $1.utf8.count + 40 }
    }

    func getTracksMetadata(trackIds: [String]) throws(DBusError) -> [[String: DBusValue]] {
        let tracks = trackIds.compactMap { MPRIS.entryID(fromTrackPath: $0).flatMap(player.track(id:)) }
        // D-Bus arrays end at 64 MiB: a reply that could come near is refused before it is built.
        let estimate = tracks.reduce(0) { $0 + Self.estimatedMetadataBytes($1) }
        guard estimate <= Self.metadataReplyLimit else {
            throw .limitsExceeded("the metadata of \(tracks.count) tracks is too much for one reply; ask for fewer at a time")
        }
        return tracks.map(MetadataEncoding.encode)
    }

    func addTrack(uri: String, afterTrack: String, setAsCurrent: Bool, reply: Reply<Void>) throws(DBusError) {
        var after: Int? = nil
        if afterTrack != MPRIS.noTrackPath {
            guard let id = MPRIS.entryID(fromTrackPath: afterTrack) else { throw .invalidArgs("\(afterTrack) is not a track of this list") }
            after = id
        }
        let add = { [player] in player.addTrack(uri, after: after, makeCurrent: setAsCurrent, completion: reply.answer) }
        if setAsCurrent { remote.request(.userChangedTrack, add) } else { add() }
    }

    func removeTrack(trackId: String) throws(DBusError) {
        if let id = MPRIS.entryID(fromTrackPath: trackId) { player.removeTrack(id: id) }
    }

    func goTo(trackId: String) throws(DBusError) {
        remote.request(.userChangedTrack) { if let id = MPRIS.entryID(fromTrackPath: trackId) { player.goTo(id: id) } }
    }

    var tracks: [String] { player.trackIDs.map(MPRIS.trackPath) }
    var canEditTracks: Bool { true }
}

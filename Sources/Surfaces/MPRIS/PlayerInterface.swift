import BusInterfaces
import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2.Player
final class PlayerInterface: MediaPlayer2PlayerHandler {
    /// The bus name of the renderer bridge: Rygel, whose MPRIS plugin turns a UPnP control point's
    /// SetAVTransportURI into OpenUri on the connection that owns this name.
    static let rendererBridgeName = "org.gnome.Rygel1"

    private let remote: RemoteControl
    private let bus: any ObjectBus
    private var player: Player { remote.player }

    init(remote: RemoteControl, bus: any ObjectBus) {
        self.remote = remote
        self.bus = bus
    }

    func next() throws(DBusError) {
        remote.next()
    }

    func previous() throws(DBusError) {
        remote.previous()
    }

    func pause() throws(DBusError) {
        remote.pause()
    }

    func playPause() throws(DBusError) {
        // The spec: with CanPause false, PlayPause has no effect and raises an error (the others only have no effect).
        guard player.canPause else { throw .notSupported("nothing to play or pause (CanPause is false)") }
        remote.playPause()
    }

    func stop() throws(DBusError) {
        remote.stop()
    }

    func play() throws(DBusError) {
        remote.play()
    }

    func seek(offset: Int64) throws(DBusError) { player.seek(by: offset) }

    func setPosition(trackId: String, position: Int64) throws(DBusError) {
        player.setPosition(entryID: MPRIS.entryID(fromTrackPath: trackId), microseconds: position)
    }

    /// Plays `uri` at once, as MPRIS says; from a renderer bridge it is loaded paused, as a UPnP renderer takes a
    /// URI, so that the control point's Play that follows is a transition Rygel allows (from PLAYING it answers 701).
    func openUri(uri: String, reply: Reply<Void>) throws(DBusError) {
        guard let sender = reply.sender else { return remote.open(uri, completion: reply.answer) }
        // Asked of the bus without blocking; the answer comes on the loop.
        bus.askOwner(of: Self.rendererBridgeName) { [remote] owner in
            remote.open(uri, pushedByRenderer: owner == sender, completion: reply.answer)
        }
    }

    var playbackStatus: String { player.status.rawValue }
    var loopStatus: String { player.loopStatus.rawValue }
    var rate: Double { player.rate }
    var shuffle: Bool { player.shuffle }
    var metadata: [String: DBusValue] { MetadataEncoding.encode(player.announcedTrack) }
    var volume: Double { player.volume }
    var position: Int64 { player.positionMicroseconds }
    var minimumRate: Double { player.rateRange.lowerBound }
    var maximumRate: Double { player.rateRange.upperBound }
    var canGoNext: Bool { player.canGoNext }
    var canGoPrevious: Bool { player.canGoPrevious }
    var canPlay: Bool { player.canPlay }
    var canPause: Bool { player.canPause }
    var canSeek: Bool { player.canSeek }
    var canControl: Bool { true }

    func set(loopStatus value: String) throws(DBusError) {
        guard let status = LoopStatus(rawValue: value) else {
            throw .invalidArgs("LoopStatus must be one of \(LoopStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        player.setLoopStatus(status)
    }

    func set(rate value: Double) throws(DBusError) {
        do throws(PlayerError) { try player.setRate(value) } catch { throw error.dbusError }
    }

    func set(shuffle value: Bool) throws(DBusError) { player.setShuffle(value) }

    func set(volume value: Double) throws(DBusError) {
        do throws(PlayerError) { try player.setVolume(value) } catch { throw error.dbusError }
    }
}

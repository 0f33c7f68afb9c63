import PulseKit
import RepriseCore

// What the audio session talks to, as protocols: the real parts in the service, fakes in the unit tests.

/// The sound server (``PulseClient``): its reports, and requests on other clients' and Reprise's streams.
protocol SoundServer: AnyObject {
    var onEvent: ((PulseEvent) -> Void)? { get set }
    /// Names of the server's loaded modules (as of the last connection).
    var loadedModules: Set<String> { get }
    /// Whether it is PipeWire's pulse server (whose pipe sink drops what its FIFO cannot take; PulseAudio's waits).
    var isPipeWire: Bool { get }
    func connect()
    func moveSinkInput(_ index: UInt32, toSink name: String)
    func setSinkInputVolume(_ index: UInt32, _ volumes: [UInt32])
    func setSinkInputMute(_ index: UInt32, _ muted: Bool)
    /// Calls `done` once the server has applied every request sent so far (at once without a connection).
    func afterPendingRequests(_ done: @escaping () -> Void)
    /// The server's stream-restore database, as of this request (nil: it keeps none, or no connection).
    func readRestoreEntries(_ done: @escaping ([RestoreEntry]?) -> Void)
    func writeRestoreEntries(_ entries: [RestoreEntry])
    func deleteRestoreEntries(_ names: [String])
}

extension PulseClient: SoundServer {}

/// Reprise's own pipeline as the audio session sees it (``GStreamerEngine``): its stream role, ducking and muting
/// inside the pipeline, the output the next stream opens on, and the sound server's cork requests.
protocol PipelineAudio: AnyObject {
    func setStreamRole(_ role: String)
    var isDucked: Bool { get set }
    var isMuted: Bool { get set }
    /// nil: the default output.
    var outputDevice: String? { get set }
    /// Where it tells of cork requests (the sound server asked the stream to pause or play again).
    var events: StreamEvents { get }
}

extension GStreamerEngine: PipelineAudio {}

/// What is known of another MPRIS player: `found` while its status is the one read when Reprise first looked.
struct OtherPlayer: Equatable {
    var owner: String
    var processID: Int32?
    var playing = false
    var found = false
}

/// Follows the other MPRIS players on the bus.
protocol OtherPlayersListener: AnyObject {
    /// A player's process or status became known or changed.
    func otherPlayerChanged(_ name: String, _ player: OtherPlayer)
    /// A player left the bus.
    func otherPlayerGone(_ name: String)
}

/// The other MPRIS players on the bus (``PlayerWatcher``).
protocol OtherPlayers: AnyObject {
    /// Told of each player's changes (the audio session, which sets itself here when it is made).
    var listener: OtherPlayersListener? { get set }
    func pause(_ names: [String])
    func play(_ names: [String])
}

extension PlayerWatcher: OtherPlayers {}

/// Where changes to other clients are written before they are made (``ChangedStreamsStore``).
protocol ChangedStreamsRecord {
    func load() -> ChangedStreamsStore.Saved?
    func save(_ saved: ChangedStreamsStore.Saved)
}

extension ChangedStreamsStore: ChangedStreamsRecord {}

import PosixFiles
import RepriseCore

/// An engine double for unit tests: records requests, and lets a test play the engine's part.
public final class ScriptedEngine: PlaybackEngine {
    public init() {}

    public enum Request: Equatable {
        case load(String, playing: Bool), resume, pause, stop, seek(Int64), rate(Double), volume(Double)
    }
    public var requests: [Request] = []
    public var position: Int64? = 0
    public var refuseLoads = false
    /// The URI last given to ``prepareNext(_:)``.
    public var preparedNext: String?
    public let rateRange: ClosedRange<Double> = 0.5...2.0

    /// The range the last load was given.
    public var loadedRange: PlayRange?
    public func load(_ uri: String, playing: Bool, range: PlayRange?) -> Bool {
        requests.append(.load(uri, playing: playing))
        loadedRange = range
        if let range { position = range.startMicroseconds }
        preparedNext = nil
        return !refuseLoads
    }
    public func resume() -> Bool { requests.append(.resume); return true }
    public func pause() -> Bool { requests.append(.pause); return true }
    public func stop() {
        requests.append(.stop)
        preparedNext = nil
    }
    public func prepareNext(_ uri: String?) { preparedNext = uri }
    public func seek(toMicroseconds microseconds: Int64) -> Bool {
        requests.append(.seek(microseconds))
        position = microseconds
        return true
    }
    public func setRate(_ rate: Double) { requests.append(.rate(rate)) }
    public func setVolume(_ volume: Double) { requests.append(.volume(volume)) }
    public var positionMicroseconds: Int64? { position }
    /// The last ReplayGain asked for (kind, pre-amplification, fallback).
    public var replayGain: (kind: ReplayGainKind, preamp: Double, fallback: Double)?
    /// Every ReplayGain request, in order.
    public var replayGainKinds: [ReplayGainKind] = []
    /// The last crossfade plan given.
    public var crossfadePlan: CrossfadePlan?
    public func setCrossfadePlan(_ plan: CrossfadePlan) { crossfadePlan = plan }
    /// The sleep fade's share of the level, as last given.
    public var sleepFade = 1.0
    public func setSleepFade(_ gain: Double) { sleepFade = gain }
    public private(set) var equalizerGains: [Double]?
    public private(set) var equalizerPreamp = 0.0
    public func setEqualizer(filterGains: [Double]?, preampDecibels: Double) {
        equalizerGains = filterGains
        equalizerPreamp = preampDecibels
    }
    /// What the test says the pipeline applies.
    public var appliedGainDecibels: Double?
    public func setReplayGain(_ kind: ReplayGainKind, preampDecibels: Double, fallbackDecibels: Double, fallbackPeak: Double?) {
        replayGain = (kind, preampDecibels, fallbackDecibels)
        replayGainKinds.append(kind)
    }

    public var loads: [String] {
        requests.compactMap { if case .load(let uri, _) = $0 { uri } else { nil } }
    }
}

/// Records what the player's change feed said.
public final class RecordingObserver: ChangeListener {
    public init() {}
    public private(set) var published: [Change] = []
    public var changes: Int { published.count }
    public var seeks: [Int64] { published.compactMap(\.seekedToMicroseconds) }
    public var trackListChanges: [TrackListChange] { published.flatMap(\.queueEdits) }
    public func didChange(_ change: Change) { published.append(change) }
    /// Forgets what was recorded.
    public func reset() { published.removeAll() }
}

/// A player over a scripted engine with `count` queued http URIs (no files needed).
public func makePlayer(tracks count: Int = 3, resolver: MediaResolving? = nil) -> (Player, ScriptedEngine, RecordingObserver) {
    let engine = ScriptedEngine()
    let player = Player(engine: engine, log: Log(verbose: false), fileSystem: PosixFileSystem(), resolver: resolver)
    let observer = RecordingObserver()
    player.feed.listen(observer)
    player.enqueue((1...max(1, count)).prefix(count).map { "http://example.invalid/\($0).ogg" })
    return (player, engine, observer)
}

public func uri(_ n: Int) -> String { "http://example.invalid/\(n).ogg" }

/// A resolver that answers only when told to, like the service's worker thread.
public final class HeldResolver: MediaResolving {
    private let fileSystem: FileSystem
    private var waiting: [(uris: [String], then: (MediaResolution) -> Void)] = []

    public init(fileSystem: FileSystem = PosixFileSystem()) { self.fileSystem = fileSystem }

    public var waitingCount: Int { waiting.count }

    public func resolve(_ uris: [String], then: @escaping (MediaResolution) -> Void) { waiting.append((uris, then)) }

    /// Answers the oldest request.
    public func answerNext() {
        let (uris, then) = waiting.removeFirst()
        then(MediaResolution(resolving: uris, in: fileSystem))
    }
}

extension Player {
    /// ``addTrack(_:after:makeCurrent:completion:)`` with a resolver that answers at once; throws what it reports.
    public func addTrackNow(_ uri: String, after: Int?, makeCurrent: Bool) throws(PlayerError) {
        var outcome: PlayerError??
        addTrack(uri, after: after, makeCurrent: makeCurrent) { outcome = $0 }
        guard let outcome else { preconditionFailure("addTrack did not finish at once") }
        if let error = outcome { throw error }
    }
}

import PosixFiles
import RepriseCore

/// An engine double for core unit tests: records requests, and lets a test play the engine's part.
final class ScriptedEngine: PlaybackEngine {
    enum Request: Equatable {
        case load(String, playing: Bool), resume, pause, stop, seek(Int64), rate(Double), volume(Double)
    }
    var requests: [Request] = []
    var position: Int64? = 0
    var refuseLoads = false
    /// The URI last given to ``prepareNext(_:)``.
    var preparedNext: String?
    let rateRange: ClosedRange<Double> = 0.5...2.0

    func load(_ uri: String, playing: Bool) -> Bool {
        requests.append(.load(uri, playing: playing))
        preparedNext = nil
        return !refuseLoads
    }
    func resume() -> Bool { requests.append(.resume); return true }
    func pause() -> Bool { requests.append(.pause); return true }
    func stop() {
        requests.append(.stop)
        preparedNext = nil
    }
    func prepareNext(_ uri: String?) { preparedNext = uri }
    func seek(toMicroseconds microseconds: Int64) -> Bool {
        requests.append(.seek(microseconds))
        position = microseconds
        return true
    }
    func setRate(_ rate: Double) { requests.append(.rate(rate)) }
    func setVolume(_ volume: Double) { requests.append(.volume(volume)) }
    var positionMicroseconds: Int64? { position }

    var loads: [String] {
        requests.compactMap { if case .load(let uri, _) = $0 { uri } else { nil } }
    }
}

/// Records what a client would be told.
final class RecordingObserver: PlayerObserver {
    var changes = 0
    var seeks: [Int64] = []
    var trackListChanges: [TrackListChange] = []
    func playerDidChange() { changes += 1 }
    func playerTrackListDidChange(_ changes: [TrackListChange]) { trackListChanges += changes }
    func playerDidSeek(toMicroseconds microseconds: Int64) { seeks.append(microseconds) }
}

/// A player over a scripted engine with `count` queued http URIs (no files needed).
func makePlayer(tracks count: Int = 3) -> (Player, ScriptedEngine, RecordingObserver) {
    let engine = ScriptedEngine()
    let player = Player(engine: engine, log: Log(verbose: false), fileSystem: PosixFileSystem())
    let observer = RecordingObserver()
    player.observer = observer
    player.enqueue((1...max(1, count)).prefix(count).map { "http://example.invalid/\($0).ogg" })
    return (player, engine, observer)
}

func uri(_ n: Int) -> String { "http://example.invalid/\(n).ogg" }

import GStreamerKit
import LoopKit
import RepriseCore

/// While a stream is to play, the audio sink's clock is read every ``clockCheckMilliseconds``: one that has leapt
/// far ahead of the time that passed (``ClockLeapWatch``; libpulse's stream time can do that around a quick cork,
/// flush and uncork) leaves the pipeline PLAYING in silence for good, so the stream is opened again where it was, at
/// most ``clockRecoveryLimit`` times a load. The sink keeps its clock from one stream to the next, running only
/// while it plays and never going back, so the readings of each pipeline go on across loads, from the pipeline's
/// making: a leap at a stream's very start is told too. Nothing is read while the pipeline thread is busy (a state
/// change may release what the clock reads, and a sound server that stopped answering holds it up).
extension GStreamerEngine {
    static let clockCheckMilliseconds: UInt32 = 1000
    static let clockRecoveryLimit = 3

    /// Begins the readings of a pipeline just made: its sink's clock cannot have run longer than it has existed, so
    /// even the first reading tells a leap (one at the very first start then stands still and never leaps again).
    func watchClock(of pipeline: Playbin) {
        clockWatches[ObjectIdentifier(pipeline)] = ClockLeapWatch(clockBornAtWallSeconds: monotonicSeconds())
    }

    /// Starts or stops the readings as the stream is to play or not (call after every change of `wantsPlaying`).
    func updateClockWatch() {
        guard loaded, wantsPlaying else {
            clockCheckTimer?.cancel()
            clockCheckTimer = nil
            return
        }
        guard clockCheckTimer?.isActive != true else { return }
        clockCheckTimer = timers.every(milliseconds: Self.clockCheckMilliseconds) { [weak self] in self?.checkClock() }
    }

    private func checkClock() {
        guard loaded, let time = playbin.audioClockNanoseconds else { return }
        let key = ObjectIdentifier(playbin)
        guard clockWatches[key]?.hasLeapt(clockNanoseconds: time, atWallSeconds: monotonicSeconds()) == true,
              clockRecoveries < Self.clockRecoveryLimit else { return }
        clockRecoveries += 1
        let place = (seekTarget?.nanoseconds ?? playbin.positionNanoseconds ?? lastAnsweredPosition.map { $0 * 1000 } ?? 0) / 1_000_000_000
        log.warning("the sound output's clock leapt \(time / 3_600_000_000_000) h ahead and stands still (libpulse's stream time): "
                    + "opening the stream again at \(place) s")
        reloadWhereItIs()
    }
}

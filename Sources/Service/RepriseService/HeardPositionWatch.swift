import LoopKit
import RepriseCore

/// After playback moves to another output, what Position means can change without a seek: PipeWire counts an
/// AirPlay receiver's latency in the stream's timing, and leaving it gives that time back, each over a few seconds.
/// For ten seconds after a move this watches the position heard against the clock, and whenever they part by more
/// than ``tolerance`` announces the position as now heard (Seeked), so widgets that extrapolate stay right.
final class HeardPositionWatch {
    /// How far the heard position may part from the clock before it is announced.
    static let tolerance: Int64 = 100_000
    private static let intervalMilliseconds: UInt32 = 250
    private static let ticksAfterAMove = 40

    private let player: Player
    private let loop: EventLoop
    private let log: Log
    private var timer: LoopTimer?
    private var ticksLeft = 0
    /// The position heard at a moment, with the entry and rate it was heard at.
    private var baseline: (microseconds: Int64, at: Double, rate: Double, entry: Int)?

    init(player: Player, loop: EventLoop, log: Log) {
        self.player = player
        self.loop = loop
        self.log = log
    }

    /// Playback moved to another output: watch from here.
    func outputChanged() {
        log.debug("output changed: watching the position heard")
        baseline = nil
        ticksLeft = Self.ticksAfterAMove
        look()
        if timer == nil { timer = loop.every(milliseconds: Self.intervalMilliseconds) { [unowned self] in tick() } }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func tick() {
        look()
        ticksLeft -= 1
        if ticksLeft <= 0 { stop() }
    }

    private func look() {
        guard player.isSounding, let entry = player.loadedEntry?.id else { return baseline = nil }
        let now = monotonicSeconds(), heard = player.positionMicroseconds, rate = player.rate
        guard let baseline, baseline.entry == entry, baseline.rate == rate else {
            return self.baseline = (heard, now, rate, entry)
        }
        let expected = baseline.microseconds + Int64((now - baseline.at) * rate * 1_000_000)
        guard abs(heard - expected) > Self.tolerance else { return }
        log.info("position heard \((heard - expected) / 1000) ms off the clock after an output move; announcing it")
        player.announceHeardPosition()
        self.baseline = (heard, now, rate, entry)
    }
}

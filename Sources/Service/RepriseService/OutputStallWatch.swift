import LoopKit
import PosixFiles
import RepriseCore

/// The Snapcast output is heard only while snapserver reads its FIFO, and with nobody reading it plays silently:
/// PulseAudio's pipe sink waits for room in the FIFO, so Reprise's stream, and its position, stand still; PipeWire's
/// drops what does not fit, so the position runs on while the FIFO stays full to the byte. While playback is on that
/// output this looks every second; when for ``stillSeconds`` while Playing the position stood still, or (where the
/// sink drops) the FIFO stayed full and unchanged, Reprise pauses (it does not claim to play what nobody takes), says
/// why in the log and reports the problem (AudioSession1's `OutputProblem`, MPD's `status` and `outputs`). The
/// problem clears when playback goes on there or goes to another output.
///
/// A full FIFO alone says nothing: a reader that takes the sound at its pace (snapserver does) keeps PulseAudio's
/// FIFO full all the time, and PipeWire's fills slowly where its clock runs faster than the reader's; but a FIFO
/// somebody reads from changes between two looks.
final class OutputStallWatch {
    static let stillSeconds = 4

    private let player: Player
    private let loop: EventLoop
    private let log: Log
    private let pipe: String
    /// Told each time the problem changes ("" when there is none).
    private let onProblem: (String) -> Void
    private var timer: LoopTimer?
    private let opening: BackgroundWork?
    private var fill: PipeFill?
    private var sinkDropsWhenFull = false
    private var lastPosition: Int64?
    private var lastQueuedBytes: Int?
    private var stillFor = 0
    private(set) var problem = "" {
        didSet { if problem != oldValue { onProblem(problem) } }
    }

    init(player: Player, loop: EventLoop, log: Log, pipe: String, onProblem: @escaping (String) -> Void) {
        self.player = player
        self.loop = loop
        self.log = log
        self.pipe = pipe
        self.onProblem = onProblem
        opening = BackgroundWork(loop: loop, label: "reprise.snapcast-fill")
    }

    /// The output playback is on now (nil: not known), and whether the sound server's pipe sink drops what the
    /// FIFO cannot take (PipeWire) rather than waiting for room (PulseAudio).
    func outputIs(_ name: String?, pipeSinkDropsWhenFull: Bool) {
        guard name == SnapcastSettings.sinkName else {
            problem = ""
            return stop()
        }
        sinkDropsWhenFull = pipeSinkDropsWhenFull
        guard timer == nil else { return }
        forgetLooks()
        if fill == nil, let opening {
            let pipe = pipe
            opening.run({ PipeFill(path: pipe) }) { [weak self] fill in self?.fill = fill }
        }
        timer = loop.every(milliseconds: 1000) { [unowned self] in look() }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func forgetLooks() {
        lastPosition = nil
        lastQueuedBytes = nil
        stillFor = 0
    }

    private func look() {
        guard player.status == .playing, player.loadedEntry != nil else { return forgetLooks() }
        let position = player.positionMicroseconds
        let fifo = fill?.look()
        defer {
            lastPosition = position
            lastQueuedBytes = fifo?.queuedBytes
        }
        let positionStill = position == lastPosition
        let fifoStuck = sinkDropsWhenFull && fifo?.isFull == true && fifo?.queuedBytes == lastQueuedBytes
        guard positionStill || fifoStuck else {
            stillFor = 0
            problem = ""
            return
        }
        stillFor += 1
        guard stillFor >= Self.stillSeconds else { return }
        stillFor = 0
        problem = "Snapcast: nothing reads \(pipe) (is snapserver running with this pipe as a source?)"
        log.warning("snapcast: nothing takes what plays on \(SnapcastSettings.sinkName) for \(Self.stillSeconds) s "
                    + "(\(positionStill ? "the position stands still" : "the pipe stays full")): nothing reads \(pipe); pausing")
        player.pause()
    }
}

import LoopKit
import PosixFiles
import RepriseCore

/// The Snapcast output is heard only while snapserver reads its FIFO: with nobody reading, PulseAudio's pipe sink
/// stops and so does Reprise's stream, and PipeWire's drops what it cannot write; either way silently. While
/// playback is on that output this looks every second whether the position stands still or the FIFO stays full;
/// so for ``stillSeconds`` while Playing, Reprise pauses (it does not claim to play what nobody takes), says why in
/// the log and reports the problem (AudioSession1's `OutputProblem`, MPD's `status` and `outputs`). The problem
/// clears when playback goes on there or goes to another output.
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
    private var lastPosition: Int64?
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

    /// The output playback is on now (nil: not known).
    func outputIs(_ name: String?) {
        guard name == SnapcastSettings.sinkName else {
            problem = ""
            return stop()
        }
        guard timer == nil else { return }
        lastPosition = nil
        stillFor = 0
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

    private func look() {
        guard player.status == .playing, player.loadedEntry != nil else {
            lastPosition = nil
            stillFor = 0
            return
        }
        let position = player.positionMicroseconds
        defer { lastPosition = position }
        let full = fill?.isFull == true
        guard position == lastPosition || full else {
            stillFor = 0
            problem = ""
            return
        }
        stillFor += 1
        guard stillFor >= Self.stillSeconds else { return }
        stillFor = 0
        problem = "Snapcast: nothing reads \(pipe) (is snapserver running with this pipe as a source?)"
        log.warning("snapcast: nothing takes what plays on \(SnapcastSettings.sinkName) for \(Self.stillSeconds) s "
                    + "(\(full ? "the pipe stays full" : "the position stands still")): nothing reads \(pipe); pausing")
        player.pause()
    }
}

import LoopKit
import PosixFiles
import PulseKit
import RepriseCore

/// The configured Snapcast stream as an output (``SnapcastSettings``): a pipe sink writing into snapserver's FIFO,
/// loaded into the sound server on a connection of its own each time it connects (a restarted server comes back
/// without it), and unloaded when Reprise stops, so the sound server is left as it was. One a run that died left
/// behind is unloaded first. Stopped after playback, so Reprise's stream is never moved to the speakers on quit.
/// The pipe is checked (and made when missing) on a worker before the sound server hears of it: a server asked to
/// make a FIFO it cannot make (a missing folder) can be left broken for every client.
final class SnapcastFeed: ServiceComponent {
    let name = "snapcast output"
    private let pulse = PulseClient(applicationName: "Reprise (Snapcast output)")
    private let settings: SnapcastSettings
    private let path: String
    private let log: Log
    private let checks: BackgroundWork?
    private var loaded: UInt32?
    private var stopped = false

    /// - Parameter path: the pipe, `~` expanded.
    init(settings: SnapcastSettings, path: String, loop: EventLoop, log: Log) {
        self.settings = settings
        self.path = path
        self.log = log
        checks = BackgroundWork(loop: loop, label: "reprise.snapcast-pipe")
    }

    func start() {
        pulse.onEvent = { [unowned self] event in
            switch event {
            case .connected: loadSink()
            case .disconnected: loaded = nil
            default: break
            }
        }
        pulse.connect()
    }

    func stop(_ done: @escaping () -> Void) {
        stopped = true
        if let loaded { pulse.unloadModule(loaded) }
        loaded = nil
        pulse.afterPendingRequests(done)
    }

    private func loadSink() {
        pulse.listModules { [self] modules in
            for left in modules where left.name == "module-pipe-sink" && left.arguments.contains(text: "sink_name=\(SnapcastSettings.sinkName) ") {
                log.info("snapcast: unloading the pipe sink a previous run left (module \(left.index))")
                pulse.unloadModule(left.index)
            }
            guard !stopped, let checks else { return }
            let path = path
            checks.run({ NamedPipe.prepare(path) }) { [self] refusal in
                if let refusal {
                    return log.warning("snapcast: no Snapcast output: snapcast-pipe = \(path): \(refusal)")
                }
                loadPipeSink()
            }
        }
    }

    private func loadPipeSink() {
        guard !stopped else { return }
        pulse.loadModule("module-pipe-sink", arguments: settings.pipeSinkArguments(path: path)) { [self] index in
            guard let index else { return log.warning("snapcast: the sound server refused a pipe sink into \(path)") }
            if stopped { return pulse.unloadModule(index) }
            loaded = index
            log.info("snapcast: output \(SnapcastSettings.sinkName) writes \(settings.rate):\(settings.bits):\(settings.channels) into \(path)")
        }
    }
}

import Foundation
import Glibc
import TestSupport

/// A busy machine, made by the bench: `spinners` shell loops at normal priority, each keeping a core busy, as a
/// build or a game beside the player would. Ended by process id.
final class CPULoad {
    private var children: [Child] = []

    init(spinners: Int, logDirectory: String) throws {
        for _ in 0..<max(1, spinners) {
            children.append(try Child.spawn("sh", ["-c", "while :; do :; done"], environment: nil,
                                            stdout: logDirectory + "/cpu-load.log", stderr: logDirectory + "/cpu-load.log"))
        }
        Thread.sleep(forTimeInterval: 0.2) // running before anything is timed
    }

    func stop() {
        for index in children.indices {
            kill(children[index].pid, SIGKILL)
            _ = children[index].wait()
        }
        children = []
    }

    deinit { stop() }

    /// The cores the bench's load keeps busy: all but one (at least one). With every core busy MPD's update thread,
    /// which runs at idle priority (SCHED_IDLE), gets next to nothing and its first index does not end.
    static var allButOne: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }
}

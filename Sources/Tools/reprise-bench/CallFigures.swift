import Foundation
import Glibc
import TestSupport

extension Bench {
    /// Median seconds from a call stream appearing (the sound server's `new` event for a `media.role=phone` stream
    /// from pacat) to Reprise announcing PlaybackStatus Paused, and from its `remove` event to Playing again.
    /// On PipeWire the first includes WirePlumber linking the call (Reprise judges a stream once it is linked).
    func callFigures(binary: String, _ file: String, runs: Int) throws -> (pause: Double?, resume: Double?) {
        var running = try startPlaying(.reprise(binary: binary), file)
        defer { stop(&running) }
        pump(for: 1)
        var pauses: [Double] = [], resumes: [Double] = []
        func status(_ value: String, after time: Double) -> Double? {
            statusChanges.first { $0.time >= time && $0.status == value }?.time
        }
        for _ in 0..<runs {
            pump(for: 1.5)
            let start = monotonicSeconds()
            var call = try Child.spawn("pacat", ["--playback", "--raw", "--property=media.role=phone", "/dev/zero"],
                                       environment: desktop.environment, stdout: "/dev/null", stderr: "/dev/null")
            pump(for: 5) { status("Paused", after: start) != nil }
            let callStream = firstEvent("new", on: "sink-input", after: start, excluding: running.sinkInput)
            if let paused = status("Paused", after: start), let callStream { pauses.append(paused - callStream.time) }
            pump(for: 1)
            let end = monotonicSeconds()
            kill(call.pid, SIGKILL)
            _ = call.wait()
            pump(for: 5) { status("Playing", after: end) != nil }
            if let playing = status("Playing", after: end), let callStream,
               let removed = firstEvent("remove", on: "sink-input", after: end, index: callStream.index) {
                resumes.append(max(0, playing - removed.time))
            }
        }
        return (Statistics.median(pauses), Statistics.median(resumes))
    }
}

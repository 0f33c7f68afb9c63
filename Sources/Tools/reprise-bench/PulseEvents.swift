import Foundation
import TestSupport

/// PulseAudio's event stream (`pactl subscribe`), read as it grows, each event stamped when seen.
final class PulseEvents {
    struct Event {
        let kind: String      // new, change, remove
        let facility: String  // sink-input, client, sink…
        let index: Int
        let time: Double
    }

    private var child: Child
    private let handle: FileHandle
    private var partial = ""

    init(desktop: PrivateDesktop) throws {
        let path = desktop.directory + "/pactl-subscribe.log"
        // stdbuf: pactl writes through stdio, which would hold events back in a buffer when stdout is a file.
        child = try Child.spawn("stdbuf", ["-oL", "pactl", "subscribe"], environment: desktop.environment, stdout: path, stderr: path)
        guard eventually(5, { FileManager.default.fileExists(atPath: path) }) else {
            throw HarnessError(message: "pactl subscribe did not start")
        }
        handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        Thread.sleep(forTimeInterval: 0.2) // let it subscribe before anything is measured
    }

    /// Events that arrived since the last call.
    func poll() -> [Event] {
        let data = handle.availableData
        guard !data.isEmpty else { return [] }
        let now = monotonicSeconds()
        partial += String(decoding: data, as: UTF8.self)
        var lines = partial.components(separatedBy: "\n")
        partial = lines.removeLast()
        return lines.compactMap { line in
            // Event 'new' on sink-input #12
            let parts = line.components(separatedBy: "'")
            guard parts.count == 3, let hash = parts[2].lastIndex(of: "#"),
                  let index = Int(parts[2][parts[2].index(after: hash)...]) else { return nil }
            let facility = parts[2].replacingOccurrences(of: " on ", with: "").components(separatedBy: " #").first ?? ""
            return Event(kind: parts[1], facility: facility.trimmingCharacters(in: .whitespaces), index: index, time: now)
        }
    }

    func stop() {
        kill(child.pid, SIGKILL)
        _ = child.wait()
    }
}

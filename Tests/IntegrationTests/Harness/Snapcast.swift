import Foundation
import Glibc
import TestSupport

/// Reprise's Snapcast stream plugin, built beside the reprise under test.
let snapcastPlugin = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent().appendingPathComponent("reprise-snapcast").path

/// A private snapserver 0.26 inside a network namespace: one pipe stream named `Reprise` (44.1 kHz, 16 bit, stereo,
/// PCM, 1 s buffer) whose `controlscript` is Reprise's plugin, stream port 1704 and JSON-RPC control on 1705, both on
/// loopback; killed by PID in the session's ``Session/close()``.
final class PrivateSnapserver {
    let fifo: String
    private let namespace: NetworkNamespace
    private var control: Int32 = -1
    private var buffered: [UInt8] = []
    private var nextID = 0
    /// Notifications the server sent on the control connection, in order (method and params).
    private(set) var notifications: [(method: String, params: [String: Any])] = []

    let controlPort: UInt16

    /// - Parameters:
    ///   - name: the server's folder and log name.
    ///   - plugin: the stream's `controlscript` (Reprise's plugin, or the reference's `meta_mpd.py`).
    ///   - environment: for the server and so its plugin (snapserver 0.26 passes the plugin no parameters of the config's).
    init(session: Session, namespace: NetworkNamespace, name: String = "snapserver", streamPort: UInt16 = 1704,
         controlPort: UInt16 = 1705, plugin: String = snapcastPlugin, environment: [String: String] = [:]) throws {
        self.namespace = namespace
        self.controlPort = controlPort
        let folder = try session.makeFolder(name)
        fifo = folder + "/reprise.fifo"
        let config = """
            [server]
            datadir = \(folder)
            [http]
            enabled = false
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            source = pipe://\(fifo)?name=Reprise&mode=create&controlscript=\(plugin)
            sampleformat = 44100:16:2
            codec = pcm
            buffer = 1000
            [logging]
            filter = *:info

            """
        try config.write(toFile: folder + "/snapserver.conf", atomically: true, encoding: .utf8)
        let server = try namespace.entered {
            try session.start("snapserver", ["--config", folder + "/snapserver.conf"], logName: name, extraEnvironment: environment)
        }
        // The plugin is snapserver's child: killed with it, snapserver leaves it behind (meta_mpd.py then spins on its
        // closed stdin for good). Its processes are ended by PID before snapserver is.
        session.onClose { killDescendants(of: server) }
        guard eventually(20, { connectControl() }) else {
            throw HarnessError(message: "snapserver did not listen on \(controlPort): \(session.output(ofLog: name))")
        }
    }

    deinit { if control >= 0 { close(control) } }

    private func connectControl() -> Bool {
        guard let descriptor = try? namespace.entered({ LoopbackListener.connect(port: controlPort) }) else { return false }
        // A request snapserver never answers fails the test instead of hanging it.
        var patience = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        control = descriptor
        return true
    }

    /// Sends a JSON-RPC request on the control connection and returns its `result` (or throws its `error`).
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:]) throws -> Any {
        nextID += 1
        let id = nextID
        let request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
        var data = try JSONSerialization.data(withJSONObject: request)
        data.append(10)
        guard LoopbackListener.send(data, to: control) else { throw HarnessError(message: "snapserver closed its control port") }
        while true {
            let message = try readMessage()
            if let method = message["method"] as? String, message["id"] == nil {
                notifications.append((method, message["params"] as? [String: Any] ?? [:]))
                continue
            }
            guard (message["id"] as? Int) == id else { continue }
            if let error = message["error"] { throw HarnessError(message: "\(method): \(error)") }
            return message["result"] ?? NSNull()
        }
    }

    /// The stream `Reprise` as `Server.GetStatus` shows it.
    func stream() throws -> [String: Any] {
        let status = try call("Server.GetStatus") as? [String: Any]
        let server = status?["server"] as? [String: Any]
        let streams = server?["streams"] as? [[String: Any]] ?? []
        guard let stream = streams.first(where: { $0["id"] as? String == "Reprise" }) else {
            throw HarnessError(message: "no stream Reprise in \(String(describing: status))")
        }
        return stream
    }

    /// The stream's properties (what its plugin reported).
    func properties() throws -> [String: Any] { try stream()["properties"] as? [String: Any] ?? [:] }

    private func readMessage() throws -> [String: Any] {
        while true {
            if let end = buffered.firstIndex(of: 10) {
                let line = Data(buffered[..<end])
                buffered.removeSubrange(...end)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { return object }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(control, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw HarnessError(message: count < 0 ? "snapserver did not answer within 30 s" : "snapserver's control connection ended")
            }
            buffered += chunk[..<count]
        }
    }
}

/// Kills (SIGKILL) every process descended from `pid`, found by their parent PIDs in /proc: the deepest first.
func killDescendants(of pid: pid_t) {
    var parents: [pid_t: pid_t] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = pid_t(fields[1]) { parents[child] = parent }
    }
    var found: [pid_t] = []
    var frontier = [pid]
    while let next = frontier.popLast() {
        let children = parents.filter { $0.value == next }.map(\.key)
        found += children
        frontier += children
    }
    for child in found.reversed() { kill(child, SIGKILL) }
}

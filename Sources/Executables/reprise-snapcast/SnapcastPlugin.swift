import Foundation
import Glibc

/// The plugin's two halves: requests from snapserver (stdin, answered on stdout over one MPD connection) and
/// Reprise's changes (a second connection waiting in `idle`, each change sent as `Plugin.Stream.Player.Properties`).
/// Each connection belongs to its thread; only stdout is shared, behind a lock.
final class SnapcastPlugin: Sendable {
    private let host: String
    private let port: UInt16
    private let output = LineWriter()

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Serves snapserver until it closes stdin (it stops the plugin with SIGINT).
    func run() {
        let (host, port, output) = (host, port, output)
        Thread.detachNewThread { Self.followChanges(host: host, port: port, output: output) }
        output.send(["jsonrpc": "2.0", "method": "Plugin.Stream.Ready"])
        var link: MPDLink?
        while let line = readLine(strippingNewline: true) {
            guard line.utf8.count <= 1 << 20, let data = line.data(using: .utf8),
                  let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let method = request["method"] as? String else {
                output.send(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": -32700, "message": "not a JSON-RPC request"]])
                continue
            }
            guard let id = request["id"] else { continue } // a notification: nothing is asked of the plugin
            let parameters = request["params"] as? [String: Any] ?? [:]
            do {
                if link == nil { link = try MPDLink(host: host, port: port) }
                let result = try Self.answer(method, parameters, over: link!)
                output.send(["jsonrpc": "2.0", "id": id, "result": result])
            } catch let error as RequestError {
                output.send(["jsonrpc": "2.0", "id": id, "error": ["code": error.code, "message": error.message]])
            } catch {
                link = nil // reconnect on the next request (Reprise restarted, say)
                output.send(["jsonrpc": "2.0", "id": id, "error": ["code": -32603, "message": "Reprise: \(error)"]])
            }
        }
    }

    struct RequestError: Error {
        let code: Int
        let message: String
    }

    private static func answer(_ method: String, _ parameters: [String: Any], over link: MPDLink) throws -> Any {
        switch method {
        case "Plugin.Stream.Player.GetProperties":
            return StreamProperties.from(status: try link.fields("status"), song: try link.fields("currentsong"))
        case "Plugin.Stream.Player.Control":
            let state = try link.fields("status")["state"] ?? "stop"
            guard let name = parameters["command"] as? String,
                  let command = StreamProperties.command(for: name, parameters: parameters["params"] as? [String: Any] ?? [:], state: state) else {
                throw RequestError(code: -32602, message: "unknown command or parameters: \(parameters)")
            }
            _ = try link.run(command)
            return "ok"
        case "Plugin.Stream.Player.SetProperty":
            guard let commands = StreamProperties.commands(forProperties: parameters) else {
                throw RequestError(code: -32602, message: "unknown property or value: \(parameters)")
            }
            for command in commands { _ = try link.run(command) }
            return "ok"
        default:
            throw RequestError(code: -32601, message: "no method \(method)")
        }
    }

    /// Waits in `idle` for Reprise's changes and tells snapserver the properties after each; reconnects every 2 s
    /// while Reprise is not there.
    private static func followChanges(host: String, port: UInt16, output: LineWriter) {
        while true {
            do {
                let link = try MPDLink(host: host, port: port)
                while true {
                    let properties = StreamProperties.from(status: try link.fields("status"), song: try link.fields("currentsong"))
                    output.send(["jsonrpc": "2.0", "method": "Plugin.Stream.Player.Properties", "params": properties])
                    _ = try link.run("idle player mixer options playlist")
                }
            } catch {
                output.send(["jsonrpc": "2.0", "method": "Plugin.Stream.Log", "params": ["severity": "warning", "message": "Reprise: \(error)"]])
                sleep(2)
            }
        }
    }
}

/// Writes one JSON object per line on stdout, whole, from any thread.
final class LineWriter: @unchecked Sendable {
    private let lock = NSLock()

    func send(_ object: [String: Any]) {
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(10)
        lock.withLock {
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { exit(0) } // snapserver went away
                    offset += written
                }
            }
        }
    }
}

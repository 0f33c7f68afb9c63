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

    /// The longest request line taken from snapserver (its requests are a few hundred bytes).
    static let requestLimit = 1 << 20

    /// Serves snapserver until it closes stdin (it stops the plugin with SIGINT). Every request is answered, with a
    /// result or with an error whose `data` is a string: snapserver 0.26 reads an error's `data` as a string and,
    /// when it is missing, never answers its own client.
    func run() {
        let (host, port, output) = (host, port, output)
        Thread.detachNewThread { Self.followChanges(host: host, port: port, output: output) }
        output.send(["jsonrpc": "2.0", "method": "Plugin.Stream.Ready"])
        var link: MPDLink?
        var input = BoundedLines(descriptor: 0, limit: Self.requestLimit)
        while true {
            let request: [String: Any]
            switch input.next() {
            case .end: return
            case .tooLong:
                output.send(Self.failure(id: NSNull(), RequestError(code: -32700, message: "Parse error",
                                                                         detail: "a request longer than \(Self.requestLimit) bytes")))
                continue
            case .text(let line):
                guard let parsed = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                    output.send(Self.failure(id: NSNull(), RequestError(code: -32700, message: "Parse error", detail: "not a JSON object")))
                    continue
                }
                request = parsed
            }
            guard let id = request["id"] else { continue } // a notification: nothing is asked of the plugin
            guard let method = request["method"] as? String else {
                output.send(Self.failure(id: id, RequestError(code: -32600, message: "Invalid request", detail: "no method")))
                continue
            }
            guard Self.methods.contains(method) else {
                output.send(Self.failure(id: id, RequestError(code: -32601, message: "Method not found", detail: "no method \(method.prefix(200))")))
                continue
            }
            let parameters = request["params"] as? [String: Any] ?? [:]
            do {
                let connected = try link ?? MPDLink(host: host, port: port)
                link = connected
                let result = try Self.answer(method, parameters, over: connected)
                if !output.send(["jsonrpc": "2.0", "id": id, "result": result]) {
                    output.send(Self.failure(id: id, RequestError(code: -32603, message: "Internal error", detail: "the answer could not be written as JSON")))
                }
            } catch let error as RequestError {
                output.send(Self.failure(id: id, error))
            } catch let refusal as MPDLink.Refusal where refusal.line.hasPrefix("ACK ") {
                // Reprise refused the command; the link is still good.
                output.send(Self.failure(id: id, RequestError(code: -32603, message: "Reprise refused", detail: refusal.line)))
            } catch {
                link = nil // reconnect on the next request (Reprise restarted, say)
                output.send(Self.failure(id: id, RequestError(code: -32603, message: "Internal error", detail: "Reprise: \(error)")))
            }
        }
    }

    /// The requests snapserver sends a stream plugin.
    static let methods: Set = ["Plugin.Stream.Player.GetProperties", "Plugin.Stream.Player.Control", "Plugin.Stream.Player.SetProperty"]

    /// A JSON-RPC error answer in the shape snapserver parses.
    static func failure(id: Any, _ error: RequestError) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id, "error": ["code": error.code, "message": error.message, "data": error.detail]]
    }

    /// A request refused: JSON-RPC's code and message, and what was wrong (the error's `data`).
    struct RequestError: Error {
        let code: Int
        let message: String
        let detail: String
    }

    private static func answer(_ method: String, _ parameters: [String: Any], over link: MPDLink) throws -> Any {
        switch method {
        case "Plugin.Stream.Player.GetProperties":
            return StreamProperties.from(status: try link.fields("status"), song: try link.fields("currentsong"))
        case "Plugin.Stream.Player.Control":
            let state = try link.fields("status")["state"] ?? "stop"
            guard let name = parameters["command"] as? String,
                  let command = StreamProperties.command(for: name, parameters: parameters["params"] as? [String: Any] ?? [:], state: state) else {
                throw RequestError(code: -32602, message: "Invalid params", detail: "unknown command or parameters: \(Self.brief(parameters))")
            }
            _ = try link.run(command)
            return "ok"
        case "Plugin.Stream.Player.SetProperty":
            guard let commands = StreamProperties.commands(forProperties: parameters) else {
                throw RequestError(code: -32602, message: "Invalid params", detail: "unknown property or value: \(Self.brief(parameters))")
            }
            for command in commands { _ = try link.run(command) }
            return "ok"
        default:
            throw RequestError(code: -32601, message: "Method not found", detail: "no method \(method.prefix(200))")
        }
    }

    /// Parameters as a short text for an error's detail (a peer's input, so at most 200 characters of it).
    private static func brief(_ parameters: [String: Any]) -> String {
        let text = (try? JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys, .fragmentsAllowed]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "\(parameters.keys.sorted())"
        return text.count > 200 ? text.prefix(200) + "…" : text
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
                    _ = try link.run("idle player mixer options playlist", waiting: true)
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

    /// Writes `object`; false when it cannot be written as JSON (nothing is written then).
    @discardableResult
    func send(_ object: [String: Any]) -> Bool {
        guard JSONSerialization.isValidJSONObject(object),
              var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return false }
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
        return true
    }
}

import Foundation
import Glibc
import TestSupport

/// A real Maloja scrobble server (from PyPI, in the test set-up's virtual environment) on loopback, with a token
/// made for the test; what it stored is read back through its own API.
final class Maloja {
    static let binary = packageRoot.appendingPathComponent(".build/test-python/bin/maloja").path
    let port: UInt16
    let token = "reprise-test-token-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    let pid: pid_t
    /// The base address Reprise is given (listenbrainz-url).
    var listenBrainzURL: String { "http://127.0.0.1:\(port)/apis/listenbrainz" }

    /// Starts Maloja on `port` (a free one by default) with its data under the session's directory.
    init(_ session: Session, port: UInt16? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw HarnessError(message: "Maloja is not installed: run scripts/install-test-python.sh (make test does)")
        }
        self.port = try port ?? freeLoopbackPort()
        let data = session.directory + "/maloja-\(self.port)"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "reprise-test: \(token)\n".write(toFile: data + "/apikeys.yml", atomically: true, encoding: .utf8)
        pid = try session.start(Self.binary, ["run"], logName: "maloja-\(self.port)", extraEnvironment: [
            "MALOJA_DATA_DIRECTORY": data, "MALOJA_PORT": String(self.port), "MALOJA_HOST": "127.0.0.1",
            "MALOJA_SKIP_SETUP": "yes", "MALOJA_FORCE_PASSWORD": "test", "MALOJA_LOGGING": "true",
            // Its query cache can keep a stale answer: a read that began before a listen was stored is cached after
            // the store cleared the cache, and a test polling for the listen would never see it.
            "MALOJA_USE_GLOBAL_CACHE": "false",
        ])
        let up = eventually(60) { httpGet(port: self.port, path: "/apis/mlj_1/serverinfo")?.status == 200 }
        guard up else { throw HarnessError(message: "Maloja did not answer: \(session.output(ofLog: "maloja-\(self.port)"))") }
    }

    /// What Maloja stored: (artist, title, album, length in seconds, time), oldest first.
    func scrobbles() throws -> [(artists: [String], title: String, album: String?, length: Int?, time: Int64)] {
        guard let answer = httpGet(port: port, path: "/apis/mlj_1/scrobbles?from=2000&to=2100"), answer.status == 200,
              let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
              let list = object["list"] as? [[String: Any]] else {
            throw HarnessError(message: "Maloja's scrobbles could not be read")
        }
        return list.compactMap { item in
            guard let track = item["track"] as? [String: Any], let title = track["title"] as? String,
                  let time = item["time"] as? NSNumber else { return nil }
            return (track["artists"] as? [String] ?? [], title, (track["album"] as? [String: Any])?["albumtitle"] as? String,
                    (track["length"] as? NSNumber)?.intValue, time.int64Value)
        }.sorted { $0.time < $1.time }
    }
}

/// A ListenBrainz endpoint on loopback that answers as the test says — accepting, 500, 429 with rate-limit
/// headers, a 200 whose body is not JSON, dropping the connection, or never answering — and records every request.
final class ScriptedListenServer: @unchecked Sendable {
    enum Mode: Sendable {
        case accept
        case status(Int)
        case rateLimited(resetIn: String)
        /// 503 with `Retry-After`.
        case unavailable(retryAfter: String)
        case malformed
        case dropConnection
        case hang
    }

    struct Request: @unchecked Sendable {
        let path: String
        let authorization: String?
        let body: [String: Any]?
        let at: Double
    }

    private var listener: LoopbackListener!
    private let lock = NSLock()
    private var mode = Mode.accept
    private var recorded: [Request] = []
    private var hanging: [Int32] = []

    init() throws {
        // Weak: a connection can still arrive after the test that made this server ended (the service it
        // started retrying as it was stopped); it is then only closed.
        listener = try LoopbackListener { [weak self] client in self?.serve(client) }
    }

    deinit { listener?.stop() }

    var url: String { "http://127.0.0.1:\(listener.port)/lb" }

    func setMode(_ newMode: Mode) { lock.withLock { mode = newMode } }
    var requests: [Request] { lock.withLock { recorded } }

    /// The listens of accepted submissions, in the order they came.
    var acceptedListens: [[String: Any]] { lock.withLock { accepted } }
    private var accepted: [[String: Any]] = []

    func stop() { listener.stop() }

    private func serve(_ client: Int32) {
        guard let (head, body) = Self.readRequest(client) else { return }
        let lines = head.split(separator: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let authorization = lines.first { $0.lowercased().hasPrefix("authorization:") }
            .map { String($0.dropFirst("authorization:".count)).trimmingCharacters(in: .whitespaces) }
        let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        let mode = lock.withLock {
            recorded.append(Request(path: path, authorization: authorization, body: json, at: monotonicSeconds()))
            return self.mode
        }
        func answer(_ status: Int, _ headers: [String] = [], _ text: String) {
            let reply = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(text.utf8.count)\r\n"
                + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n" + text
            _ = LoopbackListener.send(Data(reply.utf8), to: client)
        }
        switch mode {
        case .accept:
            if json?["listen_type"] as? String != "playing_now" {
                lock.withLock { accepted += json?["payload"] as? [[String: Any]] ?? [] }
            }
            answer(200, ["X-RateLimit-Limit: 30", "X-RateLimit-Remaining: 29", "X-RateLimit-Reset-In: 10"], "{\"status\":\"ok\"}")
        case .status(let status): answer(status, [], "{\"code\":\(status),\"error\":\"scripted failure\"}")
        case .rateLimited(let reset):
            answer(429, ["X-RateLimit-Limit: 30", "X-RateLimit-Remaining: 0", "X-RateLimit-Reset-In: \(reset)"],
                   "{\"code\":429,\"error\":\"slow down\"}")
        case .unavailable(let retryAfter):
            answer(503, ["Retry-After: \(retryAfter)"], "{\"code\":503,\"error\":\"down for maintenance\"}")
        case .malformed: answer(200, [], "<html>\u{1B}[2J not json")
        case .dropConnection: return
        case .hang: Thread.sleep(forTimeInterval: 600)
        }
    }

    /// The request's head and its body (Content-Length bytes).
    private static func readRequest(_ client: Int32) -> (String, [UInt8])? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var length = 0
        while bytes.count < 8 << 20 {
            if let end = headEnd, bytes.count >= end + length { break }
            let count = read(client, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
            if headEnd == nil, let range = bytes.firstRange(of: [13, 10, 13, 10]) {
                headEnd = range.upperBound
                let head = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
                length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            }
        }
        guard let end = headEnd else { return nil }
        return (String(decoding: bytes[..<(end - 4)], as: UTF8.self), Array(bytes[end...]))
    }
}

/// A port on 127.0.0.1 that nothing listens on now.
func freeLoopbackPort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard descriptor >= 0, bound else { throw HarnessError(message: "no free loopback port") }
    return UInt16(bigEndian: address.sin_port)
}

/// A GET on loopback (HTTP/1.0, the whole answer read): status and body, or nil when nothing answered.
func httpGet(port: UInt16, path: String) -> (status: Int, body: [UInt8])? {
    guard let descriptor = LoopbackListener.connect(port: port) else { return nil }
    defer { close(descriptor) }
    guard LoopbackListener.send(Data("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8), to: descriptor) else { return nil }
    let bytes = LoopbackListener.readAll(descriptor)
    guard let end = bytes.firstRange(of: [13, 10, 13, 10]),
          let status = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return nil }
    return (status, Array(bytes[end.upperBound...]))
}

import Foundation

/// Files over HTTP on loopback, as a UPnP media server serves them: each at its path (lowercase: requests are read
/// lowercased) with the `Content-Type` given — any spelling, an alias such as `audio/x-flac` included —,
/// `Accept-Ranges: bytes`, a `Range: bytes=…` request answered `206` with that part (GStreamer's HTTP source needs
/// ranges to seek), `HEAD` with the headers alone, and anything else `404`.
public final class MediaFileServer: @unchecked Sendable {
    public typealias File = (path: String, bytes: [UInt8], contentType: String)

    private var listener: LoopbackListener!
    private let files: [String: File]
    private let lock = NSLock()
    private var served: [String] = []

    public init(_ files: [File]) throws {
        self.files = Dictionary(files.map { ($0.path.lowercased(), $0) }) { first, _ in first }
        listener = try LoopbackListener { [weak self] client in self?.serve(client) }
    }

    public func url(of path: String) -> String { "http://127.0.0.1:\(listener.port)\(path.lowercased())" }

    /// Each request's method, path and range (`GET /a.flac bytes=0-`), in the order they came.
    public var requests: [String] { lock.withLock { served } }

    public func stop() { listener.stop() }

    deinit { listener?.stop() }

    private func serve(_ client: Int32) {
        guard let request = LoopbackListener.readRequest(client) else { return }
        let lines = request.split(separator: "\r\n").map(String.init)
        let words = lines.first?.split(separator: " ").map(String.init) ?? []
        guard words.count >= 2 else { return }
        let (method, path) = (words[0], words[1])
        let range = lines.dropFirst().first { $0.hasPrefix("range:") }.map { $0.dropFirst("range:".count).trimmingCharacters(in: .whitespaces) }
        lock.withLock { served.append([method.uppercased(), path, range].compactMap { $0 }.joined(separator: " ")) }
        guard method == "get" || method == "head", let file = files[path] else {
            _ = LoopbackListener.send(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), to: client)
            return
        }
        let size = file.bytes.count
        var part = 0..<size
        var status = "200 OK"
        var extra = ""
        if let range {
            guard let asked = Self.byteRange(range, size: size) else {
                let refusal = "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(size)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                _ = LoopbackListener.send(Array(refusal.utf8), to: client)
                return
            }
            part = asked
            status = "206 Partial Content"
            extra = "Content-Range: bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)\r\n"
        }
        let head = "HTTP/1.1 \(status)\r\nContent-Type: \(file.contentType)\r\nContent-Length: \(part.count)\r\n"
            + "Accept-Ranges: bytes\r\n\(extra)Connection: close\r\n\r\n"
        guard LoopbackListener.send(Array(head.utf8), to: client), method == "get" else { return }
        _ = LoopbackListener.send(file.bytes[part], to: client)
    }

    /// The bytes `bytes=A-B`, `bytes=A-` or `bytes=-N` asks for in a file of `size`; nil when none of them exist.
    public static func byteRange(_ value: String, size: Int) -> Range<Int>? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let bounds = value.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        switch (Int(bounds[0]), Int(bounds[1])) {
        case (let first?, let last?) where first <= last && first < size: return first..<min(last + 1, size)
        case (let first?, nil) where bounds[1].isEmpty && first < size: return first..<size
        case (nil, let count?) where bounds[0].isEmpty && count > 0 && size > 0: return max(0, size - count)..<size
        default: return nil
        }
    }
}

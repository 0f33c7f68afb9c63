import Foundation
import TestSupport

/// An HTTP server on loopback that serves one file slowly: the first `head` bytes at once, then nothing for
/// `stall` seconds, then the rest — network media that buffers. Only the first request stalls; later ones
/// (byte ranges for demuxers that look at the end of the file, or a demuxer reading from the start again) are
/// served at once. Serves each connection on its own thread.
final class TrickleServer: @unchecked Sendable {
    private var listener: LoopbackListener!
    private let body: Data
    private let head: Int
    private let stall: Double
    private let lock = NSLock()
    private var hasStalled = false

    init(serving body: Data, head: Int, stall: Double) throws {
        self.body = body
        self.head = head
        self.stall = stall
        listener = try LoopbackListener { [weak self] client in self?.serve(client) }
    }

    var url: String { "http://127.0.0.1:\(listener.port)/clip.ogv" }

    /// Stops accepting (connections being served end when their client goes).
    func stop() { listener.stop() }

    deinit { listener?.stop() }

    private func serve(_ client: Int32) {
        guard let text = LoopbackListener.readRequest(client) else { return }
        var start = 0
        if let range = text.range(of: "range: bytes=") {
            start = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        start = min(start, body.count)
        var header = start > 0 ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(start)-\(body.count - 1)/\(body.count)\r\n"
                               : "HTTP/1.1 200 OK\r\n"
        header += "Content-Type: video/ogg\r\nAccept-Ranges: bytes\r\nContent-Length: \(body.count - start)\r\nConnection: close\r\n\r\n"
        guard LoopbackListener.send(Data(header.utf8), to: client) else { return }
        let stallsNow = lock.withLock {
            defer { hasStalled = true }
            return !hasStalled
        }
        guard start == 0, stallsNow else {
            _ = LoopbackListener.send(body.dropFirst(start), to: client)
            return
        }
        guard LoopbackListener.send(body.prefix(head), to: client) else { return }
        Thread.sleep(forTimeInterval: stall)
        _ = LoopbackListener.send(body.dropFirst(head), to: client)
    }
}

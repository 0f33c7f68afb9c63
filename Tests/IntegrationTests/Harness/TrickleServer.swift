import Foundation
import Glibc
import TestSupport

/// An HTTP server on loopback that serves one file slowly: the first `head` bytes at once, then nothing for
/// `stall` seconds, then the rest — network media that buffers. Only the first request stalls; later ones
/// (byte ranges for demuxers that look at the end of the file, or a demuxer reading from the start again) are
/// served at once. Serves each connection on its own thread.
final class TrickleServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let body: Data
    private let head: Int
    private let stall: Double
    private let lock = NSLock()
    private var hasStalled = false

    init(serving body: Data, head: Int, stall: Double) throws {
        self.body = body
        self.head = head
        self.stall = stall
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(listener, 8) == 0 else { throw HarnessError(message: "could not listen on loopback") }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var url: String { "http://127.0.0.1:\(port)/clip.ogv" }

    /// Stops accepting (connections being served end when their client goes).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request = [UInt8](repeating: 0, count: 4096)
        let count = read(client, &request, request.count)
        guard count > 0 else { return }
        let text = String(decoding: request[..<count], as: UTF8.self).lowercased()
        var start = 0
        if let range = text.range(of: "range: bytes=") {
            start = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        start = min(start, body.count)
        var header = start > 0 ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(start)-\(body.count - 1)/\(body.count)\r\n"
                               : "HTTP/1.1 200 OK\r\n"
        header += "Content-Type: video/ogg\r\nAccept-Ranges: bytes\r\nContent-Length: \(body.count - start)\r\nConnection: close\r\n\r\n"
        guard send(Data(header.utf8), to: client) else { return }
        let stallsNow = lock.withLock {
            defer { hasStalled = true }
            return !hasStalled
        }
        guard start == 0, stallsNow else {
            _ = send(body.dropFirst(start), to: client)
            return
        }
        guard send(body.prefix(head), to: client) else { return }
        Thread.sleep(forTimeInterval: stall)
        _ = send(body.dropFirst(head), to: client)
    }

    private func send(_ data: Data, to client: Int32) -> Bool {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.send(client, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}

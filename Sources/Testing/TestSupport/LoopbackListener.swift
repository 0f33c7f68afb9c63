import Foundation
import Glibc

/// A TCP listener on 127.0.0.1 (a free port) that hands each connection to `serve` on a thread of its own; the
/// connection is closed when `serve` returns. A server that owns one captures itself weakly in `serve` and stops it
/// in its deinit: a connection may arrive after the test that made it ended.
public final class LoopbackListener: @unchecked Sendable {
    public let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var stopped = false

    public init(serve: @escaping @Sendable (Int32) -> Void) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, bound, Glibc.listen(descriptor, 8) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw HarnessError(message: "could not listen on loopback")
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread {
                    serve(client)
                    close(client)
                }
            }
        }
    }

    /// Stops accepting (connections being served end when their client goes or `serve` returns). Once: a second
    /// call (a test's, then its server's deinit) closes nothing that may since be another descriptor.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Reads a request's head up to its blank line (at most 16 KiB, however many reads it arrives in), lowercased;
    /// nil when the client sent nothing.
    public static func readRequest(_ client: Int32) -> String? {
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while request.count < 16_384 {
            let count = read(client, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            request += chunk[..<count]
            if request.count >= 4, request.suffix(4) == [13, 10, 13, 10] { break }
        }
        guard !request.isEmpty else { return nil }
        return String(decoding: request, as: UTF8.self).lowercased()
    }

    /// Writes all of `data`; false once the client has gone.
    public static func send<Bytes: DataProtocol>(_ data: Bytes, to client: Int32) -> Bool {
        let bytes = Array(data)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(client, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// A TCP connection to 127.0.0.1:`port` whose reads give up after 10 s; nil when nothing listens there.
    public static func connect(port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Everything `descriptor` gives until its peer closes it (or a read times out).
    public static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}

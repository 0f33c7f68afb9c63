import Glibc

/// A client of MPD's text protocol on its Unix socket: one command, its reply lines up to `OK` (nil on `ACK`, or
/// when the connection fails). What `mpc` does, in-process, so that polling MPD costs no process start.
final class MPDClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    /// Connects and reads MPD's greeting; nil when nothing answers at `socket`.
    init?(socket path: String) {
        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close()
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0, let greeting = line(), greeting.hasPrefix("OK MPD") else {
            close()
            return nil
        }
    }

    private var closed = false

    deinit { close() }

    /// Ends the connection (once).
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    /// Sends `command` and returns the lines of its reply (without the final `OK`); nil when MPD refused it.
    func send(_ command: String) -> [String]? {
        guard write(command) else { return nil }
        return reply()
    }

    /// Sends `command` without reading its reply (``reply()`` reads it).
    func write(_ command: String) -> Bool {
        let bytes = Array((command + "\n").utf8)
        // No SIGPIPE when the server has closed the connection (MPD closes one whose reply outgrows its buffer).
        return bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
    }

    /// The lines of the next reply (without the final `OK`); nil on `ACK` or a closed connection.
    func reply() -> [String]? {
        var lines: [String] = []
        while let line = line() {
            if line == "OK" { return lines }
            if line.hasPrefix("ACK") { return nil }
            lines.append(line)
        }
        return nil
    }

    /// Whether a reply has come that was not read yet (an `idle` answered at once by a change from before it).
    var hasUnreadReply: Bool {
        if buffer[start...].contains(10) { return true }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0
    }

    /// The value of `key: value` lines of a reply.
    static func value(_ key: String, in lines: [String]) -> String? {
        lines.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    /// The next line. Lines are taken from ``start`` on (the buffer is compacted only when it is read into again):
    /// taking each line off the front would move the rest of a long reply once per line, and time the client.
    private func line() -> String? {
        while true {
            if let end = buffer[start...].firstIndex(of: 10) {
                let text = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + 1
                return text
            }
            buffer.removeSubrange(..<start)
            start = 0
            let old = buffer.count
            buffer += repeatElement(0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, 65_536) }
            buffer.removeLast(65_536 - max(0, count))
            guard count > 0 else { return nil }
        }
    }
}

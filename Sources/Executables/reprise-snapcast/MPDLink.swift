import Foundation
import Glibc

/// One connection to Reprise's MPD server (TCP, or a Unix socket when the host is a path), used from one thread.
/// Commands are answered as `key: value` pairs; an `ACK` is thrown as ``MPDLink/Refusal``.
final class MPDLink {
    struct Refusal: Error, CustomStringConvertible {
        let line: String
        var description: String { line }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects and reads the server's `OK MPD …` greeting.
    init(host: String, port: UInt16) throws {
        descriptor = try Self.connect(host: host, port: port)
        guard try readLine().hasPrefix("OK MPD ") else {
            close(descriptor)
            throw Refusal(line: "\(host): not an MPD server")
        }
    }

    deinit { close(descriptor) }

    /// Sends `command` and returns its answer's pairs, in order.
    func run(_ command: String) throws -> [(key: String, value: String)] {
        try write(command + "\n")
        var pairs: [(String, String)] = []
        while true {
            let line = try readLine()
            if line == "OK" { return pairs }
            if line.hasPrefix("ACK ") { throw Refusal(line: line) }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            pairs.append((String(line[..<colon]), String(value)))
        }
    }

    /// The answer's pairs as a dictionary (the first of each key).
    func fields(_ command: String) throws -> [String: String] {
        try run(command).reduce(into: [:]) { fields, pair in
            if fields[pair.key] == nil { fields[pair.key] = pair.value }
        }
    }

    private func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Refusal(line: "the connection to Reprise closed") }
            offset += sent
        }
    }

    /// One line of the answer (at most 64 KiB: MPD's own limit on what it sends in a line is lower).
    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return line
            }
            guard buffer.count < 65_536 else { throw Refusal(line: "a line longer than 64 KiB") }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Refusal(line: "the connection to Reprise closed") }
            buffer += chunk[..<count]
        }
    }

    private static func connect(host: String, port: UInt16) throws -> Int32 {
        if host.hasPrefix("/") {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let path = Array(host.utf8)
            guard descriptor >= 0, path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Refusal(line: "bad socket path \(host)") }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else {
                close(descriptor)
                throw Refusal(line: "cannot connect to \(host)")
            }
            return descriptor
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { throw Refusal(line: "cannot resolve \(host)") }
        defer { freeaddrinfo(first) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if descriptor >= 0 {
                if Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return descriptor }
                close(descriptor)
            }
            candidate = info.pointee.ai_next
        }
        throw Refusal(line: "cannot connect to \(host):\(port)")
    }
}

import Foundation
import Glibc

/// One connection to Reprise's MPD server (TCP, or a Unix socket when the host is a path), used from one thread.
/// Commands are answered as `key: value` pairs; an `ACK` is thrown as ``MPDLink/Refusal``.
///
/// The server is a peer like any other: connecting, the greeting and each answer must come within
/// ``answerTimeout`` (an `idle` may wait for ever, its answer may not trickle), a line is at most 64 KiB and an
/// answer at most ``answerLimit`` bytes; past any of these the link throws and is not used again.
final class MPDLink {
    struct Refusal: Error, CustomStringConvertible {
        let line: String
        var description: String { line }
    }

    /// How long connecting, the greeting and an answer may take (from the command to its `OK`).
    static let answerTimeout: Double = 5
    /// The most an answer may hold: `status` and `currentsong` are a few hundred bytes; a song's tags at MPD's own
    /// limits stay far below this.
    static let answerLimit = 1 << 20
    private static let lineLimit = 65_536

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects and reads the server's `OK MPD …` greeting.
    init(host: String, port: UInt16) throws {
        descriptor = try Self.connect(host: host, port: port, deadline: Self.deadline(after: Self.answerTimeout))
        do {
            var budget = Self.lineLimit
            guard try readLine(deadline: Self.deadline(after: Self.answerTimeout), budget: &budget).hasPrefix("OK MPD ") else {
                throw Refusal(line: "\(host): not an MPD server")
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Sends `command` and returns its answer's pairs, in order. `waiting`: the answer may take as long as it takes
    /// to begin (`idle`), though not to end.
    func run(_ command: String, waiting: Bool = false) throws -> [(key: String, value: String)] {
        try write(command + "\n")
        var pairs: [(String, String)] = []
        var budget = Self.answerLimit
        var deadline = waiting ? nil : Self.deadline(after: Self.answerTimeout)
        while true {
            let line = try readLine(deadline: deadline, budget: &budget)
            if deadline == nil { deadline = Self.deadline(after: Self.answerTimeout) }
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
        let deadline = Self.deadline(after: Self.answerTimeout)
        while offset < bytes.count {
            try wait(for: Int16(POLLOUT), until: deadline)
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard sent > 0 else { throw Refusal(line: "the connection to Reprise closed") }
            offset += sent
        }
    }

    /// One line of the answer, taken from `budget` (the bytes the answer may still hold).
    private func readLine(deadline: Double?, budget: inout Int) throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                guard end < budget else { throw Refusal(line: "an answer longer than \(Self.answerLimit) bytes") }
                budget -= end + 1
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return line
            }
            guard buffer.count < Self.lineLimit else { throw Refusal(line: "a line longer than 64 KiB") }
            guard buffer.count < budget else { throw Refusal(line: "an answer longer than \(Self.answerLimit) bytes") }
            try wait(for: Int16(POLLIN), until: deadline)
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { throw Refusal(line: "the connection to Reprise closed") }
            buffer += chunk[..<count]
        }
    }

    /// Waits until the socket is ready for `events`, or throws when `deadline` (a monotonic time) has passed.
    private func wait(for events: Int16, until deadline: Double?) throws {
        try Self.wait(descriptor, for: events, until: deadline)
    }

    private static func wait(_ descriptor: Int32, for events: Int16, until deadline: Double?) throws {
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let left = deadline.map { max(0, Int32((($0 - now()) * 1000).rounded(.up))) } ?? -1
            let ready = poll(&entry, 1, left)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { throw Refusal(line: "Reprise did not answer within \(Int(answerTimeout)) s") }
            return
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func deadline(after seconds: Double) -> Double { now() + seconds }

    /// A connected, non-blocking socket: connecting waits until `deadline` at most.
    private static func connect(host: String, port: UInt16, deadline: Double) throws -> Int32 {
        if host.hasPrefix("/") {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let path = Array(host.utf8)
            guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Refusal(line: "bad socket path \(host)") }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
            let connected = try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try attempt(family: AF_UNIX, $0, socklen_t(MemoryLayout<sockaddr_un>.size), deadline: deadline)
                }
            }
            guard let connected else { throw Refusal(line: "cannot connect to \(host)") }
            return connected
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { throw Refusal(line: "cannot resolve \(host)") }
        defer { freeaddrinfo(first) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            if let connected = try attempt(family: info.pointee.ai_family, info.pointee.ai_addr, info.pointee.ai_addrlen, deadline: deadline) {
                return connected
            }
            candidate = info.pointee.ai_next
        }
        throw Refusal(line: "cannot connect to \(host):\(port)")
    }

    /// One non-blocking connect: the socket when it connected by `deadline`, nil when refused (throws on time-out).
    private static func attempt(family: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t, deadline: Double) throws -> Int32? {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        if Glibc.connect(descriptor, address, length) == 0 { return descriptor }
        guard errno == EINPROGRESS || errno == EAGAIN else {
            close(descriptor)
            return nil
        }
        do {
            try wait(descriptor, for: Int16(POLLOUT), until: deadline)
        } catch {
            close(descriptor)
            throw error
        }
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size) == 0, failure == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}

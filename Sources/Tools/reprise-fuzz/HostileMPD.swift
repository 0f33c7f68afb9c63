import Foundation
import Glibc
import RepriseCore
import TestSupport

/// Generates hostile MPD requests: every command the server lists, with wrong argument counts, extreme and malformed
/// numbers and ranges, bad quoting, filter expressions cut short, names outside the music folder, bytes that are not
/// UTF-8, NUL inside names, long lines and binary garbage; command lists (some at MPD's 2 MiB limit, some past it)
/// and `idle`/`noidle` in their shapes, so that every request has one reply to wait for (or the connection is
/// closed, which is then counted).
struct HostileMPDRequests {
    private var random: SplitMix
    /// What the server says it implements (its `commands`), read at the start.
    var commands: [String] = ["status"]

    init(seed: UInt64) { random = SplitMix(seed: seed ^ 0x4D50_4400) }

    static let tokens = ["", "0", "1", "-1", "+1", "-0", "+0", "1:", ":", ":1", "1:0", "0:1000000", "2147483648", "-2147483649",
                         "18446744073709551616", "99999999999999999999999", "1.5", "-0.5", "1e308", "nan", "inf", "0x10",
                         "oneshot", "any", "file", "base", "Artist", "album", "musicbrainz_albumid", "group", "window", "sort",
                         "(artist == 'x')", "((artist == 'x') AND (album != ''))", "(!(title contains 'a'))", "((", "(artist ==",
                         "(artist == \"x\")", "(base '..')", "(file starts_with '/')", "../../etc/passwd", "/etc/passwd",
                         "/dev/zero", "file:///dev/zero", "http://127.0.0.1:1/x", "Björk", "\u{202E}rtl", "\\", "\\\"",
                         "read,add", "admin", "clear", "all", "enable", "disable", "Performer", "nosuchtag",
                         "keep\u{0}", "a\u{0}b", "\u{0}", "x\r", String(repeating: "n", count: 251)]

    /// Commands that take a stored playlist's name first.
    static let playlistCommands = ["save", "rm", "rename", "playlistadd", "playlistclear", "playlistdelete", "playlistmove",
                                   "listplaylist", "listplaylistinfo", "load"]

    /// MPD's largest command list (`max_command_list_size`), in bytes of its lines.
    static let commandListBytes = 2 * 1024 * 1024

    /// A command list at MPD's size limit or just past it, of commands that need no permission and change nothing:
    /// the whole list is answered (or, past the limit, the connection closed).
    private mutating func listAtTheLimit() -> [UInt8] {
        let limit = Self.commandListBytes + (chance(0.3) ? 5 : 0)
        var body: [UInt8] = []
        while true {
            let line = Array("\(pick(["ping", "status", "currentsong", "getvol", "playlistinfo 0:1"]))\n".utf8)
            guard body.count + line.count <= limit else { break }
            body += line
        }
        // The rest with a ping padded by spaces (no arguments for MPD's tokenizer).
        if limit - body.count >= 5 { body += Array("ping".utf8) + [UInt8](repeating: 0x20, count: limit - body.count - 5) + [0x0A] }
        return Array("command_list_ok_begin\n".utf8) + body + Array("command_list_end\n".utf8)
    }

    private mutating func chance(_ probability: Double) -> Bool { Double(random.next() % 10_000) < probability * 10_000 }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    /// One argument's bytes: a token (quoted or not), random bytes, or a long one.
    private mutating func argument() -> [UInt8] {
        switch random.next() % 10 {
        case 0: return (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next() | 0x20) }
        case 1: return [UInt8](repeating: UInt8(ascii: "9"), count: Int(random.next() % 5000))
        case 2: return Array("\"".utf8) + Array(pick(Self.tokens).utf8) // never closed
        case 3, 4: return Array("\"\(pick(Self.tokens).replacingOccurrences(of: "\"", with: "\\\""))\"".utf8)
        default: return Array(pick(Self.tokens).utf8)
        }
    }

    /// One request's lines (each ending in a line feed): the server answers it with one reply.
    mutating func next() -> [UInt8] {
        func line(_ name: String, _ arguments: Int) -> [UInt8] {
            var bytes = Array(name.utf8)
            for _ in 0..<arguments { bytes += [0x20] + argument() }
            return bytes.map { $0 == 0x0A ? 0x20 : $0 } + [0x0A]
        }
        switch random.next() % 40 {
        case 0: return Array("idle\nnoidle\n".utf8)
        case 1: return Array("idle player mixer\nnoidle\n".utf8)
        case 2, 3:
            var list = Array((chance(0.5) ? "command_list_begin\n" : "command_list_ok_begin\n").utf8)
            // Not idle inside a list: MPD waits in idle then (no OK until a change), and so does Reprise.
            for _ in 0..<Int(random.next() % 6) { list += line(pick(commands.filter { !Self.avoided.contains($0) }), Int(random.next() % 4)) }
            return list + Array("command_list_end\n".utf8)
        case 4: return (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next() | 1) }.map { $0 == 0x0A ? 0x20 : $0 } + [0x0A]
        case 5: return Array("frobnicate \(pick(Self.tokens))\n".utf8)
        case 6: return Array("password \(pick(Self.tokens).isEmpty ? "x" : "wrong")\n".utf8)
        case 8 where chance(0.05): return listAtTheLimit()
        case 9:
            // A stored playlist's name with NUL, CR, a slash or past the file name limit, where a name goes.
            let name = pick(["keep\u{0}", "a\u{0}b", "x\r", "a/b", String(repeating: "n", count: 251)])
            return Array("\(pick(Self.playlistCommands)) \"\(name)\" \(pick(Self.tokens))\n".utf8).map { $0 == 0x0A ? 0x20 : $0 } + [0x0A]
        case 7 where chance(0.2): return Array("find any \"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 70_000) + [0x22, 0x0A] // past the line limit
        default: return line(pick(commands.filter { !Self.avoided.contains($0) }), Int(random.next() % 5))
        }
    }

    /// Commands that end the connection or change its framing: sent only in their own shapes above (`close` would
    /// only close; `idle` and the list words wait for more).
    static let avoided: Set<String> = ["close", "idle", "noidle", "command_list_begin", "command_list_ok_begin", "command_list_end", "kill"]
}

/// One MPD client over the server's Unix socket, blocking with a timeout: sends a request and reads one reply.
final class MPDFuzzClient {
    private(set) var descriptor: Int32 = -1
    private var buffer: [UInt8] = []
    /// Whether the last read failed because nothing came within the timeout (not an end or an error).
    private var lastReadTimedOut = false
    let socketPath: String

    init?(socketPath: String) {
        self.socketPath = socketPath
        guard connect() else { return nil }
    }

    private func connect() -> Bool {
        if descriptor >= 0 { Glibc.close(descriptor) }
        buffer = []
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0, let greeting = readLine(), greeting.starts(with: Array("OK MPD ".utf8)) else { return false }
        return true
    }

    enum Outcome { case replied, closed, timedOut }

    /// Sends `request` and reads through its reply (the final `OK` or `ACK` line; binary chunks skipped by their
    /// length). A connection the server closed is opened again.
    func ask(_ request: [UInt8]) -> Outcome {
        var ignored: [[UInt8]] = []
        return ask(request, lines: &ignored)
    }

    /// ``ask(_:)``, keeping the reply's lines in `lines`.
    func ask(_ request: [UInt8], lines: inout [[UInt8]]) -> Outcome {
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return reconnect(after: .closed) }
        while true {
            guard let line = readLine() else { return reconnect(after: lastReadTimedOut ? .timedOut : .closed) }
            if line == Array("OK".utf8) || line.starts(with: Array("ACK ".utf8)) { return .replied }
            lines.append(line)
            if line.starts(with: Array("binary: ".utf8)), let count = Int(String(decoding: line.dropFirst(8), as: UTF8.self)) {
                guard skip(count + 1) else { return reconnect(after: .closed) }
            }
        }
    }

    private func reconnect(after outcome: Outcome) -> Outcome {
        _ = connect()
        return outcome
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        lastReadTimedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private func readLine() -> [UInt8]? {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeSubrange(...end) }
                return Array(buffer[..<end])
            }
            guard fill() else { return nil }
        }
    }

    private func skip(_ count: Int) -> Bool {
        while buffer.count < count { guard fill() else { return false } }
        buffer.removeFirst(count)
        return true
    }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}

/// The MPD phase: `requests` hostile requests over `connections` clients of the server's socket, one at a time each,
/// round robin. Every request must be answered or end its connection; none may go unanswered for 10 s.
func fuzzMPD(socketPath: String, requests: Int, connections: Int, seed: UInt64) -> (replied: Int, closed: Int, unanswered: [String]) {
    var generator = HostileMPDRequests(seed: seed)
    let clients = (0..<connections).compactMap { _ in MPDFuzzClient(socketPath: socketPath) }
    defer { clients.forEach { $0.close() } }
    guard !clients.isEmpty else { return (0, 0, ["no MPD connection could be made to \(socketPath)"]) }
    // What the server implements, from its own list.
    var listed: [[UInt8]] = []
    if clients[0].ask(Array("commands\n".utf8), lines: &listed) == .replied {
        let names = listed.compactMap { $0.starts(with: Array("command: ".utf8)) ? String(decoding: $0.dropFirst(9), as: UTF8.self) : nil }
        if !names.isEmpty { generator.commands = names }
    }
    var replied = 0, closed = 0, unanswered: [String] = []
    for index in 0..<requests {
        let request = generator.next()
        switch clients[index % clients.count].ask(request) {
        case .replied: replied += 1
        case .closed: closed += 1
        // Hostile bytes: shown through the one sanitiser, each line of the request after a " | ".
        case .timedOut: unanswered.append(TerminalText.sanitized(String(decoding: request.prefix(2000), as: UTF8.self).replacingOccurrences(of: "\n", with: " | ")))
        }
        if unanswered.count > 5 { break }
    }
    return (replied, closed, unanswered)
}

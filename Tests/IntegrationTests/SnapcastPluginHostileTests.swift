import Foundation
import Glibc
import Testing
import TestSupport

/// `reprise-snapcast` between two peers it must not trust: snapserver's stdin (a line of any length) and the MPD
/// server it is pointed at (a server that never greets, an answer that never ends, numbers JSON cannot carry).
/// Every request is answered, in a shape snapserver parses, and the plugin's memory stays bounded.
@Suite(.serialized) struct SnapcastPluginHostileTests {
    /// A server that accepts and never says a word: each request is answered with an error after the plugin's
    /// time-out, and the plugin goes on serving.
    @Test func aServerThatNeverGreetsGetsEveryRequestAnswered() throws {
        let silent = try LoopbackListener { client in
            var byte: UInt8 = 0
            while read(client, &byte, 1) > 0 {} // holds the connection until the plugin closes it
        }
        defer { silent.stop() }
        let plugin = try PluginUnderTest(mpdPort: silent.port)
        defer { plugin.stop() }
        for id in 1...2 {
            let answer = try plugin.ask(id: id, "Plugin.Stream.Player.GetProperties")
            let error = try #require(answer["error"] as? [String: Any], "\(answer)")
            #expect(error["code"] is Int && error["message"] is String && error["data"] is String, "\(error)")
        }
    }

    /// A `status` answer that never ends: refused once it passes the answer bound, the plugin's memory stays small.
    @Test func anAnswerThatNeverEndsIsCutAtItsBound() throws {
        let endless = try LoopbackListener { client in
            guard LoopbackListener.send(Data("OK MPD 0.23.5\n".utf8), to: client) else { return }
            var byte: UInt8 = 0
            guard read(client, &byte, 1) > 0 else { return }
            let lines = Data(String(repeating: "volume: 50\n", count: 6000).utf8)
            while LoopbackListener.send(lines, to: client) {}
        }
        defer { endless.stop() }
        let plugin = try PluginUnderTest(mpdPort: endless.port)
        defer { plugin.stop() }
        let answer = try plugin.ask(id: 1, "Plugin.Stream.Player.GetProperties")
        let error = try #require(answer["error"] as? [String: Any], "\(answer)")
        #expect((error["data"] as? String)?.contains("longer than") == true, "\(error)")
        #expect(plugin.peakResidentMiB < 64, "the plugin grew to \(plugin.peakResidentMiB) MiB")
    }

    /// `nan`, `inf` and `1e999` where MPD writes times: the answer leaves them out instead of failing to be written.
    @Test func numbersJSONCannotCarryAreLeftOut() throws {
        let odd = try LoopbackListener { client in
            guard LoopbackListener.send(Data("OK MPD 0.23.5\n".utf8), to: client) else { return }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(client, &byte, 1) > 0 {
                guard byte == 10 else { line.append(byte); continue }
                let command = String(decoding: line, as: UTF8.self)
                line = []
                let answer = switch command {
                case "status": "volume: 50\nstate: play\nplaylistlength: 1\nsong: 0\nelapsed: nan\nduration: 1e999\n"
                case "currentsong": "file: odd.flac\nTitle: Odd Numbers\nduration: inf\n"
                default: ""
                }
                if command.hasPrefix("idle") { continue } // never changes
                guard LoopbackListener.send(Data((answer + "OK\n").utf8), to: client) else { return }
            }
        }
        defer { odd.stop() }
        let plugin = try PluginUnderTest(mpdPort: odd.port)
        defer { plugin.stop() }
        let answer = try plugin.ask(id: 7, "Plugin.Stream.Player.GetProperties")
        let result = try #require(answer["result"] as? [String: Any], "\(answer)")
        #expect(result["position"] == nil && result["canSeek"] as? Bool == false, "\(result)")
        let metadata = result["metadata"] as? [String: Any] ?? [:]
        #expect(metadata["title"] as? String == "Odd Numbers" && metadata["duration"] == nil, "\(metadata)")
        #expect(result["volume"] as? Int == 50 && result["playbackStatus"] as? String == "playing")
    }

    /// A 256 MiB line without a newline on stdin is skipped as it arrives: one parse error, the plugin's memory
    /// stays small, and the request after it is answered.
    @Test func aHugeLineFromSnapserverIsBoundedWhileItIsRead() throws {
        let silent = try LoopbackListener { client in
            var byte: UInt8 = 0
            while read(client, &byte, 1) > 0 {}
        }
        defer { silent.stop() }
        let plugin = try PluginUnderTest(mpdPort: silent.port)
        defer { plugin.stop() }
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<256 {
            guard plugin.write(block) else { Issue.record("the plugin stopped reading"); return }
            plugin.sampleMemory()
        }
        _ = plugin.write(Array("\n".utf8))
        let refused = try plugin.nextMessage { $0["error"] != nil }
        #expect(refused["id"] is NSNull && (refused["error"] as? [String: Any])?["data"] is String, "\(refused)")
        let answer = try plugin.ask(id: 2, "Plugin.Stream.Player.Bogus")
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == -32601, "\(answer)")
        #expect(plugin.peakResidentMiB < 64, "the plugin grew to \(plugin.peakResidentMiB) MiB")
    }
}

/// `reprise-snapcast` started as snapserver starts it, its stdin and stdout pipes held by the test, pointed at an MPD
/// server on loopback.
private final class PluginUnderTest {
    private var child: Child
    private let input: Int32, output: Int32
    private var buffered: [UInt8] = []
    private(set) var peakResidentMiB: Double = 0

    init(mpdPort: UInt16) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-snapcast-\(getpid()).log").path
        (child, input, output) = try Child.spawnPiped(snapcastPlugin, ["--stream=Reprise", "--mpd-host=127.0.0.1", "--mpd-port=\(mpdPort)"],
                                                      stderr: log)
        _ = try nextMessage { $0["method"] as? String == "Plugin.Stream.Ready" }
    }

    func sampleMemory() { peakResidentMiB = max(peakResidentMiB, residentMiB(of: child.pid)) }

    /// Writes all of `bytes` to the plugin's stdin; false when it closed it.
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Sends a request and returns the answer that carries its id.
    func ask(id: Int, _ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        var data = try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        data.append(10)
        guard write(Array(data)) else { throw HarnessError(message: "the plugin closed its stdin") }
        return try nextMessage { $0["id"] as? Int == id }
    }

    /// The next message on stdout that `matches`; throws when none came within 30 s (a hang, not slowness: the
    /// plugin's own time-out is 5 s).
    func nextMessage(where matches: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = monotonicSeconds() + 30
        while true {
            sampleMemory()
            if let end = buffered.firstIndex(of: 10) {
                let line = Data(buffered[..<end])
                buffered.removeSubrange(...end)
                if let message = try? JSONSerialization.jsonObject(with: line) as? [String: Any], matches(message) { return message }
                continue
            }
            var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, (deadline - monotonicSeconds()) * 1000))
            guard left > 0, poll(&entry, 1, min(left, 200)) >= 0 || errno == EINTR else {
                throw HarnessError(message: "no answer from the plugin within 30 s")
            }
            guard entry.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(output, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HarnessError(message: "the plugin ended") }
            buffered += chunk[..<count]
        }
    }

    func stop() {
        close(input)
        close(output)
        if child.isRunning() { kill(child.pid, SIGKILL) }
        _ = child.wait()
    }
}

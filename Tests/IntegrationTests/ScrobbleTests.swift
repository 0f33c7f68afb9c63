import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// Scrobbling through the real service: listens stored by a real Maloja after the right listening time and none for
/// skipped, seeked-through or short tracks; the queue kept across an outage and a kill -9; a scripted endpoint's
/// faults (500, 429 with reset headers, a malformed 200, a dropped connection, an answer that never comes); radio
/// titles; hostile token and queue files.
@Suite(.serialized) struct ScrobbleTests {
    static let interface = "app.reprise.Scrobble1"

    /// A tagged Ogg Vorbis tone of `seconds`.
    func track(_ session: Session, _ name: String, seconds: Int, title: String) throws -> String {
        let path = session.directory + "/\(name).ogg"
        try generateTone(at: path, seconds: seconds, tags: "title=\"\(title)\",artist=\"The Testers\",album=\"Test Album\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        return path
    }

    /// A scripted ListenBrainz server on loopback answering as `mode` says, stopped when `session` closes; with a
    /// `token`, the config scrobbles to it.
    func scriptedServer(_ session: Session, mode: ScriptedListenServer.Mode = .accept,
                        token: String? = "token") throws -> ScriptedListenServer {
        let server = try ScriptedListenServer()
        session.onClose { server.stop() }
        server.setMode(mode)
        if let token { _ = try configure(session, url: server.url, token: token) }
        return server
    }

    /// Writes the config (scrobbling to `url`) and a private token file.
    func configure(_ session: Session, url: String, token: String, tokenMode: mode_t = 0o600) throws -> String {
        let config = try session.makeHomeFolder(".config/reprise")
        let tokenFile = config + "/listenbrainz-token"
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, tokenMode)
        try "scrobble = listenbrainz\nlistenbrainz-url = \(url)\nlibrary = off\n"
            .write(toFile: config + "/config", atomically: true, encoding: .utf8)
        return tokenFile
    }

    var queueFile: (Session) -> String { { $0.home + "/.local/state/reprise/listens.jsonl" } }

    func scrobbling(_ session: Session, _ property: String) -> DBusValue? {
        try? session.get(property, interface: Self.interface)
    }

    func queued(_ session: Session) -> UInt32? { if case .uint32(let n)? = scrobbling(session, "Queued") { n } else { nil } }
    func sent(_ session: Session) -> UInt64? { if case .uint64(let n)? = scrobbling(session, "Sent") { n } else { nil } }
    func lastError(_ session: Session) -> String { scrobbling(session, "LastError")?.stringValue ?? "?" }

    /// Plays at twice the speed once loaded (half of a 31 s track is then heard in ~8 s).
    func playFast(_ session: Session, _ media: [String]) throws -> pid_t {
        let pid = try session.launch(media)
        #expect(session.waitFor { session.status() == "Playing" })
        try session.set("Rate", .double(2))
        return pid
    }

    @Test func malojaStoresAListenAfterHalfItsLengthAndNothingForSkippedSeekedOrShortTracks() throws {
        let session = try Session()
        defer { session.close() }
        let maloja = try Maloja(session)
        _ = try configure(session, url: maloja.listenBrainzURL, token: maloja.token)
        let counted = try track(session, "counted", seconds: 31, title: "Counted")
        let seeked = try track(session, "seeked", seconds: 31, title: "Seeked Through")
        let skipped = try track(session, "skipped", seconds: 31, title: "Skipped")
        let short = try track(session, "short", seconds: 12, title: "Short")
        let started = Int64(time(nil))
        _ = try playFast(session, [counted, seeked, skipped, short])
        #expect(session.waitFor(30) { sent(session) == 1 }, "\(lastError(session))")
        let position = session.position() ?? 0
        #expect(position >= 15_000_000, "counted at \(position) µs: half of 31 s is 15.5 s heard")
        // Seeked through: from 22 s to the end is 9 s heard.
        _ = try session.call("Next")
        #expect(session.waitFor { session.title() == "Seeked Through" && (session.position() ?? 0) > 0 })
        _ = try session.call("Seek", [.int64(22_000_000)])
        #expect(session.waitFor(30) { session.title() == "Skipped" })
        usleep(1_000_000)
        _ = try session.call("Next")
        #expect(session.waitFor(30) { session.status() == "Stopped" }, "the short track plays to the end of the queue")
        let stored = try maloja.scrobbles()
        #expect(stored.count == 1, "\(stored)")
        let listen = try #require(stored.first)
        #expect(listen.artists == ["The Testers"] && listen.title == "Counted" && listen.album == "Test Album" && listen.length == 31)
        #expect(listen.time >= started - 2 && listen.time <= started + 10, "listened at \(listen.time), started \(started)")
        #expect(sent(session) == 1 && queued(session) == 0 && lastError(session) == "")
        let status = try runCommand(repriseBinary, ["scrobble"], environment: session.environment)
        #expect(status.output.contains("0 waiting, 1 sent"), "\(status.output)")
    }

    @Test func listensWaitThroughAnOutageAndAKillAndReachMalojaOnce() throws {
        let session = try Session()
        defer { session.close() }
        let port = try freeLoopbackPort()
        _ = try configure(session, url: "http://127.0.0.1:\(port)/apis/listenbrainz", token: "not-yet")
        let counted = try track(session, "counted", seconds: 31, title: "Counted While Offline")
        let first = try playFast(session, [counted])
        #expect(session.waitFor(30) { queued(session) == 1 })
        #expect(session.waitFor { !lastError(session).isEmpty && lastError(session) != "?" }, "refused: nothing listens there")
        let kept = (try? String(contentsOfFile: queueFile(session), encoding: .utf8)) ?? ""
        #expect(kept.contains("Counted While Offline"), "synced to the queue file before anything else: \(kept)")
        kill(first, SIGKILL)
        _ = session.waitForExit(first)
        // The server comes up, on the address Reprise was told; the token is made for it.
        let maloja = try Maloja(session, port: port)
        _ = try configure(session, url: maloja.listenBrainzURL, token: maloja.token)
        try session.launch([])
        #expect(session.waitFor(30) { (try? maloja.scrobbles().count) == 1 }, "\(lastError(session))")
        #expect(session.waitFor { queued(session) == 0 && sent(session) == 1 })
        usleep(1_000_000)
        #expect(try maloja.scrobbles().map(\.title) == ["Counted While Offline"], "sent once")
        #expect(!FileManager.default.fileExists(atPath: queueFile(session)), "an empty queue leaves no file")
    }

    @Test func aScriptedServersFaultsKeepTheListenQueuedAndRepliesPrompt() throws {
        let session = try Session()
        defer { session.close() }
        let server = try scriptedServer(session, mode: .status(500), token: "scripted-token")
        let first = try track(session, "first", seconds: 31, title: "First")
        let second = try track(session, "second", seconds: 31, title: "Second")
        _ = try playFast(session, [first, second])
        // "Playing now" first: the track, no time, with the token.
        #expect(session.waitFor { !server.requests.isEmpty })
        let playingNow = try #require(server.requests.first)
        #expect(playingNow.path == "/lb/1/submit-listens" && playingNow.authorization == "Token scripted-token")
        #expect(playingNow.body?["listen_type"] as? String == "playing_now")
        let item = (playingNow.body?["payload"] as? [[String: Any]])?.first
        #expect(item?["listened_at"] == nil && (item?["track_metadata"] as? [String: Any])?["track_name"] as? String == "First")
        // 500: kept, the error shown, tried again later.
        #expect(session.waitFor(30) { queued(session) == 1 && lastError(session).contains("500") }, "\(lastError(session))")
        // 429 with reset headers: the next request waits for the reset, at least (after `scrobble on` the backoff
        // starts afresh: the longer of its 5 s and the 3 s the server named).
        server.setMode(.rateLimited(resetIn: "3"))
        let before = server.requests.count
        _ = try runCommand(repriseBinary, ["scrobble", "on"], environment: session.environment)
        #expect(session.waitFor { server.requests.count > before && lastError(session).contains("rate limited") })
        let limitedAt = try #require(server.requests.last).at
        server.setMode(.malformed)
        #expect(session.waitFor(15) { lastError(session).contains("without status ok") }, "\(lastError(session))")
        let retriedAt = try #require(server.requests.last).at
        #expect(retriedAt - limitedAt >= 2.9, "retried \(retriedAt - limitedAt) s after a 429 that asked for 3")
        #expect(queued(session) == 1)
        // A connection dropped without an answer.
        server.setMode(.dropConnection)
        let dropped = server.requests.count
        _ = try runCommand(repriseBinary, ["scrobble", "on"], environment: session.environment)
        #expect(session.waitFor { server.requests.count > dropped && lastError(session) != "the server answered 200 without status ok" })
        #expect(queued(session) == 1)
        // The server answers: the listen arrives once.
        server.setMode(.accept)
        _ = try runCommand(repriseBinary, ["scrobble", "on"], environment: session.environment)
        #expect(session.waitFor { queued(session) == 0 && sent(session) == 1 }, "\(lastError(session))")
        let accepted = server.acceptedListens
        #expect(accepted.count == 1 && (accepted.first?["track_metadata"] as? [String: Any])?["track_name"] as? String == "First")
        // An answer that never comes: the listen waits, and replies and keys do not.
        server.setMode(.hang)
        _ = try session.call("Next")
        let hung = server.requests.count
        #expect(session.waitFor(30) { queued(session) == 1 && server.requests.count > hung })
        usleep(300_000)
        let status = try runCommand(repriseBinary, ["status"], environment: session.environment)
        #expect(status.status == 0 && status.output.contains("Second"), "\(status.output)")
        _ = try session.playerctl("-p", "reprise", "play-pause")
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(queued(session) == 1)
    }

    /// A server that says "retry in 0 seconds" (429 with `X-RateLimit-Reset-In: 0` or `0.0001`, 503 with
    /// `Retry-After: 0`) or refuses every listen is not hammered: the named wait is a floor under the backoff, and
    /// listens refused one by one go at most one a second (hundreds of requests a second before).
    @Test(arguments: [ScriptedListenServer.Mode.rateLimited(resetIn: "0"), .rateLimited(resetIn: "0.0001"),
                      .unavailable(retryAfter: "0"), .status(400)])
    func aServerThatRefusesIsNotAskedMoreThanOnceASecond(_ mode: ScriptedListenServer.Mode) throws {
        let session = try Session()
        defer { session.close() }
        let server = try scriptedServer(session, mode: mode)
        // Thirty listens waiting from before: a batch, then (refused) one by one.
        try session.makeHomeFolder(".local/state/reprise")
        let lines = (0..<30).map { "{\"listened_at\":\(1_700_000_000 + $0),\"track_metadata\":{\"artist_name\":\"A\",\"track_name\":\"T\($0)\"}}\n" }
        try lines.joined().write(toFile: queueFile(session), atomically: true, encoding: .utf8)
        try session.launch([]) { !server.requests.isEmpty }
        usleep(6_000_000)
        let times = server.requests.map(\.at)
        let closest = zip(times, times.dropFirst()).map { $1 - $0 }.min() ?? .infinity
        #expect(times.count >= 2 && times.count <= 8, "\(times.count) requests in 6 s")
        #expect(closest >= 0.95, "two requests \(closest) s apart")
        #expect(queued(session).map { $0 > 0 } == true)
    }

    /// A queue file of 120,000 listens (16 MB, more than the queue holds) is read in linear time, and a SIGTERM during
    /// the read stops the service promptly and cleanly: the read is cut short, no component is left behind the stop
    /// bound, and the file stays as it was (11.6 s to load before; a stop then hit the bound and named another part).
    @Test func aHugeQueueFileLoadsAndAStopDuringItIsPrompt() throws {
        let session = try Session()
        defer { session.close() }
        _ = try scriptedServer(session, mode: .status(500))
        try session.makeHomeFolder(".local/state/reprise")
        var text = ""
        for index in 0..<120_000 {
            text += "{\"listened_at\":\(1_700_000_000 + index),\"track_metadata\":{\"artist_name\":\"Artist\",\"track_name\":\"Track \(index)\"}}\n"
        }
        try text.write(toFile: queueFile(session), atomically: true, encoding: .utf8)
        let size = (try? FileManager.default.attributesOfItem(atPath: queueFile(session))[.size] as? Int) ?? 0
        // Stopped while it reads.
        let first = try session.launch([])
        kill(first, SIGTERM)
        #expect(session.waitForExit(first) == 0, "\(session.log(of: first).suffix(3000))")
        #expect(!session.log(of: first).contains("did not finish"), "\(session.log(of: first).suffix(1500))")
        #expect((try? FileManager.default.attributesOfItem(atPath: queueFile(session))[.size] as? Int) == size, "the file as it was")
        // Read whole: the newest 50,000 kept, the rest counted as given up.
        try session.launch([])
        #expect(session.waitFor(60) { queued(session) == 50_000 }, "\(String(describing: queued(session)))")
    }

    @Test func aRadioTitleHeardFromItsStartIsAListenWhenTheNextBegins() throws {
        let session = try Session()
        defer { session.close() }
        let server = try scriptedServer(session, token: "radio-token")
        let path = session.directory + "/live.mp3"
        try generateTone(at: path, seconds: 20, tags: nil, encoder: ["lamemp3enc", "target=bitrate", "bitrate=128", "cbr=true"])
        let station = try IcyServer(audio: try Data(contentsOf: URL(fileURLWithPath: path)),
                                    station: (name: "Test FM", genre: "Test", url: "https://radio.example"), title: "Tuned - In")
        defer { station.stop() }
        try session.launch([station.url]) { session.status() == "Playing" && session.title() == "In" }
        usleep(1_000_000)
        station.setTitle("Radio Artist - Radio Song")
        #expect(session.waitFor { session.title() == "Radio Song" })
        usleep(31_000_000) // heard from its start for more than 30 s
        station.setTitle("Next Artist - Next Song")
        #expect(session.waitFor(20) { sent(session) == 1 }, "\(lastError(session))")
        let listen = try #require(server.acceptedListens.first)
        let metadata = listen["track_metadata"] as? [String: Any]
        #expect(metadata?["artist_name"] as? String == "Radio Artist" && metadata?["track_name"] as? String == "Radio Song")
        #expect((metadata?["additional_info"] as? [String: Any])?["duration"] == nil, "no length on the radio")
        #expect(server.acceptedListens.count == 1, "the title on when tuning in is not a listen")
    }

    /// libcurl and its TLS libraries are mapped only once a request is made: a service that never scrobbles pays
    /// nothing for it.
    @Test func libcurlIsLoadedOnlyWhenARequestIsMade() throws {
        let session = try Session()
        defer { session.close() }
        func maps(_ pid: pid_t) -> String { procText("/proc/\(pid)/maps") }
        let song = try track(session, "song", seconds: 31, title: "Song")
        let quiet = try session.launch([song]) { session.status() == "Playing" }
        #expect(maps(quiet).contains("libgstreamer") && !maps(quiet).contains("libcurl"), "scrobbling off: libcurl not mapped")
        _ = try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        _ = session.waitForExit(quiet)
        let server = try scriptedServer(session)
        let scrobbling = try session.launch([song])
        #expect(session.waitFor { !server.requests.isEmpty }, "playing now sent")
        #expect(maps(scrobbling).contains("libcurl"))
    }

    @Test func aTokenOthersCanReadIsRefusedAndHostileQueueFilesAreSurvived() throws {
        let session = try Session()
        defer { session.close() }
        let server = try scriptedServer(session, token: nil)
        let token = try configure(session, url: server.url, token: "secret", tokenMode: 0o644)
        // A queue file with a valid listen among damage: binary, a deep nest, a huge number, a torn line.
        try session.makeHomeFolder(".local/state/reprise")
        let valid = "{\"listened_at\":1700000000,\"track_metadata\":{\"artist_name\":\"Kept\",\"track_name\":\"From Before\"}}"
        var damaged = Data([0, 1, 2, 0xFF, 0xFE, 10]) + Data(String(repeating: "[", count: 200_000).utf8) + Data("\n".utf8)
        damaged += Data("{\"listened_at\":1e999,\"track_metadata\":{}}\n\(valid)\n{\"listened_at\":17".utf8)
        try damaged.write(to: URL(fileURLWithPath: queueFile(session)))
        try session.launch([])
        #expect(session.waitFor { lastError(session).contains("can be read by others") }, "\(lastError(session))")
        #expect(queued(session) == 1)
        #expect(server.requests.isEmpty, "nothing is sent with a token others can read")
        chmod(token, 0o600)
        _ = try runCommand(repriseBinary, ["scrobble", "on"], environment: session.environment)
        #expect(session.waitFor { sent(session) == 1 && queued(session) == 0 })
        #expect((server.acceptedListens.first?["track_metadata"] as? [String: Any])?["artist_name"] as? String == "Kept")
        #expect(server.requests.allSatisfy { $0.authorization == "Token secret" })

        // A FIFO where the queue file goes: set aside, never waited on; new listens go to a new file.
        let second = try Session()
        defer { second.close() }
        _ = try configure(second, url: server.url, token: "secret")
        let secondState = try second.makeHomeFolder(".local/state/reprise")
        #expect(mkfifo(queueFile(second), 0o600) == 0)
        let pid = try second.launch([])
        #expect(second.waitFor { second.log(of: pid).contains("set aside") }, "\(second.log(of: pid))")
        let aside = (try? FileManager.default.contentsOfDirectory(atPath: secondState)) ?? []
        #expect(aside.contains { $0.hasPrefix("listens.jsonl.unreadable-") }, "\(aside)")
        #expect((try? session.playerctl("-p", "reprise", "status")) != nil)
    }
}

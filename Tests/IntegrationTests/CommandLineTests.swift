import Foundation
import SDBus
import Testing
import TestSupport

/// Every `reprise` verb against a real running service (and another player), with output and exit codes.
@Suite(.serialized) struct CommandLineTests {

    func reprise(_ session: Session, _ arguments: String...) throws -> CommandResult {
        try runCommand(repriseBinary, arguments, environment: session.environment)
    }

    func json(_ result: CommandResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any] ?? [:]
    }

    @Test func statusAndTransportVerbs() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second, media.third]) { session.status() == "Playing" && session.title() == "First Light" }
        let status = try reprise(session, "status")
        #expect(status.status == 0 && status.output.hasPrefix("Playing  First Light — Test Artist (Test Album)"))
        let parsed = json(try reprise(session, "status", "--json"))
        #expect(parsed["status"] as? String == "Playing" && parsed["title"] as? String == "First Light")
        #expect(parsed["artists"] as? [String] == ["Test Artist"] && parsed["length"] is Double)

        #expect(try reprise(session, "pause").status == 0)
        #expect(session.waitFor { session.status() == "Paused" })
        try _ = reprise(session, "toggle")
        #expect(session.waitFor { session.status() == "Playing" })
        try _ = reprise(session, "next")
        #expect(session.waitFor { session.title() == "Second Wind" })
        try _ = reprise(session, "previous")
        #expect(session.waitFor { session.title() == "First Light" })
        try _ = reprise(session, "pause")
        try _ = reprise(session, "play")
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(json(try reprise(session, "play", "--json"))["ok"] as? Bool == true)

        // The key verbs skip the argument parser; what they do not know still reaches it: usage errors, help.
        let unknown = try reprise(session, "toggle", "--loudly")
        #expect(unknown.status == 64 || unknown.status == 2, "\(unknown.status)")
        #expect(unknown.errors.contains("--loudly") && session.status() == "Playing")
        #expect(try reprise(session, "status", "--help").output.contains("--player"))
        let noWords = try reprise(session, "search", "--json")
        #expect(noWords.status != 0 && noWords.errors.contains("words"), "\(noWords.errors)")
        let elsewhere = try reprise(session, "status", "--player", "reprise"), same = try reprise(session, "status", "--player=reprise")
        #expect(elsewhere.status == 0 && elsewhere.output.hasPrefix("Playing") && same.output.hasPrefix("Playing"))
        #expect(try reprise(session, "status", "--player", "nobody").errors.contains("no player named org.mpris.MediaPlayer2.nobody"))
    }

    @Test func seekSpeedVolumeLoopAndShuffle() throws {
        let session = try Session()
        defer { session.close() }
        let service = try session.launch([media.first, media.second]) { session.status() == "Playing" && session.metadata()["mpris:length"] != nil }
        try _ = reprise(session, "seek", "0:12")
        #expect(session.waitFor { (session.position() ?? 0) >= 12_000_000 })
        #expect(try reprise(session, "seek", "-10").status == 0, "a negative position is a position, not an option")
        #expect(session.waitFor { (session.position() ?? .max) < 8_000_000 })
        let bad = try reprise(session, "seek", "soon")
        #expect(bad.status != 0 && bad.errors.contains("not a position"))
        #expect(try reprise(session, "speed", "1.5").output == "1.5×\n")
        #expect(try session.get("Rate") == .double(1.5))
        #expect(session.log(of: service).contains("pitch kept by scaletempo"))
        #expect(try reprise(session, "volume", "50%").output == "50%\n")
        #expect(try session.get("Volume") == .double(0.5))
        #expect(try reprise(session, "volume", "loud").status == 2)
        #expect(try reprise(session, "loop", "playlist").output == "Playlist\n")
        #expect(try reprise(session, "shuffle", "on").output == "on\n")
        #expect(try session.get("Shuffle") == .bool(true))
        #expect(json(try reprise(session, "loop", "--json"))["loop"] as? String == "Playlist")
    }

    @Test func queueVerbs() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.status() == "Playing" }
        let listing = try reprise(session, "queue").output.split(separator: "\n").map(String.init)
        #expect(listing.count == 2 && listing[0].hasPrefix("▶   1  First Light  0:0") && listing[1] == "    2  Second Wind")
        try _ = reprise(session, "add", media.third)
        #expect(session.waitFor { (try? reprise(session, "queue", "--json")).map(json)?["entries"].map { ($0 as? [Any])?.count } == 3 })
        try _ = reprise(session, "goto", "3")
        #expect(session.waitFor { session.title() == "Third Time" })
        let history = try reprise(session, "queue", "--history").output
        #expect(history.hasPrefix("   ·  First Light\n"))
        let entries = json(try reprise(session, "queue", "--json"))["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["current"] as? Bool } == [false, false, true])
        #expect(entries[2]["elapsed"] is Double && entries[0]["elapsed"] is NSNull)
        try _ = reprise(session, "remove", "1")
        #expect(session.waitFor { (try? reprise(session, "queue").output.split(separator: "\n").count) == 2 })
        let outOfRange = try reprise(session, "goto", "9")
        #expect(outOfRange.status == 2 && outOfRange.errors.contains("no entry 9"))
        try _ = reprise(session, "clear")
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(try reprise(session, "queue").output == "(the queue is empty)\n")
    }

    @Test func handingMediaToTheRunningService() throws {
        let session = try Session()
        defer { session.close() }
        let service = try session.launch([media.first]) { session.status() == "Playing" }
        let handOff = try runCommand(repriseBinary, [media.second, media.third], environment: session.environment)
        #expect(handOff.status == 0)
        #expect(session.waitFor { session.title() == "Second Wind" })
        try _ = runCommand(repriseBinary, ["--enqueue", media.first], environment: session.environment)
        #expect(session.waitFor { (try? reprise(session, "queue").output.split(separator: "\n").count) == 3 })
        #expect(session.isRunning(service))
        #expect(try runCommand(repriseBinary, [], environment: session.environment).output.contains("already running"))
    }

    /// A long argument list costs time in proportion to its length: 20,000 files took 20 s in the client (the
    /// argument parser's time grows with the square of an array's length), and options among them keep their values.
    @Test func twentyThousandArgumentsAreHandedOverAtOnce() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first])
        let folder = try session.makeFolder("many")
        let files = (0..<20_000).map { folder + String(format: "/%05d.ogg", $0) }
        for file in files { _ = FileManager.default.createFile(atPath: file, contents: Data()) }
        func count() -> Int? { if case .array(_, let ids)? = try? session.get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList") { ids.count } else { nil } }
        let enqueued = try runCommand(repriseBinary, ["--enqueue"] + files, environment: session.environment)
        #expect(enqueued.status == 0, "\(enqueued.errors)")
        #expect(session.waitFor { count() == 20_001 })
        let added = try runCommand(repriseBinary, ["add", "--player", "reprise"] + files.prefix(10_000) + ["--json"],
                                   environment: session.environment)
        #expect(added.status == 0 && added.output.contains("\"ok\""), "\(added.output) \(added.errors)")
        #expect(session.waitFor { count() == 30_001 })
        // A value option among media keeps its value: --category's, then media after it.
        let refused = try runCommand(repriseBinary, ["--category", "nonsense", files[0]], environment: session.environment)
        #expect(refused.status == 2 && refused.errors.contains("nonsense"), "\(refused.errors)")
    }

    @Test func actionsAndInvoke() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.status() == "Playing" && session.metadata()["mpris:length"] != nil }
        let actions = try reprise(session, "actions").output
        #expect(actions.contains("skip-forward\tForward 10 s"))
        // On the first entry there is no previous: a custom action takes its place, as the seeds lay out.
        #expect(actions.contains("bottom row: skip-backward · skip-forward · play-pause · next · overflow\n"))
        #expect(actions.contains("expanded row: speed · repeat · shuffle\n"))
        let parsed = json(try reprise(session, "actions", "--json"))
        #expect((parsed["actions"] as? [[String: Any]])?.count == 5)
        let before = session.position() ?? 0
        session.clearSignals()
        #expect(try reprise(session, "invoke", "skip-forward").status == 0)
        #expect(session.waitFor { session.seeked.contains { abs($0 - before - 10_000_000) < 1_500_000 } })
        try _ = reprise(session, "invoke", "speed")
        #expect(try session.get("Rate") == .double(1.25))
        let unknown = try reprise(session, "invoke", "warp")
        #expect(unknown.status == 1 && unknown.errors.contains("no action 'warp'"))
        try session.call("Stop")
        let disabled = try reprise(session, "invoke", "skip-forward")
        #expect(disabled.status != 0 && disabled.errors.contains("not available now"))
    }

    @Test func audioSessionVerbs() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first])
        #expect(try reprise(session, "category").output == "playback\n")
        #expect(try reprise(session, "category", "ambient", "--options", "mixWithOthers").output == "ambient (mixWithOthers)\n")
        #expect(try reprise(session, "category", "loud").status == 2)
        #expect(try reprise(session, "silent", "on").output == "on\n")
        #expect(try session.get("Silent", interface: "app.reprise.AudioSession1") == .bool(true))
        #expect(session.waitFor { (try? reprise(session, "output", "list").output) == "* speakers\tNull Output\n" })
        #expect(try reprise(session, "output", "set", "nowhere").status == 2)
        let outputs = try JSONSerialization.jsonObject(with: Data(try reprise(session, "output", "list", "--json").output.utf8)) as? [[String: Any]]
        #expect(outputs?.first?["name"] as? String == "speakers")
    }

    @Test func otherPlayersAndFailures() throws {
        let session = try Session()
        defer { session.close() }
        let none = try reprise(session, "status")
        #expect(none.status == 1 && none.errors.contains("Reprise is not running"))
        try session.launch([media.first])
        let other = try session.launch(["--new-instance", media.second], waitingFor: nil)
        let name = "reprise.instance\(other)"
        #expect(session.waitFor { session.nameHasOwner("org.mpris.MediaPlayer2." + name) })
        #expect(session.waitFor { (try? reprise(session, "status", "--player", name).output.contains("Second Wind")) == true })
        #expect(try reprise(session, "status", "--player", "nobody").status == 1)
        // Anything that is not a verb is media for the default `serve`: here, a file that does not exist.
        let notMedia = try reprise(session, "frobnicate")
        #expect(notMedia.status == 2 && notMedia.errors.contains("nothing to play"))
        let completion = try reprise(session, "--generate-completion-script", "bash")
        #expect(completion.status == 0 && completion.output.contains("complete") && completion.output.contains("goto"))
        // The shell named, whatever $SHELL says (it is unset in CI): the shell's name is not media.
        let zsh = try reprise(session, "--generate-completion-script", "zsh")
        #expect(zsh.status == 0 && zsh.output.hasPrefix("#compdef reprise"))
    }
}

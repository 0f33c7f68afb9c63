import Foundation
import SDBus
import Testing
import TestSupport

/// Snapcast's stream control reaching Reprise through the plugin Reprise ships (`reprise-snapcast`, the stream's
/// `controlscript`), on a real snapserver 0.26 in a private network namespace: `Server.GetStatus` shows what
/// Reprise plays, and `Stream.Control`/`Stream.SetProperty` from a Snapcast client drive it.
@Suite(.serialized) struct SnapcastControlTests {
    @Test func snapserverShowsWhatPlaysAndItsControlsReachReprise() throws {
        let (session, namespace) = try Session.inNetworkNamespace()
        defer { namespace.stop(); session.close() }
        let first = session.directory + "/first.flac", second = session.directory + "/second.flac"
        try generateTone(at: first, seconds: 30, frequency: 300, tags: "title=\\\"First Room Song\\\",artist=\\\"Tone Band\\\",album=\\\"Rooms\\\"", encoder: ["flacenc"])
        try generateTone(at: second, seconds: 30, frequency: 600, tags: "title=\\\"Second Room Song\\\",artist=\\\"Tone Band\\\"", encoder: ["flacenc"])
        let pid = try namespace.entered { try session.launch([first, second]) }
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "First Room Song" }, "\(session.log(of: pid))")
        let server = try PrivateSnapserver(session: session, namespace: namespace)

        // What plays, as the plugin reported it.
        func properties() -> [String: Any] { (try? server.properties()) ?? [:] }
        func title() -> String? { (properties()["metadata"] as? [String: Any])?["title"] as? String }
        #expect(session.waitFor { title() == "First Room Song" }, "\(properties()) \(session.output(ofLog: "snapserver"))")
        let shown = properties()
        #expect(shown["playbackStatus"] as? String == "playing")
        #expect(shown["canControl"] as? Bool == true && shown["canGoNext"] as? Bool == true && shown["canSeek"] as? Bool == true)
        let metadata = shown["metadata"] as? [String: Any] ?? [:]
        #expect(metadata["artist"] as? [String] == ["Tone Band"] && metadata["album"] as? String == "Rooms")
        #expect((metadata["duration"] as? Double).map { abs($0 - 30) < 0.5 } == true, "\(metadata)")

        // Stream.Control reaches Reprise, and what changes is shown.
        try server.call("Stream.Control", ["id": "Reprise", "command": "pause"])
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(session.waitFor { properties()["playbackStatus"] as? String == "paused" })
        try server.call("Stream.Control", ["id": "Reprise", "command": "play"])
        #expect(session.waitFor { session.status() == "Playing" })
        try server.call("Stream.Control", ["id": "Reprise", "command": "setPosition", "params": ["position": 12.5]])
        #expect(session.waitFor { (session.position() ?? 0) >= 12_500_000 }, "position \(session.position() ?? -1)")
        try server.call("Stream.Control", ["id": "Reprise", "command": "seek", "params": ["offset": -10]])
        #expect(session.waitFor { (session.position() ?? .max) < 6_000_000 }, "position \(session.position() ?? -1)")
        try server.call("Stream.Control", ["id": "Reprise", "command": "next"])
        #expect(session.waitFor { session.title() == "Second Room Song" })
        #expect(session.waitFor { title() == "Second Room Song" })
        try server.call("Stream.Control", ["id": "Reprise", "command": "previous"])
        #expect(session.waitFor { session.title() == "First Room Song" })

        // Stream.SetProperty: volume, loop and shuffle.
        try server.call("Stream.SetProperty", ["id": "Reprise", "property": "volume", "value": 30])
        #expect(session.waitFor { (try? session.get("Volume"))?.doubleValue.map { abs($0 - 0.3) < 0.01 } == true })
        #expect(session.waitFor { properties()["volume"] as? Int == 30 })
        try server.call("Stream.SetProperty", ["id": "Reprise", "property": "loopStatus", "value": "track"])
        #expect(session.waitFor { (try? session.get("LoopStatus")) == .string("Track") })
        try server.call("Stream.SetProperty", ["id": "Reprise", "property": "loopStatus", "value": "playlist"])
        #expect(session.waitFor { (try? session.get("LoopStatus")) == .string("Playlist") })
        try server.call("Stream.SetProperty", ["id": "Reprise", "property": "shuffle", "value": true])
        #expect(session.waitFor { (try? session.get("Shuffle")) == .bool(true) })
        #expect(session.waitFor { properties()["shuffle"] as? Bool == true && properties()["loopStatus"] as? String == "playlist" })

        // What Reprise cannot do is refused with an error snapserver passes on to its client (snapserver 0.26 reads an
        // error's `data` as a string: without it, it never answered, and a client without a time-out waited for ever).
        func refusal(_ method: String, _ params: [String: Any]) -> String {
            do {
                try server.call(method, ["id": "Reprise"].merging(params) { $1 })
                return "accepted"
            } catch { return "\(error)" }
        }
        for (property, value) in [("rate", 1.5 as Any), ("volume", 150), ("volume", -1)] {
            let answer = refusal("Stream.SetProperty", ["property": property, "value": value])
            #expect(answer.hasPrefix("Stream.SetProperty: ") && answer.contains("code"), "\(property) \(value): \(answer)")
        }
        let seek = refusal("Stream.Control", ["command": "setPosition", "params": ["position": -5]])
        #expect(seek.hasPrefix("Stream.Control: ") && seek.contains("code"), "\(seek)")
        try server.call("Stream.SetProperty", ["id": "Reprise", "property": "volume", "value": 35])
        #expect(session.waitFor { properties()["volume"] as? Int == 35 })

        try server.call("Stream.Control", ["id": "Reprise", "command": "stop"])
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(session.waitFor { properties()["playbackStatus"] as? String == "stopped" })
    }

    /// `snapcast-pipe` makes the Snapcast stream an output (a pipe sink Reprise loads into the sound server, named
    /// "Snapcast"): two rooms' snapclients, each into a null sink of its own, play what Reprise plays there, in sync,
    /// and the local speakers do not; moving back silences the rooms, and quitting leaves no pipe sink behind. On a
    /// stock PulseAudio and on PipeWire.
    @Test(arguments: [SoundServerKind.stockPulseAudio, .pipeWire])
    func theSnapcastOutputPlaysInBothRoomsInSyncAndNotLocally(_ soundServer: SoundServerKind) throws {
        let (session, namespace) = try Session.inNetworkNamespace(soundServer: soundServer)
        defer { namespace.stop(); session.close() }
        let tone = session.directory + "/tone.flac"
        // Noise: unlike a tone, one stretch of it lines up with the other room's at one lag only.
        let made = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "wave=white-noise", "volume=0.3", "num-buffers=2500",
                                                     "!", "audio/x-raw,rate=44100,channels=2", "!", "audioconvert", "!", "flacenc",
                                                     "!", "filesink", "location=\(tone)"])
        #expect(made.status == 0, "\(made.errors)")
        let server = try PrivateSnapserver(session: session, namespace: namespace)
        // The two rooms are halves of one four-channel sink, so one recording on one clock hears both (aux channels:
        // PulseAudio mixes front into rear, never one aux channel into another).
        try session.pactl("load-module", "module-null-sink", "sink_name=house", "channels=4", "channel_map=aux0,aux1,aux2,aux3")
        for (room, channels) in [("room1", "aux0,aux1"), ("room2", "aux2,aux3")] {
            try session.pactl("load-module", "module-remap-sink", "sink_name=\(room)", "master=house", "channels=2",
                              "master_channel_map=\(channels)", "channel_map=front-left,front-right", "remix=no")
        }
        for room in ["room1", "room2"] {
            try namespace.entered {
                try session.start("snapclient", ["-h", "127.0.0.1", "-p", "1704", "--hostID", room, "--player", "pulse", "-s", room],
                                  logName: "snapclient-\(room)")
            }
        }
        #expect(session.waitFor { ((try? server.call("Server.GetStatus") as? [String: Any])?["server"] as? [String: Any]).map {
            ($0["groups"] as? [[String: Any]] ?? []).flatMap { $0["clients"] as? [[String: Any]] ?? [] }.filter { $0["connected"] as? Bool == true }.count == 2
        } == true }, "\(session.output(ofLog: "snapclient-room1"))")
        let config = try session.makeHomeFolder(".config/reprise")
        try "snapcast-pipe = \(server.fifo)\nsnapcast-sampleformat = 44100:16:2\nmpd-port = 0\n"
            .write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let pid = try namespace.entered { try session.launch([tone]) }
        #expect(session.waitFor { session.status() == "Playing" }, "\(session.log(of: pid))")
        #expect(session.waitFor {
            (try? runCommand(repriseBinary, ["output", "list"], environment: session.environment))?.output.contains("Snapcast") == true
        }, "\(session.log(of: pid))")
        let outputs = try MPDTests.mpc(session, "outputs").output
        #expect(outputs.contains("Snapcast"), "\(outputs)")
        let moved = try runCommand(repriseBinary, ["output", "set", "reprise_snapcast"], environment: session.environment)
        #expect(moved.status == 0, "\(moved.output) \(moved.errors)")
        for room in ["room1", "room2"] {
            #expect(session.waitFor { (try? session.peakLevel(of: room)) ?? 0 > 1000 }, "\(room) hears the tone")
        }
        #expect(session.waitFor { (try? session.peakLevel()) ?? .max < 100 }, "the local speakers are silent")

        // Both rooms play together: paused, then played, while the house is recorded; a stretch a second after the
        // sound began in both is lined up by cross-correlation.
        try session.call("Pause")
        for room in ["room1", "room2"] {
            #expect(session.waitFor { (try? session.peakLevel(of: room)) ?? .max < 100 }, "\(room) silent when paused")
        }
        let recording = session.directory + "/house.raw"
        var recorder = try Child.spawn("parec", ["-d", "house.monitor", "--raw", "--format=s16le", "--channels=4",
                                                 "--channel-map=aux0,aux1,aux2,aux3", "--rate=44100",
                                                 "--latency-msec=20", recording],
                                       environment: session.environment, stdout: session.directory + "/parec-house.log",
                                       stderr: session.directory + "/parec-house.log")
        usleep(300_000)
        try session.call("Play")
        usleep(3_000_000)
        kill(recorder.pid, SIGTERM)
        _ = recorder.wait()
        let samples = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        func onset(_ channel: Int) -> Int? {
            stride(from: channel, to: samples.count, by: 4).first { abs(Int(samples[$0])) > 1000 }.map { $0 / 4 }
        }
        let first = try #require(onset(0), "room1 heard nothing"), second = try #require(onset(2), "room2 heard nothing")
        let window = max(first, second) + 44100, length = 8820, reach = 882 // 0.2 s compared, lags up to 20 ms
        try #require((window + length + reach) * 4 <= samples.count, "the recording is too short")
        let lag = (-reach...reach).max { a, b in
            Self.correlation(samples, at: window, length: length, lag: a) < Self.correlation(samples, at: window, length: length, lag: b)
        } ?? 0
        let apart = Double(abs(lag)) / 44.1
        // Measured on PulseAudio, whose remap sinks are sample-exact halves of the house sink. PipeWire's are loopback
        // nodes, each with a buffer of its own, so the house recording itself skews the rooms there: on PipeWire the
        // test asks only that both rooms hear it.
        if soundServer != .pipeWire { #expect(apart < 5, "the rooms play \(apart) ms apart") }
        let back = try runCommand(repriseBinary, ["output", "set", "speakers"], environment: session.environment)
        #expect(back.status == 0, "\(back.output) \(back.errors)")
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > 1000 }, "back on the speakers")
        for room in ["room1", "room2"] {
            #expect(session.waitFor { (try? session.peakLevel(of: room)) ?? .max < 100 }, "\(room) silent again")
        }
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(pid) == 0)
        let modules = try session.pactl("list", "short", "modules").output
        #expect(!modules.contains("reprise_snapcast"), "\(modules)")
    }

    /// On the Snapcast output Position is what the room hears (the stream's buffer counted): moving there announces
    /// the position as now heard (Seeked), and when a tone that starts 3 s into the file reaches the room, Position
    /// says 3 s (within 0.15 s).
    @Test func positionOnTheSnapcastOutputIsWhatTheRoomHears() throws {
        let (session, namespace) = try Session.inNetworkNamespace(soundServer: .stockPulseAudio)
        defer { namespace.stop(); session.close() }
        let file = session.directory + "/late-tone.wav"
        try silenceThenTone(silentSeconds: 3, toneSeconds: 30).write(to: URL(fileURLWithPath: file))
        let server = try PrivateSnapserver(session: session, namespace: namespace)
        try session.pactl("load-module", "module-null-sink", "sink_name=room1")
        try namespace.entered {
            try session.start("snapclient", ["-h", "127.0.0.1", "-p", "1704", "--hostID", "room1", "--player", "pulse", "-s", "room1"],
                              logName: "snapclient-room1")
        }
        let config = try session.makeHomeFolder(".config/reprise")
        try "snapcast-pipe = \(server.fifo)\nsnapcast-sampleformat = 44100:16:2\nmpd-port = 0\n"
            .write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let pid = try namespace.entered { try session.launch([file]) }
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) > 2_500_000 }, "\(session.log(of: pid))")
        #expect(session.waitFor {
            (try? runCommand(repriseBinary, ["output", "list"], environment: session.environment))?.output.contains("Snapcast") == true
        })

        // Moving to the Snapcast output: Seeked with the position as heard there, a second behind the pipeline.
        session.clearSignals()
        let before = session.position() ?? 0
        let moved = try runCommand(repriseBinary, ["output", "set", "reprise_snapcast"], environment: session.environment)
        #expect(moved.status == 0, "\(moved.output) \(moved.errors)")
        #expect(session.waitFor { !session.seeked.isEmpty }, "Seeked on the move: \(session.log(of: pid))")
        let announced = session.seeked.first ?? -1, read = session.position() ?? -1
        #expect(abs(announced - read) < 300_000, "Seeked \(announced), Position \(read)")

        #expect(announced > 0 && announced < before, "back to what is heard: \(before) → \(announced)")

        let heard = try session.positionWhenHeard(at: "room1")
        #expect(abs(heard - 3) < 0.15, "the tone 3 s in was heard at Position \(heard) s")
    }

    /// How alike room 1's left channel and room 2's left channel `lag` frames later are, over `length` frames of a
    /// four-channel recording from frame `start`.
    private static func correlation(_ samples: [Int16], at start: Int, length: Int, lag: Int) -> Int {
        var sum = 0
        for frame in start..<(start + length) { sum += Int(samples[frame * 4]) * Int(samples[(frame + lag) * 4 + 2]) }
        return sum
    }
}

import Foundation
import SDBus
import Testing
import TestSupport

/// Snapcast's stream control reaching Reprise through the plugin Reprise ships (`reprise-snapcast`, the stream's
/// `controlscript`), on a real snapserver 0.26 in a private network namespace: `Server.GetStatus` shows what
/// Reprise plays, and `Stream.Control`/`Stream.SetProperty` from a Snapcast client drive it.
@Suite(.serialized) struct SnapcastControlTests {
    @Test func snapserverShowsWhatPlaysAndItsControlsReachReprise() throws {
        let session = try Session()
        defer { session.close() }
        let namespace = try NetworkNamespace(directory: session.directory)
        defer { namespace.stop() }
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

        try server.call("Stream.Control", ["id": "Reprise", "command": "stop"])
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(session.waitFor { properties()["playbackStatus"] as? String == "stopped" })
    }
}

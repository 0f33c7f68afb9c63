import Foundation
import SDBus
import Testing
import TestSupport

/// Reprise as a UPnP MediaRenderer through Rygel's MPRIS plugin, driven by a raw-SOAP control point as a phone
/// app or a TV drives one; Rygel, Reprise and the media server share a private network namespace with only
/// loopback. The media server sends the MIME spellings servers use (`audio/x-flac`, `audio/wav`), which Rygel
/// refuses (714) unless SupportedMimeTypes lists them exactly.
@Suite(.serialized) struct RygelRendererTests {
    @Test func aControlPointPushesPlaysSeeksPausesAndTheQueueIsLeftAlone() throws {
        let (session, namespace) = try Session.inNetworkNamespace()
        defer { namespace.stop(); session.close() }
        let own = session.directory + "/own.ogg", pushed = session.directory + "/pushed.flac", next = session.directory + "/next.wav"
        try generateTone(at: own, seconds: 30, frequency: 300, tags: "title=\\\"Own Queue\\\"", encoder: ["vorbisenc", "!", "oggmux"])
        try generateTone(at: pushed, seconds: 6, frequency: 500, tags: "title=\\\"Pushed\\\"", encoder: ["flacenc"])
        try generateTone(at: next, seconds: 4, frequency: 700, tags: nil, encoder: ["wavenc"])
        let server = try namespace.entered {
            try MediaFileServer([("/media/pushed.flac", Array(try Data(contentsOf: URL(fileURLWithPath: pushed))), "audio/x-flac"),
                                 ("/media/next.wav", Array(try Data(contentsOf: URL(fileURLWithPath: next))), "audio/wav"),
                                 ("/media/own.ogg", Array(try Data(contentsOf: URL(fileURLWithPath: own))), "application/ogg"),
                                 ("/media/notes.txt", Array("not media".utf8), "text/plain")])
        }
        defer { server.stop() }
        // The media server is on loopback here (the namespace has nothing else): the config allows that.
        let config = try session.makeHomeFolder(".config/reprise")
        try "renderer-local-addresses = allow\nmpd-port = 0\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let pid = try namespace.entered { try session.launch([own]) }
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "Own Queue" }, "\(session.log(of: pid))")
        try session.startRygel(in: namespace)
        let renderer = try UPnPControlPoint(in: namespace, controlPathContaining: "/org.mpris.MediaPlayer2.reprise/")
        let instance = [("InstanceID", "0")]
        func transportState() throws -> String? { try renderer.perform("AVTransport", "GetTransportInfo", instance)["CurrentTransportState"] }
        func position() throws -> Double? {
            try renderer.perform("AVTransport", "GetPositionInfo", instance)["RelTime"].flatMap(UPnPControlPoint.seconds)
        }

        // A type Reprise does not play is refused by Rygel before Reprise hears of it.
        let refused = try renderer.call("AVTransport", "SetAVTransportURI",
                                        instance + [("CurrentURI", server.url(of: "/media/notes.txt")), ("CurrentURIMetaData", "")])
        if case .failure(let fault) = refused { #expect(fault.code == 714) } else { Issue.record("text/plain accepted") }
        #expect(session.status() == "Playing" && session.title() == "Own Queue")

        // SetAVTransportURI loads the URI without playing it, as a renderer does; Play then plays it.
        let pushedURL = server.url(of: "/media/pushed.flac")
        try renderer.perform("AVTransport", "SetAVTransportURI", instance + [("CurrentURI", pushedURL), ("CurrentURIMetaData", "")])
        #expect(session.waitFor { session.status() == "Paused" && session.title() == "Pushed" }, "\(session.log(of: pid))")
        #expect(try transportState() == "PAUSED_PLAYBACK")
        try renderer.perform("AVTransport", "Play", instance + [("Speed", "1")])
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(try transportState() == "PLAYING")
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > 1000 }, "the pushed tone is heard")
        let info = try renderer.perform("AVTransport", "GetMediaInfo", instance)
        #expect(info["CurrentURI"] == pushedURL)
        #expect(UPnPControlPoint.seconds(info["MediaDuration"] ?? "").map { abs($0 - 6) < 0.2 } == true, "\(info)")

        // Seek, pause and volume agree between the control point and Reprise.
        try renderer.perform("AVTransport", "Seek", instance + [("Unit", "REL_TIME"), ("Target", "0:00:03")])
        #expect(session.waitFor { (session.position() ?? 0) >= 3_000_000 }, "position \(session.position() ?? -1)")
        try renderer.perform("AVTransport", "Pause", instance)
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(try transportState() == "PAUSED_PLAYBACK")
        let heard = try #require(try position())
        let reported = Double(session.position() ?? 0) / 1_000_000
        #expect(heard >= 3 && abs(heard - reported) < 0.1, "control point \(heard) s, MPRIS \(reported) s")
        #expect(session.waitFor { (try? session.peakLevel()) ?? .max < 100 }, "silent when paused")
        try renderer.perform("RenderingControl", "SetVolume", instance + [("Channel", "Master"), ("DesiredVolume", "40")])
        #expect(session.waitFor { (try? session.get("Volume"))?.doubleValue.map { abs($0 - 0.4) < 0.01 } == true })
        #expect(try renderer.perform("RenderingControl", "GetVolume", instance + [("Channel", "Master")])["CurrentVolume"] == "40")

        // The pushed URI ends stopped: Reprise does not go on into its own queue, and the pushed entry leaves it. Rygel
        // takes a next URI and keeps it to itself (README says so).
        let nextURL = server.url(of: "/media/next.wav")
        try renderer.perform("AVTransport", "SetNextAVTransportURI", instance + [("NextURI", nextURL), ("NextURIMetaData", "")])
        try renderer.perform("AVTransport", "Play", instance + [("Speed", "1")])
        #expect(session.waitFor { session.status() == "Stopped" }, "\(session.log(of: pid))")
        #expect(session.waitFor(2) { (try? transportState()) == "STOPPED" })
        #expect(session.waitFor { session.title() == "Own Queue" })
        #expect(session.queuedURLs() == [TestMedia.uri(own)])

        // The next push is a guest again, and takes the place of the one before while it is there.
        try renderer.perform("AVTransport", "SetAVTransportURI", instance + [("CurrentURI", nextURL), ("CurrentURIMetaData", "")])
        #expect(session.waitFor { session.status() == "Paused" && (session.metadata()["xesam:url"]?.stringValue == nextURL) })
        #expect(session.queuedURLs() == [TestMedia.uri(own), nextURL])
        try renderer.perform("AVTransport", "Play", instance + [("Speed", "1")])
        #expect(session.waitFor { session.status() == "Playing" })
        try renderer.perform("AVTransport", "Stop", instance)
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(try transportState() == "STOPPED")

        // Ogg as servers send it (application/ogg) is taken too.
        let oggURL = server.url(of: "/media/own.ogg")
        try renderer.perform("AVTransport", "SetAVTransportURI", instance + [("CurrentURI", oggURL), ("CurrentURIMetaData", "")])
        #expect(session.waitFor { session.status() == "Paused" && (session.metadata()["xesam:url"]?.stringValue == oggURL) })
    }

    /// A control point is a network peer: pushed through the renderer bridge's bus name (as Rygel's connection), a
    /// file outside the music folder and a URL to this machine are refused (nothing fetched, nothing shown); what
    /// it may push is a guest: a long file the user left at 312 s opens at its start, the next push takes its place,
    /// and after the end the queue is the user's, their song current and starting where they left it.
    @Test func aControlPointsPushesAreCheckedAndLeaveTheUsersQueueAsItWas() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        let own = music + "/own.ogg", long = music + "/long.flac", inside = music + "/inside.flac", secret = session.directory + "/secret.flac"
        try generateTone(at: own, seconds: 60, frequency: 300, tags: "title=\\\"Own Queue\\\"", encoder: ["vorbisenc", "!", "oggmux"])
        try generateTone(at: long, seconds: 660, frequency: 400, tags: "title=\\\"Long One\\\"", encoder: ["flacenc"])
        try generateTone(at: inside, seconds: 4, frequency: 500, tags: "title=\\\"Inside\\\"", encoder: ["flacenc"])
        try generateTone(at: secret, seconds: 4, frequency: 600, tags: "title=\\\"Secret\\\"", encoder: ["flacenc"])
        let server = try MediaFileServer([("/media/local.flac", Array(try Data(contentsOf: URL(fileURLWithPath: inside))), "audio/flac")])
        defer { server.stop() }
        let config = try session.makeHomeFolder(".config/reprise")
        try "library = \(music)\nmpd-port = 0\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let pid = try session.launch([own, long])
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "Own Queue" }, "\(session.log(of: pid))")

        // The user leaves the long file at 312 s (remembered for resume), then goes back to their song, at 20 s, paused.
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Long One" && ((try? session.get("CanSeek"))?.boolValue == true) })
        try session.call("SetPosition", [.objectPath(try #require(session.trackIDs().last?.stringValue)), .int64(312_000_000)])
        #expect(session.waitFor { (session.position() ?? 0) >= 312_000_000 })
        try session.call("GoTo", [.objectPath(try #require(session.trackIDs().first?.stringValue))], interface: "org.mpris.MediaPlayer2.TrackList")
        #expect(session.waitFor { session.title() == "Own Queue" && ((try? session.get("CanSeek"))?.boolValue == true) })
        try session.call("SetPosition", [.objectPath(try #require(session.trackIDs().first?.stringValue)), .int64(20_000_000)])
        #expect(session.waitFor { (session.position() ?? 0) >= 20_000_000 })
        try session.call("Pause")
        #expect(session.waitFor { session.status() == "Paused" })
        let usersPlace = try #require(session.position())

        let bridge = try Bus.connect(address: try #require(session.environment["DBUS_SESSION_BUS_ADDRESS"]))
        #expect(try bridge.requestName("org.gnome.Rygel1"))
        func push(_ uri: String) -> DBusError? {
            session.dbusError {
                _ = try bridge.call(destination: Session.name, path: "/org/mpris/MediaPlayer2", interface: Session.player,
                                    member: "OpenUri", [.string(uri)])
            }
        }
        // Refused: a file outside the music folder, one reached through "..", a URL to this machine.
        for refused in [TestMedia.uri(secret), "file://\(music)/../secret.flac", server.url(of: "/media/local.flac")] {
            #expect(push(refused) != nil, "\(refused) was taken")
        }
        #expect(server.requests.isEmpty, "Reprise fetched \(server.requests)")
        #expect(session.title() == "Own Queue" && session.status() == "Paused" && session.queuedURLs() == [TestMedia.uri(own), TestMedia.uri(long)])

        // A push of the long file opens at its start, not where the user left it.
        #expect(push(TestMedia.uri(long)) == nil)
        #expect(session.waitFor { session.status() == "Paused" && session.title() == "Long One" && ((try? session.get("CanSeek"))?.boolValue == true) }, "\(session.log(of: pid))")
        #expect((session.position() ?? .max) < 5_000_000, "the push resumed at \(session.position() ?? -1)")
        // The next push takes its place; it plays to its end, and the queue, song and place are the user's again.
        #expect(push(TestMedia.uri(inside)) == nil)
        #expect(session.waitFor { session.status() == "Paused" && session.title() == "Inside" })
        #expect(session.queuedURLs() == [TestMedia.uri(own), TestMedia.uri(inside), TestMedia.uri(long)])
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Stopped" }, "\(session.log(of: pid))")
        #expect(session.waitFor { session.title() == "Own Queue" })
        #expect(session.queuedURLs() == [TestMedia.uri(own), TestMedia.uri(long)])
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) >= usersPlace - 500_000 },
                "the user's song starts at \(session.position() ?? -1), was left at \(usersPlace)")
        #expect((session.position() ?? .max) < usersPlace + 10_000_000)
        // What the long file's own resume says is still the user's: opened by the user, it resumes at 312 s.
        try session.call("GoTo", [.objectPath(try #require(session.trackIDs().last?.stringValue))], interface: "org.mpris.MediaPlayer2.TrackList")
        #expect(session.waitFor { session.title() == "Long One" && (session.position() ?? 0) >= 300_000_000 }, "\(session.position() ?? -1)")
    }
}

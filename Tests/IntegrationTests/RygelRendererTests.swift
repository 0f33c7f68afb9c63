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
        let session = try Session()
        defer { session.close() }
        let namespace = try NetworkNamespace(directory: session.directory)
        defer { namespace.stop() }
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

        // The pushed URI ends stopped on itself: Reprise does not go on into its own queue. Rygel takes a next URI and
        // keeps it to itself (README says so).
        let nextURL = server.url(of: "/media/next.wav")
        try renderer.perform("AVTransport", "SetNextAVTransportURI", instance + [("NextURI", nextURL), ("NextURIMetaData", "")])
        try renderer.perform("AVTransport", "Play", instance + [("Speed", "1")])
        #expect(session.waitFor { session.status() == "Stopped" }, "\(session.log(of: pid))")
        #expect(session.waitFor(2) { (try? transportState()) == "STOPPED" })
        #expect(session.title() == "Pushed")
        #expect(session.queuedURLs() == [TestMedia.uri(own), pushedURL])

        // The next push takes the place of the one before: the queue keeps the user's entries and one pushed URI.
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
}

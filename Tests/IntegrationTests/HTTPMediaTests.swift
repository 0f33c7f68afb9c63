import Foundation
import SDBus
import Testing
import TestSupport

/// A file on a loopback HTTP server that honours ranges, as a UPnP media server serves it (under an alias MIME
/// type): Reprise plays it with its length and seeks in it (a file this small is read whole at once, so the seek
/// is served from what was read).
@Suite(.serialized) struct HTTPMediaTests {
    @Test func aServedFileUnderAnAliasTypePlaysAndSeeksByRange() throws {
        let session = try Session()
        defer { session.close() }
        let path = session.directory + "/served.flac"
        try generateTone(at: path, seconds: 20, frequency: 500, tags: "title=\\\"Served Tone\\\"", encoder: ["flacenc"])
        let server = try MediaFileServer([("/music/served.flac", Array(try Data(contentsOf: URL(fileURLWithPath: path))), "audio/x-flac")])
        defer { server.stop() }
        try session.launch([server.url(of: "/music/served.flac")]) {
            session.status() == "Playing" && session.title() == "Served Tone"
        }
        #expect(session.waitFor { (try? session.get("CanSeek")) == .bool(true) })
        let length = session.metadata()["mpris:length"]?.int64Value ?? 0
        #expect(abs(length - 20_000_000) < 500_000, "length \(length)")
        try session.call("Seek", [.int64(12_000_000)])
        #expect(session.waitFor { (session.position() ?? 0) >= 12_000_000 }, "position \(session.position() ?? -1)")
        #expect(server.requests.first == "GET /music/served.flac", "\(server.requests)")
    }

    @Test func rangesAreReadAsHTTPSaysAndAnythingElseRefused() {
        #expect(MediaFileServer.byteRange("bytes=0-", size: 100) == 0..<100)
        #expect(MediaFileServer.byteRange("bytes=10-19", size: 100) == 10..<20)
        #expect(MediaFileServer.byteRange("bytes=90-200", size: 100) == 90..<100)
        #expect(MediaFileServer.byteRange("bytes=-30", size: 100) == 70..<100)
        #expect(MediaFileServer.byteRange("bytes=-300", size: 100) == 0..<100)
        for refused in ["bytes=100-", "bytes=20-10", "bytes=-0", "bytes=0-1,5-6", "items=0-", "bytes=a-b", "bytes="] {
            #expect(MediaFileServer.byteRange(refused, size: 100) == nil, "\(refused)")
        }
    }
}

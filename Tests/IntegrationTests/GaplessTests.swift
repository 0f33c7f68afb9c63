import Foundation
import SDBus
import Testing
import TestSupport

/// Consecutive tracks play through one audio stream, and clients hear of the switch at the boundary.
@Suite(.serialized) struct GaplessTests {

    @Test func theNextTrackFollowsInTheSameStreamWithoutStopping() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.short, media.first]) { session.status() == "Playing" && session.title() == "Short One" }
        var streams: Set<Int> = []
        let switched = session.waitFor {
            if let inputs = try? session.sinkInputs(of: reprise) {
                // pulsesink's short-lived probe stream has no media.role; the playing stream has.
                streams.formUnion(inputs.filter { $0.properties["media.role"] == "music" }.map(\.index))
            }
            return session.title() == "First Light"
        }
        #expect(switched)
        #expect(session.status() == "Playing")
        // The whole time, one sound-server stream: the second track was fed into it, not reopened.
        #expect(streams.count == 1)
        let statuses = session.propertiesChanged.compactMap { $0["PlaybackStatus"]?.stringValue }
        #expect(!statuses.contains("Stopped") && !statuses.contains("Paused"))
        // The position restarted with the new track (about 0 s, not 1 s on from the first track).
        #expect((session.position() ?? .max) < 900_000)
        #expect(session.log(of: reprise).contains("gapless: continuing with"))
    }

    @Test func loopingOneTrackRestartsItInTheSameStreamWithSeeked() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.first, media.second]) { session.status() == "Playing" && session.title() == "First Light" }
        try session.set("LoopStatus", .string("Track"))
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(19_000_000)])
        #expect(session.waitFor { session.seeked.last == 0 })
        #expect(session.title() == "First Light")
        #expect(session.status() == "Playing")
        #expect(session.log(of: reprise).contains("gapless: continuing with"))
    }

    /// playbin takes the next URI early; a loop status set afterwards still decides what follows.
    @Test func aLoopStatusSetAfterTheHandoverStillDecides() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.short, media.first])
        try session.set("LoopStatus", .string("Track"))
        #expect(session.waitFor { session.seeked.contains(0) })
        #expect(session.title() == "Short One")
        #expect(session.status() == "Playing")
    }
}

import Foundation
import SDBus
import Testing
import TestSupport

/// Long files (over 10 minutes) resume where they were left, within a run and across restarts.
@Suite(.serialized) struct ResumeTests {
    let media = TestMedia.shared

    @Test func aLongFileResumesWhereItWasLeftAnnouncedWithSeeked() throws {
        let session = try Session()
        defer { session.close() }
        let first = try session.launch([media.long, media.first])
        #expect(session.waitFor { session.title() == "Long Talk" && session.metadata()["mpris:length"] != nil })
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(300_000_000)])
        #expect(session.waitFor { (session.position() ?? 0) >= 300_000_000 })
        try session.call("Next")
        #expect(session.waitFor { session.title() == "First Light" })
        session.clearSignals()
        try session.call("Previous")
        #expect(session.waitFor { session.title() == "Long Talk" })
        #expect(session.waitFor { session.seeked.contains { abs($0 - 300_000_000) < 1_000_000 } })
        #expect(session.waitFor { (session.position() ?? 0) >= 300_000_000 })

        // Across a restart, even when the file is given again as an argument.
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(first) == 0)
        session.clearSignals()
        try session.launch([media.long])
        #expect(session.waitFor { session.title() == "Long Talk" })
        #expect(session.waitFor { (session.position() ?? 0) >= 300_000_000 })
        #expect((session.position() ?? .max) < 330_000_000)
    }

    @Test func shortFilesStartFromTheBeginning() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second])
        #expect(session.waitFor { session.title() == "First Light" && session.metadata()["mpris:length"] != nil })
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(15_000_000)])
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Second Wind" })
        session.clearSignals()
        try session.call("Previous")
        #expect(session.waitFor { session.title() == "First Light" && (session.position() ?? 0) > 0 })
        #expect((session.position() ?? .max) < 10_000_000)
        #expect(session.seeked.isEmpty)
    }
}

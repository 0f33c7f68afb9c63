import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// No file can block the loop: a queued file replaced by a FIFO, a FIFO at the state or changed-streams path.
/// Each is skipped with a reason; replies keep coming and SIGTERM still ends Reprise cleanly.
@Suite(.serialized) struct BlockingFileTests {

    @Test func aQueuedFileReplacedByAFIFOIsSkippedNotOpened() throws {
        let session = try Session()
        defer { session.close() }
        let directory = try session.makeFolder("music")
        let (one, two, three) = (directory + "/1.ogg", directory + "/2.ogg", directory + "/3.flac")
        try FileManager.default.copyItem(atPath: media.first, toPath: one)
        try FileManager.default.copyItem(atPath: media.first, toPath: two)
        try FileManager.default.copyItem(atPath: media.second, toPath: three)
        let service = try session.launch([one, two, three]) { session.status() == "Playing" }
        unlink(two)
        #expect(mkfifo(two, 0o644) == 0)
        try session.call("Next")
        // The FIFO is skipped with its reason; the next entry plays, and the loop answers throughout.
        #expect(session.waitFor { session.title() == "Second Wind" && session.status() == "Playing" }, "\(session.log(of: service))")
        #expect(session.log(of: service).contains("2.ogg is not a regular file"))
        try session.call("Previous")
        try session.call("Previous")
        #expect(session.waitFor { session.status() != nil })
        kill(service, SIGTERM)
        #expect(session.waitForExit(service, seconds: 10) == 0)
    }

    @Test func fifosWhereStateIsKeptDoNotHangTheStart() throws {
        let session = try Session()
        defer { session.close() }
        let directory = try session.makeHomeFolder(".local/state/reprise")
        #expect(mkfifo(directory + "/state", 0o600) == 0)
        #expect(mkfifo(directory + "/changed-streams", 0o600) == 0)
        let config = try session.makeHomeFolder(".config/reprise")
        #expect(mkfifo(config + "/config", 0o600) == 0)
        let service = try session.launch([media.first])
        #expect(session.waitFor { session.status() == "Playing" }, "\(session.log(of: service))")
        try session.call("Pause")
        #expect(session.waitFor { session.status() == "Paused" })
        kill(service, SIGTERM)
        #expect(session.waitForExit(service, seconds: 10) == 0)
        // The next run finds a real state file (the FIFO was moved aside as unreadable) and restores from it.
        let again = try session.launch([])
        #expect(session.waitFor { session.title() == "First Light" }, "\(session.log(of: again))")
    }
}

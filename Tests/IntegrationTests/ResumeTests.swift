import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// Long files (over 10 minutes) resume where they were left, within a run and across restarts.
@Suite(.serialized) struct ResumeTests {

    @Test func aLongFileResumesWhereItWasLeftAnnouncedWithSeeked() throws {
        let session = try Session()
        defer { session.close() }
        let first = try session.launch([media.long, media.first]) { session.title() == "Long Talk" && session.metadata()["mpris:length"] != nil }
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
        try session.launch([media.long]) { session.title() == "Long Talk" }
        #expect(session.waitFor { (session.position() ?? 0) >= 300_000_000 })
        #expect((session.position() ?? .max) < 330_000_000)
    }

    /// A service restarted after kill -9 is whole when its name appears: the first GetAll has the restored entry's
    /// tags (not its file name) and its saved position (not 0), and the library says Scanning until its first pass
    /// has ended (never "done" with 0 tracks). KDE Plasma, KDE Connect and Rygel read Position once and extrapolate.
    @Test func aRestartedServiceIsWholeWhenItsNameAppears() throws {
        let session = try Session()
        defer { session.close() }
        _ = try LibraryTests.musicFolder(in: session.home)
        let first = try session.launch([media.long]) { session.title() == "Long Talk" && session.metadata()["mpris:length"] != nil }
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(20_000_000)])
        #expect(session.waitFor { (session.position() ?? 0) >= 20_000_000 })
        try session.call("Pause")
        let stateFile = session.home + "/.local/state/reprise/state"
        #expect(session.waitFor {
            let state = (try? String(contentsOfFile: stateFile, encoding: .utf8)) ?? ""
            return state.contains("tag title Long\\x20Talk") && state.contains("position 20")
        }, "\((try? String(contentsOfFile: stateFile, encoding: .utf8)) ?? "")")
        kill(first, SIGKILL)
        _ = session.waitForExit(first)

        try session.launch([])
        func all(_ interface: String, _ path: String) -> [String: DBusValue] {
            let reply = try? session.bus.call(destination: Session.name, path: path, interface: "org.freedesktop.DBus.Properties",
                                              member: "GetAll", [.string(interface)])
            return reply?.first?.dictionary ?? [:]
        }
        let player = all(Session.player, Session.path)
        let library = all(LibraryTests.interface, "/app/reprise/Reprise")
        let metadata = player["Metadata"]?.dictionary ?? [:]
        #expect(metadata["xesam:title"]?.stringValue == "Long Talk", "\(metadata)")
        #expect(metadata["mpris:length"] != nil, "\(metadata)")
        let position = player["Position"]?.int64Value ?? -1
        #expect(position >= 19_500_000 && position <= 21_000_000, "Position \(position) µs in the first reply")
        #expect(player["PlaybackStatus"]?.stringValue == "Paused")
        #expect(library["Scanning"] == .bool(true) || library["Tracks"] == .uint32(6), "\(library)")
        // Then the position holds (no correction that is not announced) and the pass ends with every track.
        #expect(session.waitFor { (session.position() ?? 0) >= 19_500_000 && session.metadata()["xesam:title"]?.stringValue == "Long Talk" })
        #expect(session.waitFor(30) {
            (try? session.get("Scanning", interface: LibraryTests.interface)) == .bool(false)
                && (try? session.get("Tracks", interface: LibraryTests.interface)) == .uint32(6)
        })
    }

    @Test func shortFilesStartFromTheBeginning() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.title() == "First Light" && session.metadata()["mpris:length"] != nil }
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

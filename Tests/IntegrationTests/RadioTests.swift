import Foundation
import SDBus
import Testing
import TestSupport

/// Internet radio: a loopback Shoutcast-style stream (ICY metadata every 4,000 bytes) whose title changes while
/// Reprise plays it.
@Suite(.serialized) struct RadioTests {
    static let station: IcyServer.Station = (name: "Reprise Test FM", genre: "Jazz", url: "https://radio.example/fm")

    func liveStream(_ session: Session, title: String) throws -> IcyServer {
        let path = session.directory + "/live.mp3"
        try generateTone(at: path, seconds: 20, tags: nil,
                         encoder: ["lamemp3enc", "target=bitrate", "bitrate=128", "cbr=true"])
        return try IcyServer(audio: try Data(contentsOf: URL(fileURLWithPath: path)), station: Self.station, title: title)
    }

    /// A station sending a new title in every metadata block (a block every 16 bytes: ~1,000 a second): MPRIS clients
    /// get a few changes a second, and the last title once the flood stops.
    @Test func aStationFloodingTitlesIsAnnouncedAFewTimesASecondAndTheLastOneAlways() throws {
        let session = try Session()
        defer { session.close() }
        let path = session.directory + "/live.mp3"
        try generateTone(at: path, seconds: 20, tags: nil, encoder: ["lamemp3enc", "target=bitrate", "bitrate=128", "cbr=true"])
        let server = try IcyServer(audio: try Data(contentsOf: URL(fileURLWithPath: path)), station: Self.station,
                                   title: "Flood - Song", metaInterval: 16)
        defer { server.stop() }
        try session.launch([server.url]) { session.status() == "Playing" && session.title()?.hasPrefix("Song") == true }
        server.setNumbersEveryBlock(true)
        #expect(session.waitFor { session.title()?.contains("#") == true })
        session.clearSignals()
        let started = monotonicSeconds()
        while monotonicSeconds() - started < 3 { session.pump() }
        let changes = session.propertiesChanged.filter { $0["Metadata"] != nil }.count
        #expect(changes >= 3 && changes <= 16, "\(changes) Metadata changes in 3 s")
        server.setNumbersEveryBlock(false)
        server.setTitle("Calm - Last Song")
        #expect(session.waitFor { session.title() == "Last Song" }, "title \(session.title() ?? "none")")
    }

    func artists(_ session: Session) -> [String] { session.metadata()["xesam:artist"]?.stringArray ?? [] }

    @Test func titleUpdatesReachMPRISAsOneMetadataChangeAndTheStationIsShown() throws {
        let session = try Session()
        defer { session.close() }
        let server = try liveStream(session, title: "First Artist - First Song")
        defer { server.stop() }
        try session.launch([server.url])
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "First Song" },
                "title \(session.title() ?? "none")")
        #expect(artists(session) == ["First Artist"])
        let metadata = session.metadata()
        #expect(metadata["mpris:length"] == nil, "a live stream has no length")
        #expect(try session.get("CanSeek") == .bool(false))
        #expect(metadata["reprise:station"]?.stringValue == Self.station.name)
        #expect(metadata["xesam:genre"]?.stringArray == [Self.station.genre])
        #expect(metadata["reprise:stationURL"]?.stringValue == Self.station.url)

        session.clearSignals()
        server.setTitle("Second Artist - Second Song")
        #expect(session.waitFor { session.title() == "Second Song" })
        let playerctl = try session.playerctl("-p", "reprise", "metadata", "title")
        #expect(playerctl.output.trimmingCharacters(in: .whitespacesAndNewlines) == "Second Song")
        #expect(artists(session) == ["Second Artist"])
        session.pump()
        let metadataChanges = session.propertiesChanged.filter { $0["Metadata"] != nil }
        #expect(metadataChanges.count == 1, "one PropertiesChanged per title: \(metadataChanges.count)")
        if let changed = metadataChanges.first?["Metadata"]?.dictionary {
            #expect(changed["xesam:title"]?.stringValue == "Second Song")
            #expect(changed["reprise:station"]?.stringValue == Self.station.name, "the whole Metadata")
        }
        #expect(session.seeked.isEmpty, "no Seeked for a title")
        #expect(session.trackListSignals.count <= 1, "\(session.trackListSignals.map(\.member))")

        // A title without " - ": no artist left over from the last one.
        server.setTitle("News at Noon")
        #expect(session.waitFor { session.title() == "News at Noon" })
        #expect(artists(session).isEmpty)

        // A Latin-1 station.
        server.setTitle(bytes: Array("Bj".utf8) + [0xF6] + Array("rk - J".utf8) + [0xF3] + Array("ga".utf8))
        #expect(session.waitFor { session.title() == "Jóga" }, "title \(session.title() ?? "none")")
        #expect(artists(session) == ["Björk"])
        let status = try runCommand(repriseBinary, ["status"], environment: session.environment)
        #expect(status.output.contains("Reprise Test FM"), "\(status.output)")
        #expect(status.output.contains("Björk"), "\(status.output)")
        #expect(try session.get("CanSeek") == .bool(false))
    }
}

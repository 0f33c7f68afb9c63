import Foundation
import TestSupport
import SDBus
import Testing

/// The real binary on a private bus and PulseAudio: playing, pausing, metadata and the sound server's view.
@Suite(.serialized) struct PlaybackTests {

    @Test func playsTheGivenFilesAndPlayerctlSeesThem() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.first, media.second]) { session.title() == "First Light" }
        #expect(try session.playerctl("-l").trimmed == "reprise")
        #expect(try session.playerctl("-p", "reprise", "status").trimmed == "Playing")
        let tags = try session.playerctl("-p", "reprise", "metadata", "--format",
                                         "{{title}}|{{artist}}|{{album}}|{{xesam:trackNumber}}").trimmed
        #expect(tags == "First Light|Test Artist|Test Album|1")
        #expect(session.waitFor {
            let inputs = (try? session.sinkInputs(of: reprise)) ?? []
            return inputs.count == 1 && inputs[0].properties["media.role"] == "music" && !inputs[0].corked
        })
    }

    @Test func metadataCarriesEveryTagWithItsExactType() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { session.metadata()["mpris:length"] != nil }
        let raw = try session.get("Metadata")
        guard case .array(let elementSignature, let items) = raw else {
            Issue.record("Metadata is not an array: \(raw)")
            return
        }
        #expect(elementSignature == "{sv}")
        var types: [String: String] = [:]
        var values: [String: DBusValue] = [:]
        for case .dictEntry(.string(let key), .variant(let value)) in items {
            types[key] = value.signature
            values[key] = value
        }
        #expect(types["mpris:trackid"] == "o")
        #expect(types["mpris:length"] == "x")
        #expect(types["xesam:title"] == "s")
        #expect(types["xesam:artist"] == "as")
        #expect(types["xesam:album"] == "s")
        #expect(types["xesam:albumArtist"] == "as")
        #expect(types["xesam:trackNumber"] == "i")
        #expect(types["xesam:discNumber"] == "i")
        #expect(types["xesam:genre"] == "as")
        #expect(types["xesam:url"] == "s")
        #expect(values["xesam:url"] == .string(TestMedia.uri(media.first)))
        #expect(values["xesam:albumArtist"] == .strings(["Test Band"]))
        let length = values["mpris:length"]?.int64Value ?? 0
        #expect(length > 19_000_000 && length < 21_000_000, "20 s in microseconds, got \(length)")
        let trackID = values["mpris:trackid"]?.stringValue ?? ""
        #expect(trackID.hasPrefix("/") && !trackID.hasPrefix("/org/mpris"))
    }

    @Test func untaggedFilesAreTitledByTheirName() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.untagged]) { session.metadata()["mpris:length"] != nil }
        #expect(session.title() == "untagged tone")
        #expect(session.metadata()["xesam:artist"] == nil)
    }

    @Test func pauseCorksTheStreamAndFreezesThePosition() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.first]) { (session.position() ?? 0) > 200_000 }
        session.clearSignals()
        try session.call("Pause")
        #expect(session.waitFor { session.propertiesChanged.contains { $0["PlaybackStatus"] == .string("Paused") } })
        #expect(session.status() == "Paused")
        #expect(session.waitFor {
            let inputs = (try? session.sinkInputs(of: reprise)) ?? []
            return inputs.allSatisfy(\.corked)
        })
        let frozen = session.position()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(session.position() == frozen)
        session.clearSignals()
        try session.call("Play")
        #expect(session.waitFor { session.propertiesChanged.contains { $0["PlaybackStatus"] == .string("Playing") } })
        #expect(session.waitFor { (session.position() ?? 0) > (frozen ?? 0) + 100_000 })
        #expect(session.waitFor {
            let inputs = (try? session.sinkInputs(of: reprise)) ?? []
            return inputs.count == 1 && !inputs[0].corked
        })
    }

    @Test func positionIsInMicrosecondsAndAdvancesWhilePlaying() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first])
        // PulseAudio holds the first ~100 ms while it prebuffers; measure once audio flows steadily.
        #expect(session.waitFor { (session.position() ?? 0) > 1_000_000 })
        let start = Date(), first = session.position() ?? 0
        Thread.sleep(forTimeInterval: 0.5)
        let advanced = Double((session.position() ?? 0) - first) / 1_000_000
        let elapsed = Date().timeIntervalSince(start)
        #expect(advanced > 0.2 && advanced < elapsed + 0.5, "advanced \(advanced) s in \(elapsed) s from \(first)")
        let reply = try session.get("Position")
        #expect(reply.signature == "x")
    }

    @Test func stoppingResetsThePositionAndPlayStartsAgain() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.first]) { (session.position() ?? 0) > 100_000 }
        try session.call("Stop")
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(session.position() == 0)
        #expect(session.waitFor { ((try? session.sinkInputs(of: reprise)) ?? [SinkInput()]).isEmpty })
        try session.call("Stop")
        #expect(session.status() == "Stopped")
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) > 0 })
    }

    @Test func endOfTheQueueStopsAndKeepsTheLastTrack() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.short]) { session.status() == "Stopped" }
        #expect(session.title() == "Short One")
        #expect(try session.get("CanPlay") == .bool(true))
    }

    @Test func withNothingQueuedTheServiceWaitsStopped() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([])
        #expect(session.status() == "Stopped")
        #expect(try session.get("Metadata") == .vardict([]))
        #expect(try session.get("CanPlay") == .bool(false))
        try session.call("Play")
        try session.call("Next")
        #expect(session.status() == "Stopped")
    }

    @Test func aDirectoryPlaysItsAudioFilesInNameOrder() throws {
        let session = try Session()
        defer { session.close() }
        let dir = try session.makeFolder("album")
        try FileManager.default.copyItem(atPath: media.second, toPath: dir + "/10 second.flac")
        try FileManager.default.copyItem(atPath: media.first, toPath: dir + "/2 first.ogg")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/cover.txt"))
        try session.launch([dir]) { session.title() == "First Light" }
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(try session.get("CanGoNext") == .bool(false))
    }
}

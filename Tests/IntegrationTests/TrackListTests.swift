import Foundation
import SDBus
import Testing
import TestSupport

/// org.mpris.MediaPlayer2.TrackList over the real bus: every method and signal with its arguments.
@Suite(.serialized) struct TrackListTests {
    static let trackList = "org.mpris.MediaPlayer2.TrackList"
    static let noTrack = DBusValue.objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")

    func tracks(_ session: Session) throws -> [DBusValue] {
        guard case .array(_, let items) = try session.get("Tracks", interface: Self.trackList) else { return [] }
        return items
    }

    func titles(_ session: Session, _ ids: [DBusValue]) throws -> [String] {
        let reply = try session.call("GetTracksMetadata", [.array(elementSignature: "o", ids)], interface: Self.trackList)
        guard case .array(_, let items)? = reply.first else { return [] }
        return items.compactMap { $0.dictionary?["xesam:title"]?.stringValue }
    }

    @Test func tracksAndMetadataDescribeTheList() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second, media.third]) { session.title() == "First Light" }
        #expect(try session.get("CanEditTracks", interface: Self.trackList) == .bool(true))
        let ids = try tracks(session)
        #expect(ids.count == 3)
        #expect(ids.first == session.metadata()["mpris:trackid"])
        // Unknown and foreign ids are skipped; the current track has its tags, others at least their file name
        // as title until their tags have been read in the background.
        let known = try titles(session, [ids[0], .objectPath("/org/reprise/Reprise/Track/999"), Self.noTrack, ids[2]])
        #expect(known.count == 2 && known[0] == "First Light" && ["third", "Third Time"].contains(known[1]))
        let reply = try session.call("GetTracksMetadata", [.array(elementSignature: "o", [])], interface: Self.trackList)
        #expect(reply.first?.signature == "aa{sv}")
    }

    @Test func addTrackInsertsWhereAskedAndSignalsIt() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.title() == "First Light" }
        let ids = try tracks(session)
        session.clearSignals()
        try session.call("AddTrack", [.string(TestMedia.uri(media.third)), Self.noTrack, .bool(false)], interface: Self.trackList)
        #expect(session.waitFor { session.trackListSignals.contains { $0.member == "TrackAdded" } && session.tracksInvalidated > 0 })
        let added = try #require(session.trackListSignals.first { $0.member == "TrackAdded" })
        #expect(added.arguments.count == 2)
        #expect(added.arguments[0].dictionary?["xesam:url"] == .string(TestMedia.uri(media.third)))
        #expect(added.arguments[1] == Self.noTrack)
        let afterStart = try tracks(session)
        #expect(afterStart.count == 3 && Array(afterStart.dropFirst()) == ids)
        #expect(session.title() == "First Light") // not made current

        try session.call("AddTrack", [.string(TestMedia.uri(media.untagged)), ids[0], .bool(true)], interface: Self.trackList)
        #expect(session.waitFor { session.title() == "untagged tone" })
        #expect(session.status() == "Playing")
        let list = try tracks(session)
        #expect(list.count == 4 && list[1] == ids[0] && list[2] == session.metadata()["mpris:trackid"] && list[3] == ids[1])

        func errorName(_ arguments: [DBusValue]) -> String? {
            session.dbusError { try session.call("AddTrack", arguments, interface: Self.trackList) }?.name
        }
        #expect(errorName([.string(TestMedia.uri(media.first)), .objectPath("/org/reprise/Reprise/Track/999"), .bool(false)]) != nil)
        #expect(errorName([.string(TestMedia.uri(media.first)), .objectPath("/somewhere/else"), .bool(false)])
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(errorName([.string("ftp://example.org/a.ogg"), Self.noTrack, .bool(false)]) == "org.freedesktop.DBus.Error.NotSupported")
        #expect(errorName([.string(TestMedia.uri(session.directory + "/none.ogg")), Self.noTrack, .bool(false)]) != nil)
        #expect(errorName([.int32(1), Self.noTrack, .bool(false)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try tracks(session).count == 4)
    }

    @Test func removeTrackAndGoTo() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second, media.third]) { session.title() == "First Light" }
        let ids = try tracks(session)
        session.clearSignals()
        try session.call("RemoveTrack", [ids[1]], interface: Self.trackList)
        #expect(session.waitFor { session.trackListSignals.contains { $0.member == "TrackRemoved" } })
        #expect(session.trackListSignals.first { $0.member == "TrackRemoved" }?.arguments == [ids[1]])
        #expect(try tracks(session) == [ids[0], ids[2]])
        // Unknown ids do nothing.
        try session.call("RemoveTrack", [.objectPath("/org/reprise/Reprise/Track/999")], interface: Self.trackList)
        try session.call("GoTo", [.objectPath("/org/reprise/Reprise/Track/999")], interface: Self.trackList)
        try session.call("GoTo", [Self.noTrack], interface: Self.trackList)
        #expect(try tracks(session).count == 2)
        #expect(session.title() == "First Light")

        try session.call("GoTo", [ids[2]], interface: Self.trackList)
        #expect(session.waitFor { session.title() == "Third Time" })
        #expect(session.status() == "Playing")
        // Removing the current track moves on; it was the last, so playback stops.
        try session.call("RemoveTrack", [ids[2]], interface: Self.trackList)
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(try tracks(session) == [ids[0]])
        try session.call("GoTo", [ids[0]], interface: Self.trackList)
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "First Light" })
        try session.call("RemoveTrack", [ids[0]], interface: Self.trackList)
        #expect(session.waitFor { session.status() == "Stopped" })
        #expect(try session.get("Metadata") == .vardict([]))
        #expect(try tracks(session).isEmpty)
    }

    @Test func removingTheCurrentTrackPlaysTheNextAndOpenUriJoinsTheList() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.title() == "First Light" }
        let ids = try tracks(session)
        try session.call("RemoveTrack", [ids[0]], interface: Self.trackList)
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(session.status() == "Playing")
        session.clearSignals()
        try session.call("OpenUri", [.string(TestMedia.uri(media.third))])
        #expect(session.waitFor { session.trackListSignals.contains { $0.member == "TrackAdded" } })
        let added = try #require(session.trackListSignals.first { $0.member == "TrackAdded" })
        #expect(added.arguments[1] == ids[1])
        #expect(try tracks(session).count == 2)
        // When the new current track is ready, its tags follow in TrackMetadataChanged.
        #expect(session.waitFor { session.trackListSignals.contains {
            $0.member == "TrackMetadataChanged" && $0.arguments.last?.dictionary?["xesam:title"] == .string("Third Time")
        } })
    }
}

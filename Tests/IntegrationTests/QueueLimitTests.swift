import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// Message size: the queue has documented limits that keep every reply and signal inside D-Bus's limits, with a
/// clear error past them; the largest queue is saved and restored whole.
@Suite(.serialized) struct QueueLimitTests {
    static let trackList = "org.mpris.MediaPlayer2.TrackList"
    static let noTrack = DBusValue.objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")
    static let maximum = 200_000

    func trackIDs(_ session: Session) -> [DBusValue] {
        guard case .array(_, let ids)? = try? session.get("Tracks", interface: Self.trackList) else { return [] }
        return ids
    }

    func playlist(_ session: Session, named name: String, lines: Int) throws -> String {
        let path = session.directory + "/" + name
        let line = media.short + "\n"
        try String(repeating: line, count: lines).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theLargestQueueIsServedSavedAndRestored() throws {
        let session = try Session()
        defer { session.close() }
        let full = try playlist(session, named: "full.m3u", lines: Self.maximum)
        let service = try session.launch([full])
        #expect(session.waitFor(60) { trackIDs(session).count == Self.maximum }, "\(session.log(of: service).suffix(2000))")
        // One more is refused, clearly; so is a playlist that could never fit.
        let more = session.dbusError { try session.call("AddTrack", [.string(TestMedia.uri(media.first)), Self.noTrack, .bool(false)],
                                                        interface: Self.trackList) }
        #expect(more?.name == "org.freedesktop.DBus.Error.InvalidArgs" && more?.message.contains("at most 200000") == true,
                "\(String(describing: more))")
        let huge = try playlist(session, named: "huge.m3u", lines: Self.maximum + 1)
        let tooMany = session.dbusError { try session.call("OpenUri", [.string(TestMedia.uri(huge))]) }
        #expect(tooMany?.message.contains("more than a queue holds") == true, "\(String(describing: tooMany))")
        // The whole queue's metadata in one reply is refused before it could break the connection; parts are fine.
        let ids = trackIDs(session)
        let all = session.dbusError { try session.call("GetTracksMetadata", [.array(elementSignature: "o", ids)], interface: Self.trackList) }
        #expect(all?.name == "org.freedesktop.DBus.Error.LimitsExceeded", "\(String(describing: all))")
        let part = try session.call("GetTracksMetadata", [.array(elementSignature: "o", Array(ids.prefix(1000)))], interface: Self.trackList)
        #expect(part.first.map { if case .array(_, let items) = $0 { items.count } else { 0 } } == 1000)
        #expect(session.isRunning(service))
        kill(service, SIGTERM)
        #expect(session.waitForExit(service, seconds: 30) == 0)
        let again = try session.launch([])
        #expect(session.waitFor(60) { trackIDs(session).count == Self.maximum }, "\(session.log(of: again).suffix(2000))")
        #expect(!session.log(of: again).contains("unreadable saved state"))
    }

    /// A playlist of many entries added to a running player is announced as one TrackListReplaced, not one
    /// TrackAdded for each (a few entries still get theirs).
    @Test func aLargePlaylistAddedIsOneTrackListReplaced() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { trackIDs(session).count == 1 }
        session.clearSignals()
        let large = try playlist(session, named: "large.m3u", lines: 5000)
        try session.call("AddTrack", [.string(TestMedia.uri(large)), Self.noTrack, .bool(false)], interface: Self.trackList)
        #expect(session.waitFor { session.trackListSignals.contains { $0.member == "TrackListReplaced" } })
        #expect(trackIDs(session).count == 5001)
        #expect(!session.trackListSignals.contains { $0.member == "TrackAdded" })
        let small = try playlist(session, named: "small.m3u", lines: 3)
        try session.call("AddTrack", [.string(TestMedia.uri(small)), Self.noTrack, .bool(false)], interface: Self.trackList)
        #expect(session.waitFor { session.trackListSignals.filter { $0.member == "TrackAdded" }.count == 3 })
    }

    /// A long playlist is read and checked away from the loop: calls sent after it are answered while it is read,
    /// its reply comes once it is queued, and requests after it still finish in order.
    @Test func aLongPlaylistIsReadWhileOtherCallsAreAnswered() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { trackIDs(session).count == 1 }
        let long = try playlist(session, named: "long.m3u", lines: 100_000)
        try session.bus.send(destination: Session.name, path: "/org/mpris/MediaPlayer2", interface: Self.trackList,
                             member: "AddTrack", [.string(TestMedia.uri(long)), Self.noTrack, .bool(false)])
        // Answered before the playlist is in: the loop did not wait for it.
        #expect(trackIDs(session).count == 1)
        // An addition sent meanwhile lands after it (at the start, so first), not before.
        try session.call("AddTrack", [.string(TestMedia.uri(media.second)), Self.noTrack, .bool(false)], interface: Self.trackList)
        let ids = trackIDs(session)
        #expect(ids.count == 100_002)
        let first = try session.call("GetTracksMetadata", [.array(elementSignature: "o", Array(ids.prefix(2)))], interface: Self.trackList)
        let urls = "\(first)"
        #expect(urls.contains(TestMedia.uri(media.second)), "\(urls.prefix(600))")
    }
}

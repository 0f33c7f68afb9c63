import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// MusicBrainz ids from a file's tags reach every surface: the library's index (MPD's `find`, `list … group`, the
/// song's tags), MPRIS Metadata (Rhythmbox's `xesam:musicBrainz…` keys) and the listen sent to ListenBrainz
/// (`additional_info`).
@Suite(.serialized) struct MusicBrainzTests {
    static let recording = "0b2a3c4d-1111-2222-3333-444455556666"
    static let release = "1b2a3c4d-1111-2222-3333-444455556666"
    static let artist = "2b2a3c4d-1111-2222-3333-444455556666"
    static let albumArtist = "3b2a3c4d-1111-2222-3333-444455556666"

    @Test func idsReachTheIndexMPDMPRISAndTheListen() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeHomeFolder("Music")
        let song = music + "/tagged.ogg"
        // Upper case in the tag: kept lower case, as MusicBrainz writes them.
        try generateTone(at: song, seconds: 31,
                         tags: "title=(string)\"Identified\",artist=(string)\"The Testers\",album=(string)\"Known\","
                             + "musicbrainz-trackid=(string)\"\(Self.recording.uppercased())\",musicbrainz-albumid=(string)\"\(Self.release)\","
                             + "musicbrainz-artistid=(string)\"\(Self.artist)\",musicbrainz-albumartistid=(string)\"\(Self.albumArtist)\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        let server = try ScriptedListenServer()
        session.onClose { server.stop() }
        let config = try session.makeHomeFolder(".config/reprise")
        try "token\n".write(toFile: config + "/listenbrainz-token", atomically: true, encoding: .utf8)
        chmod(config + "/listenbrainz-token", 0o600)
        try "scrobble = listenbrainz\nlistenbrainz-url = \(server.url)\nlibrary = \(music)\nmpd-port = 0\n"
            .write(toFile: config + "/config", atomically: true, encoding: .utf8)
        try session.launch([song]) { session.status() == "Playing" }

        // MPRIS: both spellings, string lists.
        #expect(session.waitFor { session.metadata()["xesam:musicBrainzTrackID"] == .strings([Self.recording]) }, "\(session.metadata())")
        let metadata = session.metadata()
        #expect(metadata["xesam:musicBrainzAlbumID"] == .strings([Self.release]))
        #expect(metadata["xesam:musicBrainzArtistID"] == .strings([Self.artist]))
        #expect(metadata["xesam:musicBrainzAlbumArtistID"] == .strings([Self.albumArtist]))
        #expect(metadata["xesam:musicbrainzTrackID"] == .strings([Self.recording]))

        // MPD: the index's tags, found and grouped by id.
        #expect(session.waitFor(30) { (try? session.get("Tracks", interface: LibraryTests.interface)) == .uint32(1) })
        let find = try MPDTests.mpc(session, "-f", "%file% %musicbrainz_albumid%", "find", "musicbrainz_albumid", Self.release)
        #expect(find.trimmed == "tagged.ogg \(Self.release)", "\(find.output)\(find.errors)")
        let grouped = try MPDTests.mpc(session, "list", "album", "group", "musicbrainz_albumid")
        #expect(grouped.output.contains("Known"), "\(grouped.output)\(grouped.errors)")
        let current = try MPDTests.mpc(session, "current", "-f", "%musicbrainz_trackid% %musicbrainz_artistid%")
        #expect(current.trimmed == "\(Self.recording) \(Self.artist)", "\(current.output)\(current.errors)")

        // The listen, once half of it is heard (at twice the speed).
        try session.set("Rate", .double(2))
        #expect(session.waitFor(30) { server.acceptedListens.count == 1 })
        let info = (server.acceptedListens.first?["track_metadata"] as? [String: Any])?["additional_info"] as? [String: Any]
        #expect(info?["recording_mbid"] as? String == Self.recording, "\(String(describing: info))")
        #expect(info?["release_mbid"] as? String == Self.release)
        #expect(info?["artist_mbids"] as? [String] == [Self.artist])
    }
}

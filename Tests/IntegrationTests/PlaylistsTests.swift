import Foundation
import SDBus
import Testing
import TestSupport

/// org.mpris.MediaPlayer2.Playlists over the real bus, and playlist files given as arguments, to OpenUri and to AddTrack.
@Suite(.serialized) struct PlaylistsTests {
    static let playlists = "org.mpris.MediaPlayer2.Playlists"
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    /// Three playlists: two in ~/Music/Playlists, one in ~/.local/share/reprise/playlists, with set modification dates.
    func makePlaylists(_ session: Session) throws -> (music: String, data: String) {
        let home = session.home
        let music = home + "/Music/Playlists", data = home + "/.local/share/reprise/playlists"
        for dir in [music, data] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        try write("#EXTM3U\n\(media.first)\n\(media.second)\n", to: music + "/road trip.m3u", modified: 3_000)
        try write("[playlist]\nFile1=\(TestMedia.uri(media.second))\nNumberOfEntries=1\n", to: music + "/c.pls", modified: 1_000)
        let xspf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/"><title>Alpha Mix</title><trackList>
            <track><location>\(TestMedia.uri(media.third))</location></track>
            <track><location>\(TestMedia.uri(media.first))</location></track>
            </trackList></playlist>
            """
        try write(xspf, to: data + "/b.xspf", modified: 2_000)
        return (music, data)
    }

    func write(_ text: String, to path: String, modified: TimeInterval) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: path)
    }

    func list(_ session: Session, _ index: UInt32 = 0, _ count: UInt32 = 100, order: String, reversed: Bool = false) throws -> [(id: DBusValue, name: String)] {
        let reply = try session.call("GetPlaylists", [.uint32(index), .uint32(count), .string(order), .bool(reversed)],
                                     interface: Self.playlists)
        guard case .array(let signature, let items)? = reply.first, signature == "(oss)" else { return [] }
        return items.compactMap { item in
            guard case .structure(let fields) = item, fields.count == 3, let name = fields[1].stringValue else { return nil }
            return (fields[0], name)
        }
    }

    @Test func playlistsAreListedInEachOrderingAndPaged() throws {
        let session = try Session()
        defer { session.close() }
        _ = try makePlaylists(session)
        try session.launch([])
        #expect(try session.get("PlaylistCount", interface: Self.playlists) == .uint32(3))
        #expect(try session.get("Orderings", interface: Self.playlists) == .strings(["Alphabetical", "ModifiedDate"]))
        #expect(try list(session, order: "Alphabetical").map(\.name) == ["Alpha Mix", "c", "road trip"])
        #expect(try list(session, order: "Alphabetical", reversed: true).map(\.name) == ["road trip", "c", "Alpha Mix"])
        #expect(try list(session, order: "ModifiedDate").map(\.name) == ["c", "Alpha Mix", "road trip"])
        #expect(try list(session, 1, 1, order: "ModifiedDate").map(\.name) == ["Alpha Mix"])
        #expect(try list(session, 7, 1, order: "ModifiedDate").isEmpty)
        let ids = try list(session, order: "Alphabetical").map(\.id)
        #expect(ids.allSatisfy { $0.stringValue?.hasPrefix("/org/reprise/Reprise/Playlist/") == true })
        let error = session.dbusError { _ = try list(session, order: "LastPlayDate") }
        #expect(error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let inactive = try session.get("ActivePlaylist", interface: Self.playlists)
        #expect(inactive == .structure([.bool(false), .structure([.objectPath("/"), .string(""), .string("")])]))
    }

    @Test func activatingAPlaylistReplacesTheQueueAndPlaysIt() throws {
        let session = try Session()
        defer { session.close() }
        let (music, data) = try makePlaylists(session)
        var playlistSignals: [(String, [DBusValue])] = []
        try session.bus.addMatch("type='signal',path='/org/mpris/MediaPlayer2'") { message in
            if message.member == "PlaylistChanged" || message.arguments.first == .string(Self.playlists) {
                playlistSignals.append((message.member, message.arguments))
            }
        }
        try session.launch([media.untagged])
        let alpha = try #require(list(session, order: "Alphabetical").first)
        #expect(alpha.name == "Alpha Mix")
        try session.call("ActivatePlaylist", [alpha.id], interface: Self.playlists)
        #expect(session.waitFor { session.title() == "Third Time" })
        #expect(session.status() == "Playing")
        guard case .array(_, let tracks) = try session.get("Tracks", interface: Self.trackList) else { Issue.record(); return }
        #expect(tracks.count == 2)
        #expect(try session.get("ActivePlaylist", interface: Self.playlists)
                == .structure([.bool(true), .structure([alpha.id, .string("Alpha Mix"), .string("")])]))
        #expect(session.waitFor { playlistSignals.contains { $0.0 == "PropertiesChanged" } })
        #expect(session.waitFor { session.trackListSignals.contains { $0.member == "TrackListReplaced" } })

        // Unknown ids are refused; a new file and a renamed playlist are noticed.
        let unknown = session.dbusError {
            try session.call("ActivatePlaylist", [.objectPath("/org/reprise/Reprise/Playlist/0")], interface: Self.playlists)
        }
        #expect(unknown?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        try write("\(media.short)\n", to: music + "/new.m3u8", modified: 4_000)
        #expect(try session.get("PlaylistCount", interface: Self.playlists) == .uint32(4))
        let renamed = try String(contentsOfFile: data + "/b.xspf", encoding: .utf8).replacingOccurrences(of: "Alpha Mix", with: "Omega Mix")
        try write(renamed, to: data + "/b.xspf", modified: 5_000)
        #expect(session.waitFor { playlistSignals.contains { $0.0 == "PlaylistChanged" } })
        let changed = try #require(playlistSignals.first { $0.0 == "PlaylistChanged" })
        #expect(changed.1 == [.structure([alpha.id, .string("Omega Mix"), .string("")])])
    }

    @Test func playlistFilesWorkAsArgumentsOpenUriAndAddTrack() throws {
        let session = try Session()
        defer { session.close() }
        let (music, _) = try makePlaylists(session)
        try session.launch([music + "/road trip.m3u"]) { session.title() == "First Light" }
        func count() -> Int {
            guard case .array(_, let tracks)? = try? session.get("Tracks", interface: Self.trackList) else { return -1 }
            return tracks.count
        }
        #expect(count() == 2)
        try session.call("OpenUri", [.string(TestMedia.uri(music + "/c.pls"))])
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(count() == 3)
        try session.call("AddTrack", [.string(TestMedia.uri(session.home + "/.local/share/reprise/playlists/b.xspf")),
                                      .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"), .bool(false)],
                         interface: Self.trackList)
        #expect(count() == 5)
        // OpenUri added one entry, AddTrack two more, each announced.
        #expect(session.waitFor { session.trackListSignals.filter { $0.member == "TrackAdded" }.count == 3 })
        // A playlist whose entries are all refused is an error, and changes nothing.
        try write("v4l2:///dev/video0\n/dev/null\n", to: music + "/bad.m3u", modified: 6_000)
        let refused = session.dbusError { try session.call("OpenUri", [.string(TestMedia.uri(music + "/bad.m3u"))]) }
        #expect(refused != nil)
        #expect(count() == 5)
    }
}

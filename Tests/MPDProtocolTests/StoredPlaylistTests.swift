import CoreTestDoubles
import RepriseCore
import Testing
@testable import MPDProtocol

/// Stored playlists over playlist files in memory: listed with their times, read whole or in part, saved from the
/// queue, edited (add, delete, move, clear), renamed and removed, with MPD's errors for what does not exist or
/// exists already.
@Suite struct StoredPlaylistTests {
    /// Playlist files in memory, answered at once.
    final class MemoryPlaylists: MPDPlaylistFiles {
        var files: [String: (uris: [String], modified: Int64)] = [:]

        func list() -> [(name: String, modified: Int64)] { files.map { ($0.key, $0.value.modified) } }
        func read(_ name: String, then: @escaping ([String]?) -> Void) { then(files[name]?.uris) }
        func write(_ uris: [String], as name: String, then: @escaping (String?) -> Void) {
            files[name] = (uris, 1_700_000_000)
            then(nil)
        }
        func remove(_ name: String, then: @escaping (String?) -> Void) {
            then(files.removeValue(forKey: name) == nil ? "No such playlist" : nil)
        }
        func rename(_ name: String, to newName: String, then: @escaping (String?) -> Void) {
            files[newName] = files.removeValue(forKey: name)
            then(nil)
        }
    }

    @Test func savedFromTheQueueListedAndReadBack() {
        let playlists = MemoryPlaylists()
        let rig = SessionTests.Rig(tracks: 2, playlists: playlists)
        #expect(rig.send("save mix") == "OK\n")
        #expect(playlists.files["mix"]?.uris == rig.player.queue.entries.map(\.uri))
        #expect(rig.send("save mix") == "ACK [56@0] {save} Playlist already exists\n")
        #expect(rig.send("listplaylists") == "playlist: mix\nLast-Modified: 2023-11-14T22:13:20Z\nOK\n")
        let listed = rig.pairs(rig.send("listplaylist mix"))
        #expect(listed.map(\.0) == ["file", "file"] && listed.map(\.1) == rig.player.queue.entries.map(\.uri))
        #expect(rig.pairs(rig.send("listplaylist mix 1:2")).map(\.1) == [rig.player.queue.entries[1].uri])
        #expect(rig.send("listplaylist nothing") == "ACK [50@0] {listplaylist} No such playlist\n")
        #expect(rig.send("save \"a/b\"") == "ACK [2@0] {save} Bad playlist name\n")
        #expect(rig.send("save .hidden") == "ACK [2@0] {save} Bad playlist name\n")
    }

    @Test func editsChangeTheFileAndAddCreatesIt() {
        let playlists = MemoryPlaylists()
        let rig = SessionTests.Rig(tracks: 0, playlists: playlists)
        #expect(rig.send("playlistadd new \"A/1.ogg\"", "playlistadd new \"B/2.ogg\"", "playlistadd new \"C/3.ogg\" 0") == "OK\nOK\nOK\n")
        #expect(playlists.files["new"]?.uris == ["file:///music/C/3.ogg", "file:///music/A/1.ogg", "file:///music/B/2.ogg"])
        #expect(rig.send("playlistmove new 0 2") == "OK\n")
        #expect(rig.pairs(rig.send("listplaylist new")).map(\.1) == ["A/1.ogg", "B/2.ogg", "C/3.ogg"])
        #expect(rig.send("playlistdelete new 1") == "OK\n")
        #expect(rig.pairs(rig.send("listplaylist new")).map(\.1) == ["A/1.ogg", "C/3.ogg"])
        #expect(rig.send("playlistmove new 0 5") == "ACK [2@0] {playlistmove} Bad song index\n")
        #expect(rig.send("playlistdelete new 7") == "ACK [2@0] {playlistdelete} Bad song index\n")
        #expect(rig.send("playlistclear new") == "OK\n" && playlists.files["new"]?.uris == [])
        #expect(rig.send("playlistclear none") == "ACK [50@0] {playlistclear} No such playlist\n")
    }

    @Test func renamedAndRemovedOnlyWhenTheNamesAllow() {
        let playlists = MemoryPlaylists()
        playlists.files = ["a": (["file:///music/x.ogg"], 0), "b": ([], 0)]
        let rig = SessionTests.Rig(tracks: 0, playlists: playlists)
        #expect(rig.send("rename a b") == "ACK [56@0] {rename} Playlist already exists\n")
        #expect(rig.send("rename z c") == "ACK [50@0] {rename} No such playlist\n")
        #expect(rig.send("rename a c") == "OK\n" && playlists.files["c"] != nil && playlists.files["a"] == nil)
        #expect(rig.send("rm c") == "OK\n" && playlists.files["c"] == nil)
        #expect(rig.send("rm c") == "ACK [50@0] {rm} No such playlist\n")
        #expect(rig.send("load c") == "ACK [50@0] {load} No such playlist\n")
    }

    @Test func timesAreWrittenAsMPDWritesThem() {
        #expect(MPDTime.iso8601(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(MPDTime.iso8601(secondsSince1970: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(MPDTime.iso8601(secondsSince1970: 1_700_000_000) == "2023-11-14T22:13:20Z")
        #expect(MPDTime.iso8601(secondsSince1970: -1) == "1969-12-31T23:59:59Z")
    }
}

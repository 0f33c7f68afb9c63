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
        /// Playlists of a format Reprise does not write (XSPF, PLS).
        var readOnly: Set<String> = []

        func list() -> [(name: String, modified: Int64, isWritable: Bool)] {
            files.map { ($0.key, $0.value.modified, !readOnly.contains($0.key)) }
        }
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

    /// Playlist files whose reads and writes answer only when the test says, in the order it chooses: two clients'
    /// changes can be made to meet as they would on workers.
    final class SlowPlaylists: MPDPlaylistFiles {
        let memory = MemoryPlaylists()
        var pending: [() -> Void] = []
        func list() -> [(name: String, modified: Int64, isWritable: Bool)] { memory.list() }
        func read(_ name: String, then: @escaping ([String]?) -> Void) { pending.append { [memory] in memory.read(name, then: then) } }
        func write(_ uris: [String], as name: String, then: @escaping (String?) -> Void) {
            pending.append { [memory] in memory.write(uris, as: name, then: then) }
        }
        func remove(_ name: String, then: @escaping (String?) -> Void) { pending.append { [memory] in memory.remove(name, then: then) } }
        func rename(_ name: String, to newName: String, then: @escaping (String?) -> Void) {
            pending.append { [memory] in memory.rename(name, to: newName, then: then) }
        }
        /// Answers what waits, newest first (the worst order for an unordered read-change-write), until none does.
        func answerAll() {
            while let last = pending.popLast() { last() }
        }
    }

    @Test func editsFromTwoClientsAreOrderedAndNoneIsLost() {
        let playlists = SlowPlaylists()
        let rig = SessionTests.Rig(tracks: 0, playlists: playlists)
        let other = MPDSession(commands: rig.bridge.commands, permissions: .all)
        for index in 0..<50 {
            rig.session.receive(Array("playlistadd Shared \"A/\(index).ogg\"".utf8))
            other.receive(Array("playlistadd Shared \"B/\(index).ogg\"".utf8))
            playlists.answerAll()
        }
        playlists.answerAll()
        #expect(playlists.memory.files["Shared"]?.uris.count == 100)
        #expect(String(decoding: rig.session.takeOutput(), as: UTF8.self) == String(repeating: "OK\n", count: 50))
        #expect(String(decoding: other.takeOutput(), as: UTF8.self) == String(repeating: "OK\n", count: 50))
    }

    @Test func ofTwoSavesOfOneNewNameExactlyOneSucceeds() {
        let playlists = SlowPlaylists()
        let rig = SessionTests.Rig(tracks: 2, playlists: playlists)
        let other = MPDSession(commands: rig.bridge.commands, permissions: .all)
        rig.session.receive(Array("save mix".utf8))
        other.receive(Array("save mix".utf8))
        playlists.answerAll()
        let replies = [String(decoding: rig.session.takeOutput(), as: UTF8.self), String(decoding: other.takeOutput(), as: UTF8.self)]
        #expect(replies.sorted() == ["ACK [56@0] {save} Playlist already exists\n", "OK\n"])
    }

    /// NUL (the file system would read a shorter name: another file), slash and carriage return (a line feed cannot
    /// reach a command: it ends the line) are refused by every command that takes a name, before anything is read or
    /// written.
    @Test func namesMPDRefusesAreRefusedByEveryCommand() {
        let playlists = MemoryPlaylists()
        playlists.files = ["keep": (["file:///music/x.ogg"], 0)]
        let rig = SessionTests.Rig(tracks: 1, playlists: playlists)
        for bad in ["keep\0", "a/b", "a\rb", "", ".hidden"] {
            let quoted = "\"" + bad + "\""
            for command in ["save \(quoted)", "playlistadd \(quoted) x.ogg", "rm \(quoted)", "rename keep \(quoted)", "rename \(quoted) new",
                            "listplaylist \(quoted)", "listplaylistinfo \(quoted)", "load \(quoted)", "playlistclear \(quoted)",
                            "playlistdelete \(quoted) 0", "playlistmove \(quoted) 0 0"] {
                let name = String(command.prefix { $0 != " " })
                rig.session.receive(Array(command.utf8))
                let reply = String(decoding: rig.session.takeOutput(), as: UTF8.self)
                #expect(reply == "ACK [2@0] {\(name)} Bad playlist name\n", "\(command.debugDescription)")
            }
        }
        #expect(Set(playlists.files.keys) == ["keep"])
    }

    @Test func namesUpToTheFileNameLimitAreAcceptedLongerOnesRefusedUpFront() {
        let playlists = MemoryPlaylists()
        let rig = SessionTests.Rig(tracks: 1, playlists: playlists)
        let longest = String(repeating: "é", count: 125) // 250 bytes: with ".m3u8", 255
        #expect(rig.send("save \"\(longest)\"") == "OK\n")
        #expect(rig.send("save \"\(longest)x\"") == "ACK [2@0] {save} Bad playlist name\n")
    }

    /// An XSPF or PLS playlist the user made is read and loaded, never changed, removed or renamed.
    @Test func onlyM3UPlaylistsAreChangedRemovedOrRenamed() {
        let playlists = MemoryPlaylists()
        playlists.files = ["Handmade": (["file:///music/x.ogg"], 0)]
        playlists.readOnly = ["Handmade"]
        let rig = SessionTests.Rig(tracks: 1, playlists: playlists)
        for command in ["rm Handmade", "rename Handmade Other", "playlistadd Handmade y.ogg", "playlistclear Handmade",
                        "playlistdelete Handmade 0"] {
            let name = String(command.prefix { $0 != " " })
            #expect(rig.send(command).hasPrefix("ACK [4@0] {\(name)} Handmade is not an M3U playlist"), "\(command)")
        }
        #expect(playlists.files["Handmade"]?.uris == ["file:///music/x.ogg"])
        #expect(rig.pairs(rig.send("listplaylist Handmade")).map(\.1) == ["x.ogg"])
    }

    /// Only a client of the owner on the Unix socket may name a file outside the music folder (MPD's rule); the
    /// others get MPD's "Access denied", in the queue and in stored playlists alike.
    @Test func localFilesOutsideTheMusicFolderOnlyForTheOwnersSocket() {
        let playlists = MemoryPlaylists()
        let stranger = SessionTests.Rig(tracks: 0, playlists: playlists)
        for name in ["/etc/hostname", "file:///etc/hostname", "A/../../etc/hostname", "file:///music/../etc/hostname"] {
            #expect(stranger.send("add \"\(name)\"") == "ACK [4@0] {add} Access denied\n", "\(name)")
            #expect(stranger.send("addid \"\(name)\"") == "ACK [4@0] {addid} Access denied\n", "\(name)")
            #expect(stranger.send("playlistadd mine \"\(name)\"") == "ACK [4@0] {playlistadd} Access denied\n", "\(name)")
        }
        #expect(stranger.player.queue.entries.isEmpty && playlists.files.isEmpty)
        #expect(!stranger.send("add \"A/1.ogg\"").contains("Access denied"), "inside the music folder")
        let owner = SessionTests.Rig(tracks: 0, playlists: playlists, mayNameLocalFiles: true)
        #expect(owner.send("playlistadd mine /elsewhere/song.ogg") == "OK\n")
        #expect(playlists.files["mine"]?.uris == ["file:///elsewhere/song.ogg"])
    }

    @Test func timesAreWrittenAsMPDWritesThem() {
        #expect(MPDTime.iso8601(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(MPDTime.iso8601(secondsSince1970: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(MPDTime.iso8601(secondsSince1970: 1_700_000_000) == "2023-11-14T22:13:20Z")
        #expect(MPDTime.iso8601(secondsSince1970: -1) == "1969-12-31T23:59:59Z")
        #expect(MPDTime.iso8601(secondsSince1970: 253_402_300_800) == "10000-01-01T00:00:00Z")
        // A file's time is input: absurd ones are written (as the nearest of ±2^50 s), never a trap.
        for extreme in [Int64.max, Int64.min, Int64.max / 2] { #expect(MPDTime.iso8601(secondsSince1970: extreme).hasSuffix("Z")) }
        #expect(MPDTime.iso8601(secondsSince1970: -1) == "1969-12-31T23:59:59Z")
    }
}

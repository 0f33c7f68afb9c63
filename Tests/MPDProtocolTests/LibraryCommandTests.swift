import CoreTestDoubles
import Foundation
import RepriseCore
import Testing
@testable import MPDProtocol

/// The library commands over a library in memory: filters old and new, list with groups, count, the folder tree.
@Suite struct LibraryCommandTests {
    static func library() -> MemoryLibrary { MemoryLibrary(tracks: [
        LibraryTrack(path: "/music/B/Début/1 Human.ogg", title: "Human Behaviour", artist: "Björk", album: "Début", genre: "Pop",
                     track: 1, lengthMicroseconds: 3_000_000),
        LibraryTrack(path: "/music/B/Début/2 Crying.ogg", title: "Crying", artist: "Björk", album: "Début", genre: "Pop",
                     track: 2, lengthMicroseconds: 4_000_000),
        LibraryTrack(path: "/music/M/Kind of Blue/1 So What.ogg", title: "So What", artist: "Miles Davis", album: "Kind of Blue",
                     albumArtist: "Miles Davis Quintet", genre: "Jazz", track: 1, lengthMicroseconds: 5_600_000),
        LibraryTrack(path: "/music/Loose.ogg", title: "Loose", artist: "Nobody", lengthMicroseconds: 1_000_000),
    ], folders: ["/music"]) }

    func rig() -> SessionTests.Rig { SessionTests.Rig(tracks: 0, library: Self.library()) }

    @Test func findTakesPairsAndExpressionsAndSearchIgnoresCase() {
        let rig = rig()
        #expect(rig.pairs(rig.send("find artist Björk")).filter { $0.0 == "file" }.map(\.1) == ["B/Début/1 Human.ogg", "B/Début/2 Crying.ogg"])
        #expect(rig.pairs(rig.send("find \"((genre == 'Pop') AND (!(track == '1')))\"")).first { $0.0 == "Title" }?.1 == "Crying")
        #expect(rig.pairs(rig.send("search title \"so wh\"")).first { $0.0 == "file" }?.1 == "M/Kind of Blue/1 So What.ogg")
        #expect(rig.send("find artist björk") == "OK\n", "find compares exactly")
        #expect(rig.send("find \"(artist = 'x')\"") == "ACK [2@0] {find} '==' or '!=' expected\n")
        #expect(rig.pairs(rig.send("find filename \"M/Kind of Blue/1 So What.ogg\"")).first { $0.0 == "file" }?.1 == "M/Kind of Blue/1 So What.ogg", "MPD's older name for file")
    }

    /// A file with two genres (two GENRE comments) is found under each, lists both and counts under both, as in
    /// MPD: mpd-sima's Genre plugin (`list artist "((Genre == 'Folk') AND (artist != ''))"`) missed its artist when
    /// the index kept the first genre alone.
    @Test func aSongOfTwoGenresIsFoundUnderEach() {
        var both = LibraryTrack(path: "/music/Band/two.ogg", title: "Two", artist: "Band", lengthMicroseconds: 2_000_000)
        both.genres = ["Rock", "Folk"]
        let library = MemoryLibrary(tracks: [
            both,
            LibraryTrack(path: "/music/Singer/one.ogg", title: "One", artist: "Singer", genre: "Folk", lengthMicroseconds: 1_000_000),
        ], folders: ["/music"])
        let rig = SessionTests.Rig(tracks: 0, library: library)
        #expect(rig.send("list artist \"((Genre == 'Folk') AND (artist != ''))\"") == "Artist: Band\nArtist: Singer\nOK\n")
        #expect(rig.send("list genre") == "Genre: Folk\nGenre: Rock\nOK\n")
        let found = rig.pairs(rig.send("find genre Rock"))
        #expect(found.filter { $0.0 == "Genre" }.map(\.1) == ["Rock", "Folk"], "\(found)")
        #expect(rig.value("songs", in: rig.send("count genre Folk")) == "2")
    }

    /// The sort names a file gives are tag types of their own, written where the file has them and found by
    /// filters; a song without one is found (and listed) by what the name sorts, as MPD's fall back.
    @Test func sortNamesAreTagTypesWrittenAndFound() {
        var help = LibraryTrack(path: "/music/Beatles/Help/1 Help.ogg", title: "Help!", artist: "The Beatles", album: "Help!",
                                albumArtist: "The Beatles", lengthMicroseconds: 1_000_000)
        help.sortNames = SortNames(artist: "Beatles, The", albumArtist: "Beatles, The", album: "Help")
        let library = MemoryLibrary(tracks: [
            help, LibraryTrack(path: "/music/Abba/1 SOS.ogg", title: "SOS", artist: "ABBA", lengthMicroseconds: 1_000_000),
        ], folders: ["/music"])
        let rig = SessionTests.Rig(tracks: 0, library: library)
        let types = rig.pairs(rig.send("tagtypes")).map(\.1)
        #expect(Array(types.prefix(6)) == ["Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort"])
        let song = rig.send("find title Help!")
        #expect(rig.value("ArtistSort", in: song) == "Beatles, The" && rig.value("AlbumSort", in: song) == "Help"
                && rig.value("AlbumArtistSort", in: song) == "Beatles, The", "\(song)")
        #expect(rig.value("ArtistSort", in: rig.send("find title SOS")) == nil, "none written where the file has none")
        #expect(rig.send("list artistsort") == "ArtistSort: ABBA\nArtistSort: Beatles, The\nOK\n")
        #expect(rig.value("Title", in: rig.send("find \"(ArtistSort == 'Beatles, The')\"")) == "Help!")
        #expect(rig.value("Title", in: rig.send("find \"(AlbumSort == 'Help')\"")) == "Help!")
    }

    /// Lengths from a hostile index (as long as Int64 holds) add up without a trap: the totals stop at the largest.
    @Test func totalsOfHostileLengthsDoNotOverflow() {
        let library = MemoryLibrary(tracks: [
            LibraryTrack(path: "/music/a.ogg", title: "A", lengthMicroseconds: .max),
            LibraryTrack(path: "/music/b.ogg", title: "B", lengthMicroseconds: .max),
            LibraryTrack(path: "/music/c.ogg", title: "C", lengthMicroseconds: -1),
        ], folders: ["/music"])
        let rig = SessionTests.Rig(tracks: 0, library: library)
        #expect(rig.value("db_playtime", in: rig.send("stats")) == String(Int64.max / 1_000_000))
        #expect(rig.value("playtime", in: rig.send("count \"(title != '')\"")) == String(Int64.max / 1_000_000))
    }

    @Test func listGroupsAndFallsBackToTheArtistForTheAlbumArtist() {
        let rig = rig()
        #expect(rig.send("list album group albumartist")
                == "AlbumArtist: Björk\nAlbum: Début\nAlbumArtist: Miles Davis Quintet\nAlbum: Kind of Blue\nAlbumArtist: Nobody\nAlbum: \nOK\n")
        #expect(rig.send("list genre") == "Genre: \nGenre: Jazz\nGenre: Pop\nOK\n")
        #expect(rig.send("list album group album") == "ACK [2@0] {list} Conflicting group\n")
    }

    @Test func countSumsSongsAndPlaytime() {
        let rig = rig()
        #expect(rig.send("count artist Björk") == "songs: 2\nplaytime: 7\nOK\n")
        #expect(rig.send("count genre Pop group album") == "Album: Début\nsongs: 2\nplaytime: 7\nOK\n")
    }

    /// As Debian's mpd walks its database: a folder's songs, then its folders.
    @Test func lsinfoListsOneFolderAndListallEveryThingBelow() {
        let rig = rig()
        let root = rig.pairs(rig.send("lsinfo"))
        #expect(root.filter { $0.0 == "directory" || $0.0 == "file" }.map(\.1) == ["Loose.ogg", "B", "M"])
        #expect(rig.pairs(rig.send("listall B")).map(\.1) == ["B", "B/Début", "B/Début/1 Human.ogg", "B/Début/2 Crying.ogg"])
        #expect(rig.send("lsinfo nowhere") == "ACK [50@0] {lsinfo} No such directory\n")
    }

    @Test func findaddPutsTheMatchesInTheQueue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mpd-findadd-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder + "/A", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = [folder + "/A/1.ogg", folder + "/A/2.ogg", folder + "/other.ogg"]
        for path in paths { _ = FileManager.default.createFile(atPath: path, contents: Data("OggS".utf8)) }
        let library = MemoryLibrary(tracks: paths.map { LibraryTrack(path: FilePath(escaped: $0), album: $0.hasSuffix("other.ogg") ? "Other" : "A") },
                                    folders: [folder])
        let (player, _, _) = makePlayer(tracks: 0)
        let bridge = MPDPlayerBridge(player: player, remote: RemoteControl(player: player, policy: RecordingPolicy()), library: library, musicFolder: folder)
        let session = MPDSession(commands: bridge.commands, permissions: .all)
        session.receive(Array("findadd album A".utf8))
        #expect(String(decoding: session.takeOutput(), as: UTF8.self) == "OK\n")
        #expect(player.queue.entries.map(\.uri) == paths.prefix(2).map { FilePath(escaped: $0).uri })
    }
}

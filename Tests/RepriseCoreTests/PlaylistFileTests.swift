import Foundation
import Testing
import CoreTestDoubles
import PosixFiles
@testable import RepriseCore

@Suite struct PlaylistFileTests {
    @Test func m3uListsPathsAndURIsAndSkipsComments() {
        let text = "#EXTM3U\n#PLAYLIST:Road Trip\n#EXTINF:123,Artist - Title\n01 one.ogg\r\n\n../other/two.flac\n/abs/three.mp3\nhttps://radio.example/live\nfile:///x/four%20.ogg\n"
        let playlist = PlaylistFile(Array(text.utf8), format: .m3u8, directory: "/music/lists")
        #expect(playlist.title == "Road Trip")
        #expect(playlist.uris == ["file:///music/lists/01%20one.ogg", "file:///music/other/two.flac", "file:///abs/three.mp3",
                                  "https://radio.example/live", "file:///x/four%20.ogg"])
    }

    @Test func schemeSeparatorsAreFoundByBytes() {
        for text in ["http://a/b", "a://", "x:/y://z", "é://"] { #expect(PlaylistFile.hasSchemeSeparator(text), "\(text)") }
        for text in ["", "a:/b", "/a//b", "a:b//", ":/", "a: //"] { #expect(!PlaylistFile.hasSchemeSeparator(text), "\(text)") }
    }

    @Test func pathsNeedingNoNormalisationAreRecognisedExactly() {
        // Every string of up to 6 characters over "/", "." and "a": the quick check agrees with normalising.
        var texts = [""]
        for _ in 0..<6 { texts += texts.flatMap { t in ["/", ".", "a"].map { t + $0 } } }
        func normalised(_ text: String) -> String {
            var components: [Substring] = []
            for component in text.split(separator: "/") {
                if component == "." { continue }
                if component == ".." { _ = components.popLast() } else { components.append(component) }
            }
            return "/" + components.joined(separator: "/")
        }
        for text in Set(texts) {
            #expect(MediaURI.isNormalAbsolutePath(text) == (text.hasPrefix("/") && normalised(text) == text && text != "/"), "\(text)")
            // The quick join of a plain relative entry agrees with normalising too, in any directory.
            for directory in ["/", "/m", "/m/..", "/m/"] {
                let expected = normalised(text.hasPrefix("/") ? text : directory + "/" + text)
                #expect(MediaURI.absolutePath(text, relativeTo: directory) == expected, "\(text) in \(directory)")
            }
        }
        #expect(" x ".trimmingWhitespace() == "x" && "x".trimmingWhitespace() == "x" && "\u{A0}é\t".trimmingWhitespace() == "é")
    }

    @Test func latin1M3UIsDecoded() {
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".ogg\n".utf8)
        let playlist = PlaylistFile(bytes, format: .m3u, directory: "/m")
        #expect(playlist.uris == ["file:///m/caf%C3%A9.ogg"])
    }

    @Test func aByteOrderMarkDoesNotEatTheFirstEntry() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("/m/one.ogg\n/m/two.ogg\n".utf8)
        #expect(PlaylistFile(bytes, format: .m3u8, directory: "/m").uris == ["file:///m/one.ogg", "file:///m/two.ogg"])
    }

    /// Malformed XSPF costs time in proportion to its size: 4 MB of unterminated tags (minutes when each scan ran
    /// to the end of the file again) are read at once.
    @Test func malformedXSPFIsReadInLinearTime() {
        let garbage = String(repeating: "<location <title <trackList ", count: 150_000)
        let playlist = PlaylistFile(Array(("<playlist><trackList>" + garbage).utf8), format: .xspf, directory: "/p")
        #expect(playlist.uris.isEmpty)
        let mixed = String(repeating: "<location>/a.ogg</location><location ", count: 50_000)
        #expect(PlaylistFile(Array(("<trackList>" + mixed).utf8), format: .xspf, directory: "/p").uris.count == 50_000)
    }

    @Test func plsIsOrderedByEntryNumber() {
        let text = "[playlist]\nFile2=b.ogg\nTitle2=B\nfile1=a.ogg\nFile10=c.ogg\nNumberOfEntries=3\nVersion=2\n"
        #expect(PlaylistFile(Array(text.utf8), format: .pls, directory: "/p").uris == ["file:///p/a.ogg", "file:///p/b.ogg", "file:///p/c.ogg"])
    }

    @Test func xspfReadsLocationsTitleAndEntities() {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist version="1" xmlns="http://xspf.org/ns/0/">
          <title>Rock &amp; Roll</title>
          <trackList>
            <track><title>ignored</title><location>file:///music/a%20b.ogg</location></track>
            <track><location>rel/c&amp;d.flac</location></track>
            <track><location>
              http://example.org/e.ogg
            </location></track>
          </trackList>
        </playlist>
        """
        let playlist = PlaylistFile(Array(text.utf8), format: .xspf, directory: "/lists")
        #expect(playlist.title == "Rock & Roll")
        #expect(playlist.uris == ["file:///music/a%20b.ogg", "file:///lists/rel/c&d.flac", "http://example.org/e.ogg"])
        #expect(XMLText.decodeEntities("&#233;&#x41;&bogus;") == "éA&bogus;")
    }

    @Test func playlistsAsArgumentsYieldOnlyPlayableEntries() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-pl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/a.ogg", contents: Data([1]))
        let list = "a.ogg\nmissing.ogg\nv4l2:///dev/video0\nother.m3u\n/dev/null\n"
        _ = FileManager.default.createFile(atPath: dir + "/list.m3u", contents: Data(list.utf8))
        let result = MediaLocation.expand(["list.m3u"], relativeTo: dir, in: PosixFileSystem())
        #expect(result.uris == [MediaURI.file(path: dir + "/a.ogg")])
        #expect(result.problems.count == 4)
        var problems: [String] = []
        #expect(throws: PlayerError.self) {
            _ = FileManager.default.createFile(atPath: dir + "/empty.pls", contents: Data("[playlist]\n".utf8))
            _ = try MediaLocation.resolve(MediaURI.file(path: dir + "/empty.pls"), in: PosixFileSystem(), problems: &problems)
        }
    }
}

@Suite struct PlaylistLibraryTests {
    @Test func listsOrdersPagesAndNoticesChanges() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-lib-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func write(_ name: String, _ text: String, modified: TimeInterval) throws {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: dir + "/" + name)
        }
        try write("Zed 10.m3u", "a.ogg\n", modified: 100)
        try write("zed 9.pls", "[playlist]\n", modified: 300)
        try write("named.m3u8", "#PLAYLIST:Apple\nb.ogg\n", modified: 200)
        try write("notes.txt", "", modified: 50)
        let library = PlaylistLibrary(directories: [dir, dir + "/missing"], fileSystem: PosixFileSystem())
        #expect(library.refresh().listChanged)
        #expect(library.list(from: 0, maxCount: 10, ordering: .alphabetical, reversed: false).map(\.name) == ["Apple", "zed 9", "Zed 10"])
        #expect(library.list(from: 0, maxCount: 10, ordering: .modifiedDate, reversed: true).map(\.name) == ["zed 9", "Apple", "Zed 10"])
        #expect(library.list(from: 2, maxCount: .max, ordering: .modifiedDate, reversed: false).map(\.name) == ["zed 9"])
        #expect(library.list(from: 3, maxCount: 1, ordering: .modifiedDate, reversed: false).isEmpty)
        #expect(library.refresh() == PlaylistLibrary.Changes()) // nothing changed, nothing rescanned
        let apple = try #require(library.playlists.first { $0.name == "Apple" })
        #expect(apple.id == PlaylistLibrary.id(forPath: dir + "/named.m3u8") && apple.id.count == 16)
        library.markActive(apple)
        try write("named.m3u8", "#PLAYLIST:Banana\nb.ogg\n", modified: 400)
        let changes = library.refresh()
        #expect(!changes.listChanged && changes.renamed.map(\.name) == ["Banana"])
        #expect(library.active?.name == "Banana")
        try FileManager.default.removeItem(atPath: dir + "/named.m3u8")
        #expect(library.refresh().listChanged)
        #expect(library.active == nil)
    }

    /// The first look after start tells nobody (nobody has seen a list it changes: an MPD client idling from the
    /// start was woken with `stored_playlist` five seconds in); later changes are told.
    @Test func theFirstLookIsToldToNobodyAndLaterChangesAre() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-lib-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "a.ogg\n".write(toFile: dir + "/one.m3u", atomically: true, encoding: .utf8)
        let feed = ChangeFeed()
        var told: [PlaylistLibrary.Changes] = []
        feed.listen(ChangeClosure { if $0.aspects.contains(.storedPlaylists) { told.append($0.playlists) } })
        let library = PlaylistLibrary(directories: [dir], fileSystem: PosixFileSystem(), feed: feed)
        #expect(library.refresh().listChanged && library.playlists.count == 1)
        #expect(told.isEmpty)
        try "b.ogg\n".write(toFile: dir + "/two.m3u", atomically: true, encoding: .utf8)
        #expect(library.rescan().listChanged)
        #expect(told.map(\.listChanged) == [true])
    }

    @Test func musicDirectoryComesFromUserDirs() {
        let text = "# comment\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_MUSIC_DIR=\"$HOME/Musik\"\n"
        #expect(UserDirectories.musicDirectory(userDirs: text, home: "/home/a") == "/home/a/Musik")
        #expect(UserDirectories.musicDirectory(userDirs: "XDG_MUSIC_DIR=\"/srv/music\"", home: "/home/a") == "/srv/music")
        #expect(UserDirectories.musicDirectory(userDirs: nil, home: "/home/a") == "/home/a/Music")
    }
}

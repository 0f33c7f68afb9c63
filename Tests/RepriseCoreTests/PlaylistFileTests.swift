import Foundation
import Testing
@testable import RepriseCore

@Suite struct PlaylistFileTests {
    @Test func m3uListsPathsAndURIsAndSkipsComments() {
        let text = "#EXTM3U\n#PLAYLIST:Road Trip\n#EXTINF:123,Artist - Title\n01 one.ogg\r\n\n../other/two.flac\n/abs/three.mp3\nhttps://radio.example/live\nfile:///x/four%20.ogg\n"
        let playlist = PlaylistFile(Array(text.utf8), format: .m3u8, directory: "/music/lists")
        #expect(playlist.title == "Road Trip")
        #expect(playlist.uris == ["file:///music/lists/01%20one.ogg", "file:///music/other/two.flac", "file:///abs/three.mp3",
                                  "https://radio.example/live", "file:///x/four%20.ogg"])
    }

    @Test func latin1M3UIsDecoded() {
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".ogg\n".utf8)
        let playlist = PlaylistFile(bytes, format: .m3u, directory: "/m")
        #expect(playlist.uris == ["file:///m/caf%C3%A9.ogg"])
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
        let result = MediaLocation.expand(["list.m3u"], relativeTo: dir, in: RealFileSystem())
        #expect(result.uris == [MediaURI.file(path: dir + "/a.ogg")])
        #expect(result.problems.count == 4)
        var problems: [String] = []
        #expect(throws: PlayerError.self) {
            _ = FileManager.default.createFile(atPath: dir + "/empty.pls", contents: Data("[playlist]\n".utf8))
            _ = try MediaLocation.resolve(MediaURI.file(path: dir + "/empty.pls"), in: RealFileSystem(), problems: &problems)
        }
    }
}

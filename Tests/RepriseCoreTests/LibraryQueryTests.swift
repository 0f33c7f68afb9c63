import Testing
@testable import RepriseCore

@Suite struct LibraryQueryTests {
    @Test func wordsAreFoldedAndQuotedForFTS() {
        let query = LibraryQuery("  Björk DÉBUT \"x\" NEAR(a) ")
        #expect(query.words == ["bjork", "debut", "x", "near", "a"])
        #expect(query.matchExpression == "\"bjork\"* AND \"debut\"* AND \"x\"* AND \"near\"* AND \"a\"*")
        #expect(LibraryQuery("--- !!").isEmpty)
        #expect(LibraryQuery(String(repeating: "a ", count: 100)).words.count == 16)
    }

    /// 2 MB of accented letters in one search: folding is linear (appending each replacement to a string was
    /// quadratic: minutes for this on the event loop).
    @Test func foldingLongAccentedTextIsLinear() {
        let query = LibraryQuery(String(repeating: "àéîõü", count: 400_000))
        #expect(query.words.count == 1 && query.words[0].utf8.count == 2_000_000 && query.words[0].hasPrefix("aeiou"))
        #expect(LibraryQuery(String(repeating: "é ", count: 1_000_000)).words == Array(repeating: "e", count: 16))
    }

    /// 100,000 folders, each listed: every listing looks only at its own folder (it looked at every folder, so
    /// MediaServer2's container search was quadratic in the folder count).
    @Test func theFolderOutlineListsEachFolderFromItsOwnChildren() {
        var outline = LibraryOutline()
        outline.roots = ["/music"]
        for artist in 0..<1000 { for album in 0..<100 { outline.addFolder("/music/a\(artist)/b\(album)", tracks: 2) } }
        outline.addFolder("/music", tracks: 1)
        var seen = 0, queue = ["/music"]
        while let folder = queue.popLast() {
            let children = outline.subfolders(of: folder)
            seen += children.count
            queue += children.map { folder + "/" + $0 }
        }
        #expect(seen == 1000 + 100_000)
        #expect(outline.subfolders(of: "/music/a7") == (0..<100).map { "b\($0)" }.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) })
        #expect(outline.hasFolder("/music/a7") && outline.hasFolder("/music/a7/b9") && !outline.hasFolder("/music/a7/b9/c"))
        #expect(outline.subfolders(of: "/") == ["music"] && outline.folders["/music"] == 1)
    }

    @Test func matchingIsByWordPrefixWithoutCaseOrAccents() {
        #expect(LibraryQuery("kind blu").matches("Kind of Blue"))
        #expect(!LibraryQuery("ind").matches("Kind of Blue"), "prefixes of words, not inner parts")
        #expect(LibraryQuery("sigur ros").matches("Sigur Rós"))
        #expect(LibraryQuery("strasse").matches("Straße"))
    }

    @Test func resultsAreGroupedAsArtistsAlbumsAndTracks() {
        let tracks = [
            LibraryTrack(path: "/m/a/1.ogg", title: "So What", artist: "Miles Davis", album: "Kind of Blue", track: 1),
            LibraryTrack(path: "/m/a/2.ogg", title: "Blue in Green", artist: "Miles Davis", album: "Kind of Blue", track: 3),
            LibraryTrack(path: "/m/b/1.ogg", title: "Blue Monday", artist: "New Order", album: "Singles", track: 1),
        ]
        let results = LibraryResults(grouping: tracks, for: LibraryQuery("blue"))
        #expect(results.artists.isEmpty)
        #expect(results.albums == [LibraryAlbum(title: "Kind of Blue", artist: "Miles Davis")])
        #expect(results.tracks.count == 3)
        let byArtist = LibraryResults(grouping: tracks, for: LibraryQuery("miles"))
        #expect(byArtist.artists == ["Miles Davis"])
        #expect(tracks.sorted(by: LibraryTrack.playOrder).map(\.title) == ["So What", "Blue in Green", "Blue Monday"])
    }

    @Test func theLibraryFolderSetting() throws {
        var settings = AudioSettings()
        try settings.set("library", "~/Music, /mnt/music")
        #expect(settings.libraryFolders == ["~/Music", "/mnt/music"])
        try settings.set("library", "off")
        #expect(settings.libraryFolders == [])
        #expect(throws: PlayerError.self) { try settings.set("library", "relative/path") }
    }
}

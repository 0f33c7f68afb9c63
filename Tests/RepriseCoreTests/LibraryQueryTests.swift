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

import RepriseCore
import Testing
@testable import MPDProtocol

/// Request lines split as MPD splits them.
@Suite struct RequestTests {
    @Test func unquotedAndQuotedArgumentsWithEscapes() throws {
        let request = try MPDRequest(parsing: Array(#"find "artist" "The \"Band\"" album A\B"#.utf8))
        #expect(request.name == "find")
        #expect(request.arguments == ["artist", #"The "Band""#, "album", #"A\B"#])
    }

    @Test func aNameIsAURIOnlyWithSchemeAndSlashesAsMPDTellsOne() {
        let writer = MPDSongWriter(musicFolder: "/music")
        #expect(writer.uri(forName: "Live: 2020/a.ogg") == MediaURI.file(path: "/music/Live: 2020/a.ogg"))
        #expect(writer.uri(forName: "http://radio.example/stream") == "http://radio.example/stream")
        #expect(writer.uri(forName: "file:///elsewhere/b.ogg") == "file:///elsewhere/b.ogg")
        #expect(writer.uri(forName: "/elsewhere/c.ogg") == MediaURI.file(path: "/elsewhere/c.ogg"))
        #expect(writer.uri(ofLibraryName: "x://y.ogg") == MediaURI.file(path: "/music/x://y.ogg"), "a library name is a file")
    }

    @Test func badLinesAreRefusedAsMPDRefusesThem() {
        #expect(throws: MPDError(.unknown, "Missing closing '\"'")) { try MPDRequest(parsing: Array(#"add "open"#.utf8)) }
        #expect(throws: MPDError(.argument, "Space expected after closing '\"'")) { try MPDRequest(parsing: Array(#"add "a"b"#.utf8)) }
        #expect(throws: MPDError(.argument, "Invalid unquoted character")) { try MPDRequest(parsing: Array("add it's".utf8)) }
        #expect(throws: MPDError(.unknown, "Invalid word character")) { try MPDRequest(parsing: Array("st-atus".utf8)) }
    }
}

import Testing
@testable import MPDProtocol

/// Request lines split as MPD splits them.
@Suite struct RequestTests {
    @Test func unquotedAndQuotedArgumentsWithEscapes() throws {
        let request = try MPDRequest(parsing: Array(#"find "artist" "The \"Band\"" album A\B"#.utf8))
        #expect(request.name == "find")
        #expect(request.arguments == ["artist", #"The "Band""#, "album", #"A\B"#])
    }

    @Test func badLinesAreRefusedAsMPDRefusesThem() {
        #expect(throws: MPDError(.argument, "Missing closing '\"'")) { try MPDRequest(parsing: Array(#"add "open"#.utf8)) }
        #expect(throws: MPDError(.argument, "Space expected after closing '\"'")) { try MPDRequest(parsing: Array(#"add "a"b"#.utf8)) }
        #expect(throws: MPDError(.argument, "Invalid unquoted character")) { try MPDRequest(parsing: Array("add it's".utf8)) }
        #expect(throws: MPDError(.unknown, "Invalid word character")) { try MPDRequest(parsing: Array("st-atus".utf8)) }
    }
}

import RepriseCore
import Testing

/// MediaServer2 SearchObjects criteria (the UPnP ContentDirectory syntax with MediaServer2 property names).
struct MediaQueryTests {
    let track = LibraryTrack(path: "/m/Miles Davis/Kind of Blue/2 Freddie Freeloader.ogg", title: "Freddie Freeloader",
                             artist: "Miles Davis", album: "Kind of Blue", genre: "Jazz", track: 2, lengthMicroseconds: 575_000_000)

    func matches(_ text: String) throws -> Bool { try MediaQuery(parsing: text).matches(track.mediaProperties) }

    @Test func comparisonsOnTextAndNumbers() throws {
        #expect(try matches("*"))
        #expect(try matches(#"DisplayName contains "freeload""#))
        #expect(try matches(#"Artist = "MILES DAVIS""#))
        #expect(try !matches(#"Artist = "Miles""#))
        #expect(try matches(#"Album startsWith "kind""#))
        #expect(try matches(#"Genre doesNotContain "pop""#))
        #expect(try matches(#"TrackNumber >= "2" and TrackNumber < "3""#))
        #expect(try matches(#"Duration > "500""#), "seconds, as numbers")
        #expect(try !matches(#"Duration > "1000""#))
        #expect(try matches(#"URLs contains "Freddie%20Freeloader""#))
        #expect(try matches(#"MIMEType = "audio/ogg""#))
    }

    @Test func typesDeriveFromTheirParents() throws {
        #expect(try matches(#"Type = "music""#))
        #expect(try matches(#"Type derivedfrom "audio""#))
        #expect(try !matches(#"Type derivedfrom "video""#))
        #expect(try !matches(#"Type derivedfrom "container""#))
    }

    @Test func andBindsTighterThanOrAndParenthesesGroup() throws {
        #expect(try matches(#"Artist = "Nobody" and Genre = "Jazz" or Album = "Kind of Blue""#))
        #expect(try !matches(#"Artist = "Nobody" and (Genre = "Jazz" or Album = "Kind of Blue")"#))
        #expect(try matches(#"(Type derivedfrom "audio") AND (Artist contains "davis" OR Genre = "Pop")"#))
    }

    @Test func whichKindsOfObjectACanMatch() throws {
        #expect(try !MediaQuery(parsing: #"Type derivedfrom "audio" and Artist contains "x""#).canMatch(type: "container"))
        #expect(try MediaQuery(parsing: #"Type derivedfrom "audio" and Artist contains "x""#).canMatch(type: "music"))
        #expect(try MediaQuery(parsing: #"Type = "container" or Artist contains "x""#).canMatch(type: "music"))
        #expect(try !MediaQuery(parsing: #"Type = "container""#).canMatch(type: "music"))
        #expect(try MediaQuery(parsing: "*").canMatch(type: "container"))
    }

    @Test func existsAndMissingProperties() throws {
        #expect(try matches("Artist exists true"))
        #expect(try matches("ChildCount exists false"))
        #expect(try !matches(#"ChildCount = "1""#))
        let untagged = LibraryTrack(path: "/m/x.ogg")
        #expect(try MediaQuery(parsing: "Artist exists false").matches(untagged.mediaProperties))
        #expect(try MediaQuery(parsing: #"DisplayName = "x""#).matches(untagged.mediaProperties), "the file name stands in for a title")
    }

    @Test func quotedValuesKeepEscapes() throws {
        let quoted = LibraryTrack(path: "/m/q.ogg", title: #"Say "Hi" \ Bye"#)
        #expect(try MediaQuery(parsing: #"DisplayName = "Say \"Hi\" \\ Bye""#).matches(quoted.mediaProperties))
    }

    @Test func malformedCriteriaAreRefused() {
        for text in ["", "Artist", #"Artist contains"#, #"Artist like "x""#, #"Artist = x"#, #"(Artist = "x""#, #"Artist = "x"#,
                     #"Artist = "x" and"#, #"Artist = "x")"#, "Artist exists maybe", String(repeating: "(", count: 100) + #"A = "x""#,
                     String(repeating: "x", count: 5000)] {
            #expect(throws: MediaQuery.ParseError.self, "\(text.prefix(40))") { try MediaQuery(parsing: text) }
        }
    }
}

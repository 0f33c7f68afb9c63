import ArgumentParser
import Testing
@testable import RepriseClient

/// The verbs' arguments as the parser and their own checks take them: what is accepted, what it means, and what is
/// refused before any bus is asked.
@Suite struct VerbParsingTests {
    @Test(arguments: [("+10", true, 10_000_000), ("-30", true, -30_000_000), ("95", false, 95_000_000),
                      ("1:35", false, 95_000_000), ("1:00:00", false, 3_600_000_000), ("0.5", false, 500_000)])
    func seekPositions(_ text: String, _ relative: Bool, _ microseconds: Int64) {
        let parsed = Seek.parse(text)
        #expect(parsed?.relative == relative && parsed?.microseconds == microseconds, "\(text)")
    }

    @Test(arguments: ["", "+", "abc", "1::2", "-1:-2", "nan", "inf", "1e10", "+1e300"])
    func seekRefusesWhatIsNoPosition(_ text: String) {
        #expect(Seek.parse(text) == nil, "\(text)")
    }

    /// On/off verbs take on, off (and their synonyms), their own extra words, or nothing (show); the refusal names
    /// every word they take.
    @Test func switchWordsAreCheckedBeforeTheBusIsAsked() throws {
        for words in [["on"], ["off"], ["yes"], []] { _ = try ChapterSkip.parse(words) }
        _ = try ScrobbleCommand.parse(["status"])
        _ = try PictureInPictureCommand.parse(["toggle"])
        #expect(ChapterSkip.message(for: validationError { _ = try ChapterSkip.parse(["maybe"]) }) == "'maybe' is not on or off")
        #expect(ScrobbleCommand.message(for: validationError { _ = try ScrobbleCommand.parse(["toggle"]) }) == "'toggle' is not on, off or status")
        #expect(PictureInPictureCommand.message(for: validationError { _ = try PictureInPictureCommand.parse(["status"]) })
                == "'status' is not on, off or toggle")
        #expect(Sleep.message(for: validationError { _ = try Sleep.parse(["5q"]) }).contains("not '5q'"))
        #expect(Crossfade.message(for: validationError { _ = try Crossfade.parse(["99"]) }).contains("between 0.5 and 12"))
    }

    /// What `parse` threw (a test fails when it did not throw).
    private func validationError(_ parse: () throws -> Void) -> any Error {
        do { try parse() } catch { return error }
        Issue.record("accepted")
        return ValidationError("accepted")
    }

    @Test func seekTakesANegativeNumberAsAPositionNotAnOption() throws {
        let seek = try Seek.parse(["-30"])
        #expect(seek.position == "-30")
    }

    @Test func seekWantsExactlyOnePosition() {
        #expect(throws: (any Error).self) { try Seek.parse([]) }
        #expect(throws: (any Error).self) { try Seek.parse(["10", "20"]) }
        #expect(throws: (any Error).self) { try Seek.parse(["soon"]) }
    }

    @Test func volumeTakesAFractionOrAPercentage() {
        #expect(Volume.parse("0.5") == 0.5)
        #expect(Volume.parse("50%") == 0.5)
        #expect(Volume.parse("150%") == 1.5)
        #expect(Volume.parse("0") == 0)
    }

    @Test(arguments: ["-0.1", "loud", "%", "nan%", "inf", ""])
    func volumeRefusesWhatIsNoLevel(_ text: String) {
        #expect(Volume.parse(text) == nil, "\(text)")
    }

    @Test func loopModesInAnyCase() {
        #expect(Loop.loopStatus("track") == "Track")
        #expect(Loop.loopStatus("PLAYLIST") == "Playlist")
        #expect(Loop.loopStatus("None") == "None")
        #expect(Loop.loopStatus("all") == nil)
    }

    @Test func switchesAreOnOrOff() throws {
        #expect(try parseSwitch("on") && parseSwitch("TRUE"))
        #expect(try !parseSwitch("off") && !parseSwitch("false"))
        #expect(throws: CLIError.self) { try parseSwitch("maybe") }
    }

    @Test func sleepAcceptsDurationsAndEndsAndRefusesTheRest() throws {
        for word in ["90s", "30m", "1h", "end-of-track", "end-of-chapter", "off", "45"] {
            #expect(throws: Never.self, "\(word)") { _ = try Sleep.parse([word]) }
        }
        for word in ["soon", "-5m", "end-of-album"] {
            #expect(throws: (any Error).self, "\(word)") { _ = try Sleep.parse([word]) }
        }
    }

    @Test func theTargetOptionsNameAnotherPlayerAndAskForJSON() throws {
        let status = try Status.parse(["--player", "mpv", "--json"])
        #expect(status.target.json)
    }

    @Test func anUnknownOptionIsRefused() {
        #expect(throws: (any Error).self) { _ = try Volume.parse(["--loudness", "3"]) }
    }
}

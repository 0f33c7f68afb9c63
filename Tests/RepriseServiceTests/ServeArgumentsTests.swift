import Testing
@testable import RepriseService

/// What the lean `reprise` serves itself, and what it leaves to `reprise-cli`.
@Suite struct ServeArgumentsTests {
    let files: Set<String> = ["a.ogg", "/music/b.flac", "./-dash.flac", "play"]

    func parse(_ arguments: String...) -> ServeArguments? {
        ServeArguments.parse(arguments, exists: { files.contains($0) }, currentDirectory: { "/home/u" })
    }

    @Test func optionsAndMediaThatAreThereAreServed() throws {
        let served = try #require(parse("-v", "--category", "ambient", "--options=duckOthers", "--silent", "a.ogg",
                                        "https://radio.example/stream", "--library", "Music", "--", "./-dash.flac"))
        #expect(served.verbose && !served.enqueue && !served.newInstance)
        #expect(served.media == ["a.ogg", "https://radio.example/stream", "./-dash.flac"])
        #expect(served.settings.map { "\($0.key)=\($0.value)" }
                == ["category=ambient", "options=duckOthers", "silent=true", "library=/home/u/Music"])
        #expect(parse() == ServeArguments(), "no arguments: the saved queue")
        #expect(parse("--new-instance", "--enqueue", "/music/b.flac")?.newInstance == true)
    }

    @Test func everythingElseIsForTheCommandLine() {
        for line in [["status"], ["next"], ["--help"], ["-h"], ["--version"], ["--generate-completion-script", "bash"],
                     ["--frobnicate"], ["missing.ogg"], ["a.ogg", "missing.ogg"], ["--category"], ["x:/y"], ["--", "missing"]] {
            #expect(ServeArguments.parse(line, exists: { files.contains($0) }, currentDirectory: { "/" }) == nil, "\(line)")
        }
        // A file named like a verb is still media here (reprise-cli would take the verb; `./play` is unambiguous).
        #expect(parse("play")?.media == ["play"])
    }
}

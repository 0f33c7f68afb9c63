import Testing
@testable import RepriseService

/// What the lean `reprise` serves itself, and what it leaves to `reprise-cli`.
@Suite struct ServeArgumentsTests {
    let files: Set<String> = ["a.ogg", "/music/b.flac", "./-dash.flac", "play", "./a.ogg"]

    func parse(_ arguments: String...) -> ServeArguments? {
        ServeArguments.parse(arguments, exists: { files.contains($0) }, currentDirectory: { "/home/u" })
    }

    @Test func optionsPathsAndURIsAreServed() throws {
        let served = try #require(parse("-v", "--category", "ambient", "--options=duckOthers", "--silent", "./a.ogg",
                                        "https://radio.example/stream", "--library", "Music", "--", "./-dash.flac", "missing"))
        #expect(served.verbose && !served.enqueue && !served.newInstance)
        #expect(served.media == ["./a.ogg", "https://radio.example/stream", "./-dash.flac", "missing"], "after --, anything")
        #expect(served.settings.map { "\($0.key)=\($0.value)" }
                == ["category=ambient", "options=duckOthers", "silent=true", "library=/home/u/Music"])
        #expect(parse() == ServeArguments(), "no arguments: the saved queue")
        #expect(parse("--new-instance", "--enqueue", "/music/b.flac")?.newInstance == true)
    }

    @Test func everythingElseIsForTheCommandLine() {
        // Bare words may be verbs or files here: reprise-cli tells them apart as it always has.
        for line in [["status"], ["next"], ["play"], ["a.ogg"], ["--help"], ["-h"], ["--version"],
                     ["--generate-completion-script", "bash"], ["--frobnicate"], ["./missing.ogg"], ["/music/b.flac", "x.ogg"],
                     ["--category"], ["x:/y"]] {
            #expect(ServeArguments.parse(line, exists: { files.contains($0) }, currentDirectory: { "/" }) == nil, "\(line)")
        }
    }

    @Test func theCommandLineReprisesCliRunsAsksForTheSame() throws {
        let serve = ServeArguments(verbose: true, newInstance: true,
                                   settings: [.init(key: "category", value: "ambient"), .init(key: "silent", value: "true")],
                                   media: ["song.ogg", "-dash.flac"])
        let again = ServeArguments.parse(serve.commandLine, exists: { _ in false }, currentDirectory: { "/" })
        #expect(again == serve, "\(serve.commandLine)")
    }
}

import Testing
@testable import RepriseCore

/// What `reprised` takes: its own options, then `--` and the media; nothing else.
@Suite struct ServeArgumentsTests {
    func parse(_ arguments: String...) -> ServeArguments? {
        ServeArguments.parse(arguments, currentDirectory: { "/home/u" })
    }

    @Test func optionsThenMediaAfterTheSeparator() throws {
        let served = try #require(parse("-v", "--category", "ambient", "--options=duckOthers", "--silent", "--library", "Music",
                                        "--", "./a.ogg", "https://radio.example/stream", "-dash.flac", "--verbose"))
        #expect(served.verbose && !served.newInstance)
        #expect(served.media == ["./a.ogg", "https://radio.example/stream", "-dash.flac", "--verbose"], "after --, anything")
        #expect(served.settings.map { "\($0.key)=\($0.value)" }
                == ["category=ambient", "options=duckOthers", "silent=true", "library=/home/u/Music"])
        #expect(parse() == ServeArguments(), "no arguments: the saved queue (D-Bus activation, the systemd unit)")
        #expect(parse("--new-instance", "--", "/music/b.flac")?.newInstance == true)
    }

    @Test func anythingElseIsRefusedNotGuessed() {
        // Verbs, files without the separator, help and unknown options are `reprise`'s to parse.
        for line in [["status"], ["play"], ["a.ogg"], ["/music/b.flac"], ["--help"], ["--enqueue"], ["--frobnicate"],
                     ["--category"], ["x:/y"]] {
            #expect(ServeArguments.parse(line, currentDirectory: { "/" }) == nil, "\(line)")
        }
    }

    @Test func theCommandLineReprisBuildsAsksForTheSame() throws {
        let serve = ServeArguments(verbose: true, newInstance: true,
                                   settings: [("category", "ambient"), ("silent", "true")],
                                   media: ["song.ogg", "-dash.flac", "--"])
        let again = ServeArguments.parse(serve.commandLine, currentDirectory: { "/" })
        #expect(again == serve, "\(serve.commandLine)")
    }
}

import ArgumentParser

struct UI: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A terminal now-playing view for any MPRIS player.")
    @Option(help: "Show another MPRIS player (e.g. vlc) instead of Reprise.") var player: String?
    @Flag(help: "One line: the title and the basic controls.") var mini = false

    func run() throws {
        try runVerb {
            let client = try ServiceClient.connect(player: player)
            try client.requireRunning()
            throw ExitCode(NowPlayingView(client: client, mini: mini).run())
        }
    }
}

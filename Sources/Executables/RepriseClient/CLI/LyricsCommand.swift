import ArgumentParser
import Glibc
import LoopKit
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// The lyrics of what plays, as Reprise's lyrics interface reports them.
struct LyricsReport {
    var lines: [(start: Int64?, text: String)]
    var synced: Bool
    var source: String
    var current: Int?

    init(_ client: ServiceClient) throws {
        let values = try client.lyrics.allValues()
        guard let items = values.lines else { throw CLIError("\(client.destination) has no lyrics interface") }
        lines = items.map { ($0.start >= 0 ? $0.start : nil, $0.text) }
        synced = values.synced == true
        source = values.source ?? ""
        let index = values.current ?? -1
        current = index >= 0 && Int(index) < lines.count ? Int(index) : nil
    }
}

struct LyricsCommand: ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "lyrics",
        abstract: "Print the lyrics of what plays (from a .lrc file beside it, or its tags); with --follow, each synced line as it is sung, until the track changes.")
    @OptionGroup var target: TargetOptions
    @Flag(help: "Print each synced line when it is sung, until the track changes or Ctrl-C.") var follow = false

    func run(with client: ServiceClient) throws {
        let report = try LyricsReport(client)
        guard follow, report.synced else { return show(report) }
        try LyricsFollower(client: client, report: report, json: target.json).run()
    }

    private func show(_ report: LyricsReport) {
        if target.json {
            printJSON(.object([
                ("synced", .bool(report.synced)), ("source", report.source.isEmpty ? .null : .string(report.source)),
                ("current", report.current.map { .number(Double($0 + 1)) } ?? .null),
                ("lines", .array(report.lines.map { line in
                    .object([("start", line.start.map { .number(Double($0) / 1e6) } ?? .null), ("text", .string(line.text))])
                })),
            ]))
            return
        }
        guard !report.lines.isEmpty else { return printLine("no lyrics") }
        for line in report.lines { printLine(line.text) }
    }
}

/// `reprise lyrics --follow`: prints the line sung now, then each line as the service announces it (Lyrics1's
/// Current), until the track changes, playback stops, the service goes away, or SIGINT/SIGTERM.
final class LyricsFollower {
    private let client: ServiceClient
    private var report: LyricsReport
    private let json: Bool
    private var trackID: String?
    private var printed: Int?
    private var failed = false

    init(client: ServiceClient, report: LyricsReport, json: Bool) {
        self.client = client
        self.report = report
        self.json = json
    }

    func run() throws {
        guard let loop = EventLoop() else { throw CLIError("no event loop") }
        try client.bus.attach(toEvent: loop.sdEvent)
        try client.bus.addMatch(.propertiesChanged(sender: client.destination)) { [unowned self] message in
            guard let interface = message.arguments.first?.stringValue, message.arguments.count >= 2,
                  let changed = message.arguments[1].dictionary else { return }
            if interface == MPRIS.playerInterface {
                // Another track (its lyrics are another follow's), or playback stopped: done.
                if let metadata = changed["Metadata"]?.dictionary, metadata["mpris:trackid"]?.stringValue != trackID { return loop.quit() }
                if changed["PlaybackStatus"] == .string("Stopped") { return loop.quit() }
                return
            }
            guard interface == Lyrics1Proxy.interface else { return }
            if changed["Lines"] != nil {
                guard let fresh = try? LyricsReport(client), fresh.synced else { return loop.quit() }
                report = fresh
            }
            if let current = changed["Current"]?.int64Value { show(Int(current)) }
        }
        try client.bus.onDisconnect { [unowned self] in
            failed = true
            loop.quit()
        }
        try client.onOwnerGone { [unowned self] in
            failed = true
            loop.quit()
        }
        for number in [SIGINT, SIGTERM, SIGHUP] { loop.onSignal(number) { loop.quit() } }
        trackID = (try? client.player.metadata)?["mpris:trackid"]?.stringValue
        guard (try? client.player.playbackStatus) != "Stopped" else { return }
        // What is sung now, asked after the match is in place so no change falls between the two.
        if let current = try? client.lyrics.current { show(Int(current)) }
        if !failed { loop.run() }
        if failed { throw CLIError(client.goneMessage) }
    }

    private func show(_ index: Int) {
        guard index >= 0, index < report.lines.count, index != printed else { return }
        printed = index
        let line = report.lines[index]
        if json {
            printJSON(.object([("number", .number(Double(index + 1))), ("start", line.start.map { .number(Double($0) / 1e6) } ?? .null),
                               ("text", .string(line.text))]))
        } else {
            printLine(line.text)
        }
        fflush(nil) // every stream: a line reaches a pipe as it is sung
    }
}

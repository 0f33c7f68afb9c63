import ArgumentParser
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// "m:ss" (or "h:mm:ss") for microseconds.
func clock(_ microseconds: Int64) -> String {
    let seconds = ReportedNumbers.microseconds(microseconds) / 1_000_000
    let (h, m, s) = (seconds / 3600, (seconds / 60) % 60, seconds % 60)
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):" + (m < 10 ? "0\(m)" : "\(m)") + ":" + ss }
    return "\(m):" + ss
}

func printJSON(_ value: JSON) { print(value.text) }

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what is playing.")
    @OptionGroup var target: TargetOptions

    func run() throws { try runVerb { try Self.show(target.plain) } }

    /// Prints the state of the player: three round trips (GetAll of the Player, of Sound1 and of Sleep1).
    static func show(_ target: Target) throws {
        let client = try target.client()
        let values = try client.player.allProperties()
        let metadata = values["Metadata"]?.dictionary ?? [:]
        let status = values["PlaybackStatus"]?.stringValue ?? "Stopped"
        let title = metadata["xesam:title"]?.stringValue
        let artists = metadata["xesam:artist"]?.stringArray ?? []
        let album = metadata["xesam:album"]?.stringValue
        let position = ReportedNumbers.microseconds(values["Position"]?.int64Value ?? (try? client.player.position))
        let length = metadata["mpris:length"]?.int64Value.map { ReportedNumbers.microseconds($0) }
        let volume = ReportedNumbers.volume(values["Volume"]?.doubleValue ?? 1), rate = ReportedNumbers.rate(values["Rate"]?.doubleValue)
        let loop = values["LoopStatus"]?.stringValue ?? "None", shuffle = values["Shuffle"] == .bool(true)
        let replayGain = ReplayGainReport(client)
        let chapter = metadata["reprise:chapter"]?.stringValue
        let sleep = (try? client.sleep.allProperties()) ?? [:]
        let sleepTimer = sleep["Timer"]?.stringValue ?? "off"
        let sleepLeft = sleepTimer == "off" ? -1 : sleep["Remaining"]?.int64Value ?? -1
        let mpd = try? client.mpdServer.allValues()
        let mpdAddresses = mpd?.addresses ?? [], mpdClients = mpd?.clients ?? 0
        if target.json {
            printJSON(.object([
                ("player", .string(client.destination)), ("status", .string(status)),
                ("title", title.map(JSON.string) ?? .null), ("artists", .array(artists.map(JSON.string))),
                ("album", album.map(JSON.string) ?? .null), ("url", metadata["xesam:url"]?.stringValue.map(JSON.string) ?? .null),
                ("station", metadata["reprise:station"]?.stringValue.map(JSON.string) ?? .null),
                ("stationURL", metadata["reprise:stationURL"]?.stringValue.map(JSON.string) ?? .null),
                ("position", .number(Double(position) / 1e6)), ("length", length.map { .number(Double($0) / 1e6) } ?? .null),
                ("volume", volume.map(JSON.number) ?? .null), ("rate", .number(rate)), ("loop", .string(loop)), ("shuffle", .bool(shuffle)),
                ("replayGain", replayGain?.json ?? .null),
                ("crossfade", replayGain.map { .number($0.crossfade) } ?? .null),
                ("chapter", chapter.map(JSON.string) ?? .null),
                ("sleep", sleepTimer == "off" ? .null : .object([("timer", .string(sleepTimer)),
                                                                 ("remaining", .number(Double(max(0, sleepLeft)) / 1e6))])),
                ("mpd", mpd == nil ? .null : .object([("addresses", .array(mpdAddresses.map(JSON.string))),
                                                      ("clients", .number(Double(mpdClients)))])),
            ]))
            return
        }
        var line = status
        if let title { line += "  " + title }
        if !artists.isEmpty { line += " — " + artists.joined(separator: ", ") }
        if let album { line += " (\(album))" }
        printLine(line)
        if let chapter { printLine("chapter \(chapter)") }
        if sleepTimer != "off" { printLine("sleep: " + sleepText(timer: sleepTimer, remaining: sleepLeft)) }
        if let station = metadata["reprise:station"]?.stringValue {
            let genres = metadata["xesam:genre"]?.stringArray ?? []
            printLine("station \(station)" + (genres.isEmpty ? "" : " (\(genres.joined(separator: ", ")))")
                      + (metadata["reprise:stationURL"]?.stringValue.map { "  \($0)" } ?? ""))
        }
        let volumeText = volume.map { "\(Int(($0 * 100).rounded()))%" } ?? "–"
        printLine("\(clock(position)) / \(length.map(clock) ?? "–")   volume \(volumeText)   speed \(rate)×   loop \(loop)   shuffle \(shuffle ? "on" : "off")"
                  + (replayGain.map { "   gain \($0.appliedText)" } ?? ""))
        if !mpdAddresses.isEmpty {
            printLine("MPD clients: \(mpdClients) on \(mpdAddresses.joined(separator: ", "))")
        }
        }
}

/// A verb that is one MPRIS Player method.
protocol PlayerMethodCommand: ParsableCommand {
    static func call(_ player: MediaPlayer2PlayerProxy) throws(DBusError)
    var target: TargetOptions { get }
}

extension PlayerMethodCommand {
    func run() throws { try runVerb { try Self.act(target.plain) } }

    static func act(_ target: Target) throws {
        try call(target.client().player)
        target.reportDone()
    }
}

struct Play: ClientVerb {
    static let configuration = CommandConfiguration(
        abstract: "Start or resume playback; with a selector or search words, play what the library has of them.")
    @OptionGroup var target: TargetOptions
    @OptionGroup var selection: LibrarySelection

    func validate() throws { try selection.check() }

    func run(with client: ServiceClient) throws {
        if let (kind, value) = selection.selector {
            let count = try selection.play(kind, value, enqueue: false, on: client)
            if target.json { printJSON(.object([("ok", .bool(true)), ("queued", .number(Double(count)))])) }
            else { printLine("playing \(count) track\(count == 1 ? "" : "s")") }
            return
        }
        try client.player.play()
        target.reportDone()
    }

    /// `play` with no selector: resume.
    static func act(_ target: Target) throws {
        try target.client().player.play()
        target.reportDone()
    }
}

struct Pause: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Pause playback.")
    static func call(_ player: MediaPlayer2PlayerProxy) throws(DBusError) { try player.pause() }
    @OptionGroup var target: TargetOptions
}

struct Toggle: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Play or pause.")
    static func call(_ player: MediaPlayer2PlayerProxy) throws(DBusError) { try player.playPause() }
    @OptionGroup var target: TargetOptions
}

struct Next: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Go to the next track.")
    static func call(_ player: MediaPlayer2PlayerProxy) throws(DBusError) { try player.next() }
    @OptionGroup var target: TargetOptions
}

struct Previous: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Go to the previous track.")
    static func call(_ player: MediaPlayer2PlayerProxy) throws(DBusError) { try player.previous() }
    @OptionGroup var target: TargetOptions
}

struct Seek: ActionVerb {
    static let configuration = CommandConfiguration(
        abstract: "Jump: +SECONDS or -SECONDS from here, or to SECONDS or MM:SS from the start.")
    @OptionGroup var target: TargetOptions
    /// One word; gathered as "all unrecognised" so that "-30" is a position, not an unknown option.
    @Argument(parsing: .allUnrecognized, help: "+10, -30, 95 or 1:35.") var words: [String] = []
    var position: String { words.first ?? "" }

    /// (relative, microseconds), or nil when `text` is not a position.
    static func parse(_ text: String) -> (relative: Bool, microseconds: Int64)? {
        let relative = text.hasPrefix("+") || text.hasPrefix("-")
        let sign: Int64 = text.hasPrefix("-") ? -1 : 1
        let body = relative ? String(text.dropFirst()) : text
        var seconds = 0.0
        for part in body.split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Double(part), value >= 0, value.isFinite else { return nil }
            seconds = seconds * 60 + value
        }
        guard !body.isEmpty, seconds < 1e9 else { return nil }
        return (relative, sign * Int64(seconds * 1e6))
    }

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("Missing expected argument '<position>'") }
        guard words.count == 1 else { throw ValidationError("one position, not '\(TerminalText.sanitized(words.joined(separator: " ")))'") }
        guard Self.parse(position) != nil else { throw ValidationError("'\(TerminalText.sanitized(position))' is not a position (+10, -30, 95, 1:35)") }
    }

    func act(on client: ServiceClient) throws {
        let (relative, microseconds) = Self.parse(position)!
        if relative {
            try client.player.seek(offset: microseconds)
        } else {
            guard let id = try client.player.metadata["mpris:trackid"]?.stringValue else { throw CLIError("nothing is playing") }
            try client.player.setPosition(trackId: id, position: microseconds)
        }
    }
}

struct Speed: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set the playback speed (pitch is kept).")
    @OptionGroup var target: TargetOptions
    @Argument(help: "e.g. 1.5") var rate: Double?

    func run() throws {
        let change = rate.map { rate in
            { (client: ServiceClient) in
                guard rate.isFinite, rate > 0 else { throw CLIError("the speed must be above 0", status: 2) }
                try client.player.set(rate: rate)
            }
        }
        try showOrSet(target, key: "rate", change: change, read: { ReportedNumbers.rate(try $0.player.rate) }, json: JSON.number) {
            "\($0)×"
        }
    }
}

struct Volume: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set the volume: 0 to 1, or a percentage.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "e.g. 0.5 or 50%") var level: String?

    /// The MPRIS volume `text` asks for ("0.5", "50%"); nil when it is none.
    static func parse(_ text: String) -> Double? {
        let percent = text.hasSuffix("%")
        guard let number = Double(percent ? String(text.dropLast()) : text), number.isFinite, number >= 0 else { return nil }
        return percent ? number / 100 : number
    }

    func run() throws {
        let change = level.map { level in
            { (client: ServiceClient) in
                guard let volume = Self.parse(level) else { throw CLIError("'\(level)' is not a volume (0.5 or 50%)", status: 2) }
                try client.player.set(volume: volume)
            }
        }
        try showOrSet(target, key: "volume", change: change, read: { ReportedNumbers.volume(try $0.player.volume) },
                      json: { $0.map(JSON.number) ?? .null }) { $0.map { "\(Int(($0 * 100).rounded()))%" } ?? "–" }
    }
}

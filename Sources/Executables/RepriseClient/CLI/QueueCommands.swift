import ArgumentParser
import MPRIS
import BusInterfaces
import RepriseCore
import SDBus

struct Queue: ClientVerb {
    static let configuration = CommandConfiguration(
        abstract: "List the queue: what plays now (marked, with its elapsed time) and what comes next.")
    @OptionGroup var target: TargetOptions
    @Flag(help: "Also list what played before.") var history = false

    func run(with client: ServiceClient) throws {
        let ids = try client.trackList.tracks
        let metadata = try client.metadata(of: ids)
        let currentID = try client.player.metadata["mpris:trackid"]
        let position = ReportedNumbers.microseconds(try? client.player.position)
        var played: [[String: DBusValue]] = []
        if history {
            played = try client.metadata(of: try client.controls.history)
        }
        func title(_ entry: [String: DBusValue]) -> String { entry["xesam:title"]?.stringValue ?? "?" }
        if target.json {
            let entries: [JSON] = metadata.enumerated().map { index, entry in
                let isCurrent = entry["mpris:trackid"] == currentID
                return .object([("number", .integer(Int64(index + 1))), ("title", .string(title(entry))),
                                ("url", entry["xesam:url"]?.stringValue.map(JSON.string) ?? .null),
                                ("length", entry["mpris:length"]?.int64Value.map { .number(Double($0) / 1e6) } ?? .null),
                                ("current", .bool(isCurrent)),
                                ("elapsed", isCurrent ? .number(Double(position) / 1e6) : .null)])
            }
            var fields: [(String, JSON)] = [("entries", .array(entries))]
            if history { fields.append(("history", .array(played.map { .string(title($0)) }))) }
            printJSON(.object(fields))
            return
        }
        if history {
            for entry in played { printLine("   ·  " + title(entry)) }
        }
        if metadata.isEmpty { printLine("(the queue is empty)") }
        for (index, entry) in metadata.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: max(0, 4 - number.count)) + number
            if entry["mpris:trackid"] == currentID {
                let length = entry["mpris:length"]?.int64Value.map(clock) ?? "–"
                printLine("▶" + padded + "  " + title(entry) + "  \(clock(position)) / \(length)")
            } else {
                printLine(" " + padded + "  " + title(entry))
            }
        }
    }
}

extension ServiceClient {
    /// GetTracksMetadata in pages (a long queue in one reply could exceed the bus's message size).
    func metadata(of ids: [String]) throws -> [[String: DBusValue]] {
        var result: [[String: DBusValue]] = []
        var start = 0
        while start < ids.count {
            let page = Array(ids[start..<min(ids.count, start + 1000)])
            result += try trackList.getTracksMetadata(trackIds: page)
            start += 1000
        }
        return result
    }
}

struct GoTo: ActionVerb {
    static let configuration = CommandConfiguration(commandName: "goto", abstract: "Play entry N of the queue now.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "The entry's number, as `reprise queue` shows it.") var number: Int

    func act(on client: ServiceClient) throws {
        try client.trackList.goTo(trackId: try client.trackID(number: number))
    }
}

struct Remove: ActionVerb {
    static let configuration = CommandConfiguration(abstract: "Remove entry N from the queue.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "The entry's number, as `reprise queue` shows it.") var number: Int

    func act(on client: ServiceClient) throws {
        try client.trackList.removeTrack(trackId: try client.trackID(number: number))
    }
}

struct Add: ClientVerb {
    static let configuration = CommandConfiguration(
        abstract: "Add files, directories, playlists or URIs to the end of the queue, or what the library has of an artist, album, genre, playlist or search.")
    @OptionGroup var target: TargetOptions
    @Option(help: "Add the library's tracks of this artist.") var artist: String?
    @Option(help: "Add the library's album of this name.") var album: String?
    @Option(help: "Add the library's tracks of this genre.") var genre: String?
    @Option(help: "Add the entries of the playlist of this name.") var playlist: String?
    @Option(help: "Add the library's tracks matching these words.") var search: String?
    @Argument(help: ArgumentHelp("What to add.", valueName: "media")) var parsedMedia: [String] = []
    /// What to add (taken out of the command line before parsing: ``MediaWords``).
    var media: [String] { MediaWords.all(after: parsedMedia) }

    var selector: (String, String)? {
        [("album", album), ("artist", artist), ("genre", genre), ("playlist", playlist), ("search", search)].first { $0.1 != nil }.map { ($0.0, $0.1!) }
    }

    func validate() throws {
        let selectors = [album == nil ? artist : nil, album, genre, playlist, search].compactMap { $0 }.count // --artist may narrow --album
        if selectors > 1 { throw ValidationError("give one of --artist, --album (with --artist to pick whose), --genre, --playlist or --search") }
        if selectors == 1 && !media.isEmpty { throw ValidationError("add either library tracks or media, not both") }
        if selectors == 0 && media.isEmpty { throw ValidationError("name something to add") }
    }

    func run(with client: ServiceClient) throws {
        if let (kind, value) = selector {
            let count = try LibrarySelection.play(kind, value, enqueue: true, on: client, albumArtist: artist)
            if target.json { printJSON(.object([("ok", .bool(true)), ("queued", .number(Double(count)))])) }
            else { printLine("added \(count) track\(count == 1 ? "" : "s")") }
            return
        }
        try client.openMedia(media, enqueue: true)
        target.reportDone()
    }
}

struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Empty the queue.")
    @OptionGroup var target: TargetOptions

    func run() throws {
        try runVerb {
            try target.client().controls.clear()
            target.reportDone()
        }
    }
}

struct Loop: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set repeat: none, track or playlist.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "none, track or playlist") var mode: String?

    /// The MPRIS LoopStatus for `mode` (any case); nil when it is none of them.
    static func loopStatus(_ mode: String) -> String? {
        ["none": "None", "track": "Track", "playlist": "Playlist"][mode.lowercased()]
    }

    func run() throws {
        let change = mode.map { mode in
            { (client: ServiceClient) in
                guard let status = Self.loopStatus(mode) else { throw CLIError("'\(mode)' is not none, track or playlist", status: 2) }
                try client.player.set(loopStatus: status)
            }
        }
        try showOrSet(target, key: "loop", change: change, read: { try $0.player.loopStatus }, json: JSON.string) { $0 }
    }
}

struct Shuffle: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set shuffle: on or off.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "on or off") var state: String?

    func run() throws {
        try showOrSwitch(target, key: "shuffle", word: state, set: { try $0.player.set(shuffle: $1) }) { try $0.player.shuffle }
    }
}

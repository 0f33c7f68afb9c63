import ArgumentParser
import MPRIS
import RepriseCore
import SDBus

/// `--artist`, `--album`, `--genre` or search words: what to take from the library.
struct LibrarySelection: ParsableArguments {
    @Option(help: "Play the library's tracks of this artist (or album artist).") var artist: String?
    @Option(help: "Play the library's album of this name.") var album: String?
    @Option(help: "Play the library's tracks of this genre.") var genre: String?
    @Argument(help: "Search words: play what the library finds (album, disc and track order).") var words: [String] = []

    var selector: (String, String)? {
        if let artist { return ("artist", artist) }
        if let album { return ("album", album) }
        if let genre { return ("genre", genre) }
        return words.isEmpty ? nil : ("search", words.joined(separator: " "))
    }

    func check() throws {
        if [artist, album, genre].compactMap({ $0 }).count + (words.isEmpty ? 0 : 1) > 1 {
            throw ValidationError("give one of --artist, --album, --genre or search words")
        }
    }

    /// Replaces the queue with (or appends) the selection; how many tracks it had.
    func play(_ kind: String, _ value: String, enqueue: Bool, on client: ServiceClient) throws -> Int {
        try Self.play(kind, value, enqueue: enqueue, on: client)
    }

    static func play(_ kind: String, _ value: String, enqueue: Bool, on client: ServiceClient) throws -> Int {
        let reply = try client.call("Play", [.string(kind), .string(value), .bool(enqueue)], interface: LibraryNames.interface)
        guard case .uint32(let count)? = reply.first else { return 0 }
        return Int(count)
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the music library: words match the start of words in titles, artists, albums, genres and years.")
    @OptionGroup var target: TargetOptions
    @Option(help: "At most this many tracks.") var limit: UInt32 = 50
    @Argument(help: "Search words.") var words: [String]

    func validate() throws {
        if LibraryQuery(words.joined(separator: " ")).isEmpty { throw ValidationError("give words to search for") }
    }

    func run() throws {
        try runVerb {
            let client = try target.client()
            let reply = try client.call("Search", [.string(words.joined(separator: " ")), .uint32(limit)], interface: LibraryNames.interface)
            guard reply.count == 3, case .array(_, let albumItems) = reply[1], case .array(_, let trackItems) = reply[2] else {
                throw CLIError("\(client.destination) answered Search oddly")
            }
            let artists = reply[0].stringArray ?? []
            let albums: [(String, String)] = albumItems.compactMap {
                guard case .structure(let f) = $0, f.count == 2 else { return nil }
                return (f[0].stringValue ?? "", f[1].stringValue ?? "")
            }
            let tracks: [(uri: String, title: String, artist: String, album: String, length: Int64)] = trackItems.compactMap {
                guard case .structure(let f) = $0, f.count == 5 else { return nil }
                return (f[0].stringValue ?? "", f[1].stringValue ?? "", f[2].stringValue ?? "", f[3].stringValue ?? "", f[4].int64Value ?? 0)
            }
            if target.json {
                printJSON(.object([
                    ("artists", .array(artists.map(JSON.string))),
                    ("albums", .array(albums.map { .object([("title", .string($0.0)), ("artist", .string($0.1))]) })),
                    ("tracks", .array(tracks.map {
                        .object([("uri", .string($0.uri)), ("title", .string($0.title)), ("artist", .string($0.artist)),
                                 ("album", .string($0.album)), ("length", .number(Double($0.length) / 1e6))])
                    })),
                ]))
                return
            }
            guard !(artists.isEmpty && albums.isEmpty && tracks.isEmpty) else { return printLine("nothing found") }
            if !artists.isEmpty {
                printLine("Artists")
                artists.forEach { printLine("  \($0)") }
            }
            if !albums.isEmpty {
                printLine("Albums")
                albums.forEach { printLine("  \($0.0)" + ($0.1.isEmpty ? "" : " — \($0.1)")) }
            }
            if !tracks.isEmpty {
                printLine("Tracks")
                tracks.forEach { printLine("  \($0.title)" + ($0.artist.isEmpty ? "" : " — \($0.artist)") + ($0.album.isEmpty ? "" : " (\($0.album))")) }
            }
        }
    }
}

struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Show the music library's counts and scan (status), or look at its folders again (rescan).")
    @OptionGroup var target: TargetOptions
    @Argument(help: "status (the default) or rescan") var action: String = "status"

    func validate() throws {
        guard ["status", "rescan"].contains(action) else { throw ValidationError("'\(TerminalText.sanitized(action))' is not status or rescan") }
    }

    func run() throws {
        try runVerb {
            let client = try target.client()
            let interface = LibraryNames.interface
            if action == "rescan" { try client.call("Rescan", interface: interface) }
            func count(_ name: String) -> Int {
                if case .uint32(let value)? = try? client.get(name, interface: interface) { return Int(value) }
                return 0
            }
            let folders = try client.get("Folders", interface: interface).stringArray ?? []
            let scanning = (try? client.get("Scanning", interface: interface)) == .bool(true)
            if target.json {
                printJSON(.object([("folders", .array(folders.map(JSON.string))), ("tracks", .number(Double(count("Tracks")))),
                                   ("albums", .number(Double(count("Albums")))), ("artists", .number(Double(count("Artists")))),
                                   ("unavailable", .number(Double(count("Unavailable")))), ("scanning", .bool(scanning))]))
                return
            }
            printLine("\(count("Tracks")) tracks, \(count("Albums")) albums, \(count("Artists")) artists"
                      + (count("Unavailable") > 0 ? ", \(count("Unavailable")) on a disk that is not there" : "")
                      + (scanning ? " (scanning)" : ""))
            printLine("folders: " + folders.joined(separator: ", "))
        }
    }
}

import ArgumentParser
import Glibc
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// `--artist`, `--album`, `--genre`, `--playlist` or search words: what to take from the library.
struct LibrarySelection: ParsableArguments {
    @Option(help: "Play the library's tracks of this artist (or album artist); with --album, whose album.") var artist: String?
    @Option(help: "Play the library's album of this name (two artists' albums of one name: add --artist).") var album: String?
    @Option(help: "Play the library's tracks of this genre.") var genre: String?
    @Option(help: "Play the playlist of this name (as `reprise browse Playlists` lists them).") var playlist: String?
    @Argument(help: "Search words: play what the library finds (album, disc and track order).") var words: [String] = []

    var selector: (String, String)? {
        if let album { return ("album", album) } // narrowed by --artist when given: see resolved
        if let artist { return ("artist", artist) }
        if let genre { return ("genre", genre) }
        if let playlist { return ("playlist", playlist) }
        return words.isEmpty ? nil : ("search", words.joined(separator: " "))
    }

    func check() throws {
        // --artist may narrow --album; otherwise one selector.
        if [album == nil ? artist : nil, album, genre, playlist].compactMap({ $0 }).count + (words.isEmpty ? 0 : 1) > 1 {
            throw ValidationError("give one of --artist, --album (with --artist to pick whose), --genre, --playlist or search words")
        }
    }

    /// Replaces the queue with (or appends) the selection; how many tracks it had.
    func play(_ kind: String, _ value: String, enqueue: Bool, on client: ServiceClient) throws -> Int {
        try Self.play(kind, value, enqueue: enqueue, on: client, albumArtist: artist)
    }

    /// Plays (or appends) what `kind` and `value` name. An album is one album: its name, narrowed by `albumArtist`
    /// when given, must name exactly one (several: they are listed, status 2).
    static func play(_ kind: String, _ value: String, enqueue: Bool, on client: ServiceClient, albumArtist: String? = nil) throws -> Int {
        let isKey = LibraryAlbum.parse(key: value) != nil // already one album (artist and title), as the UI has it
        let value = kind == "album" && !isKey ? try album(named: value, by: albumArtist, on: client) : value
        return Int(try client.library.play(kind: kind, value: value, enqueue: enqueue))
    }

    /// The key of the one album called `title` (by `artist`, when given): several are listed, none is an error.
    static func album(named title: String, by artist: String?, on client: ServiceClient,
                      hint: String = "pick one with --artist") throws -> String {
        var albums = ReportedTrack.albums(try client.library.albums(title: title))
        if let artist { albums = albums.filter { ($0.artist ?? "").lowercased() == artist.lowercased() } }
        guard albums.count <= 1 else {
            for album in albums { printError("  \(album.title) — \(album.artist ?? "unknown artist")") }
            throw CLIError("'\(title)' names the \(albums.count) albums above; \(hint)", status: 2)
        }
        guard let album = albums.first else {
            throw CLIError("there is no album '\(title)'" + (artist.map { " by \($0)" } ?? "") + " in the library")
        }
        return album.key
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

    func run() throws { try runVerb { try Self.show(target.plain, words: words, limit: limit) } }

    /// Prints what the library has of `words`: one round trip (Library1.Search).
    static func show(_ target: Target, words: [String], limit: UInt32) throws {
        let client = try target.client()
        let found = try client.library.search(query: words.joined(separator: " "), limit: limit)
        let artists = found.artists, albums = ReportedTrack.albums(found.albums), tracks = ReportedTrack.list(found.tracks)
        if target.json {
            printJSON(.object([
                ("artists", .array(artists.map(JSON.string))),
                ("albums", .array(albums.map { .object([("title", .string($0.title)), ("artist", .string($0.artist ?? ""))]) })),
                ("tracks", .array(tracks.map(\.json))),
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
            albums.forEach { printLine("  \($0.title)" + ($0.artist.map { " — \($0)" } ?? "")) }
        }
        if !tracks.isEmpty {
            printLine("Tracks")
            tracks.forEach { printLine("  \($0.title)" + ($0.artist.isEmpty ? "" : " — \($0.artist)") + ($0.album.isEmpty ? "" : " (\($0.album))")) }
        }
    }
}

struct LibraryCommand: ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Show the music library's counts and scan (status), look at its folders again (rescan), or show how far the loudness of untagged tracks is measured (loudness [status]).")
    @OptionGroup var target: TargetOptions
    @Argument(help: "status (the default), rescan, or loudness [status]") var words: [String] = []

    var action: String { words.first ?? "status" }

    func validate() throws {
        guard ["status", "rescan", "loudness"].contains(action) else {
            throw ValidationError("'\(TerminalText.sanitized(action))' is not status, rescan or loudness")
        }
        guard words.count == 1 || (words.count == 2 && action == "loudness" && words[1] == "status") || words.isEmpty else {
            throw ValidationError("too many words: library status | rescan | loudness [status]")
        }
    }

    func run(with client: ServiceClient) throws {
        let library = client.library
        if action == "loudness" { return try showLoudness(library) }
        if action == "rescan" { try library.rescan() }
        let folders = try library.folders
        var scanning = (try? library.scanning) == true
        // On a terminal, a progress bar follows the pass to its end (Ctrl-C leaves it running).
        if scanning, !target.json, isatty(STDOUT_FILENO) == 1 {
            while scanning {
                // A service that quits or is killed meanwhile ends the bar with a message, not with empty counts.
                guard client.isRunning else {
                    writeToTerminal("\r\u{1B}[K")
                    throw CLIError(client.goneMessage)
                }
                let done = Int((try? library.scanned) ?? 0), total = Int((try? library.toScan) ?? 0), width = 30
                let filled = total > 0 ? min(width, done * width / total) : 0
                writeToTerminal("\r\u{1B}[K[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
                                + "] \(done) of \(total == 0 ? "?" : String(total)) files")
                usleep(200_000)
                scanning = (try? library.scanning) == true
            }
            writeToTerminal("\r\u{1B}[K")
            guard client.isRunning else { throw CLIError(client.goneMessage) }
        }
        // Every count in one call, once the pass (if followed) is over.
        let values = (try? library.allProperties()) ?? [:]
        func count(_ name: String) -> Int { values[name]?.int64Value.map(Int.init) ?? 0 }
        if target.json {
            printJSON(.object([("folders", .array(folders.map(JSON.string))), ("tracks", .number(Double(count("Tracks")))),
                               ("albums", .number(Double(count("Albums")))), ("artists", .number(Double(count("Artists")))),
                               ("unavailable", .number(Double(count("Unavailable")))), ("scanning", .bool(scanning)),
                               ("scanned", .number(Double(count("Scanned")))), ("toScan", .number(Double(count("ToScan"))))]))
            return
        }
        printLine("\(count("Tracks")) tracks, \(count("Albums")) albums, \(count("Artists")) artists"
                  + (count("Unavailable") > 0 ? ", \(count("Unavailable")) on a disk that is not there" : "")
                  + (scanning ? " (scanning: \(count("Scanned")) of \(count("ToScan")) files)" : ""))
        printLine("folders: " + folders.joined(separator: ", "))
    }

    /// `library loudness`: tracks without ReplayGain tags measured, waiting, and whether measuring runs now.
    private func showLoudness(_ library: Library1Proxy) throws {
        let values = try library.allProperties()
        let measured = values["LoudnessMeasured"]?.int64Value ?? 0, waiting = values["LoudnessWaiting"]?.int64Value ?? 0
        let measuring = values["Measuring"] == .bool(true)
        if target.json {
            return printJSON(.object([("measured", .number(Double(measured))), ("waiting", .number(Double(waiting))),
                                      ("measuring", .bool(measuring))]))
        }
        printLine("loudness of tracks without ReplayGain tags: \(measured) measured, \(waiting) waiting"
                  + (measuring ? " (measuring)" : ""))
    }
}

/// A library track as Library1 reports it.
struct ReportedTrack {
    var uri: String, title: String, artist: String, album: String, length: Int64

    /// Library1's tracks: URI, title, artist, album, length in microseconds.
    static func list(_ entries: [LibraryTrackEntry]) -> [ReportedTrack] {
        entries.map { ReportedTrack(uri: $0.uri, title: $0.title, artist: $0.artist, album: $0.album, length: $0.length) }
    }

    /// Library1's albums: title and who it is by (empty: unknown).
    static func albums(_ entries: [LibraryAlbumEntry]) -> [LibraryAlbum] {
        entries.map { LibraryAlbum(title: $0.title, artist: $0.artist.isEmpty ? nil : $0.artist) }
    }

    var json: JSON {
        .object([("uri", .string(uri)), ("title", .string(title)), ("artist", .string(artist)), ("album", .string(album)),
                 ("length", .number(Double(length) / 1e6))])
    }
}

struct Browse: ClientVerb {
    static let configuration = CommandConfiguration(
        abstract: "Browse the music library: Artists/NAME/ALBUM, Albums/NAME, Genres/NAME, Folders/PATH, Playlists/NAME (no path: the top).")
    @OptionGroup var target: TargetOptions
    @Argument(help: "Where to look, e.g. Artists/Björk or Albums/Début.") var path: String = ""

    func run(with client: ServiceClient) throws {
        let node = try BrowseNode.list(path, client: client)
        if target.json {
            printJSON(.object([("path", .string(path)), ("containers", .array(node.containers.map(JSON.string))),
                               ("tracks", .array(node.tracks.map(\.json)))]))
            return
        }
        node.containers.forEach { printLine("\($0)/") }
        node.tracks.forEach { printLine("\($0.title)" + ($0.artist.isEmpty ? "" : " — \($0.artist)") + "  \(clock($0.length))") }
        if node.containers.isEmpty && node.tracks.isEmpty { printLine("(empty)") }
    }
}

/// One level of the browse tree: Artists → Albums → Tracks, Albums → Tracks, Genres → Tracks, Folders → folders
/// and tracks, Playlists → entries.
struct BrowseNode {
    var containers: [String] = []
    var tracks: [ReportedTrack] = []

    static let top = ["Artists", "Albums", "Genres", "Folders", "Playlists"]

    static func list(_ path: String, client: ServiceClient) throws -> BrowseNode {
        let library = client.library
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let top = parts.first else { return BrowseNode(containers: top) }
        parts.removeFirst()
        func names(_ kind: String) throws -> [String] { try library.names(kind: kind) }
        func tracks(_ kind: String, _ value: String) throws -> [ReportedTrack] {
            ReportedTrack.list(try library.tracks(kind: kind, value: value))
        }
        switch (top.lowercased(), parts.count) {
        case ("artists", 0): return BrowseNode(containers: try names("artists"))
        case ("artists", 1):
            var albums: [String] = []
            for track in try tracks("artist", parts[0]) where !track.album.isEmpty && !albums.contains(track.album) { albums.append(track.album) }
            return BrowseNode(containers: albums)
        case ("artists", 2):
            return BrowseNode(tracks: try tracks("artist", parts[0]).filter { $0.album.lowercased() == parts[1].lowercased() })
        case ("albums", 0): return BrowseNode(containers: try names("albums"))
        case ("albums", 1): // one album: two artists' albums of one name are browsed under Artists
            let album = try LibrarySelection.album(named: parts[0], by: nil, on: client, hint: "browse Artists/ARTIST/\(parts[0]) for one")
            return BrowseNode(tracks: try tracks("album", album))
        case ("genres", 0): return BrowseNode(containers: try names("genres"))
        case ("genres", 1): return BrowseNode(tracks: try tracks("genre", parts[0]))
        case ("playlists", 0): return BrowseNode(containers: try names("playlists"))
        case ("playlists", _):
            // A playlist's name may hold slashes: all the rest of the path is the name.
            return BrowseNode(tracks: try tracks("playlist", parts.joined(separator: "/")))
        case ("folders", 0):
            return BrowseNode(containers: try library.folders)
        case ("folders", _):
            let folder = "/" + parts.joined(separator: "/")
            var node = BrowseNode()
            for track in try tracks("folder", folder) {
                let path = MediaURI(track.uri)?.path ?? ""
                guard path.hasPrefix(folder + "/") else { continue }
                let rest = path.dropFirst(folder.count + 1)
                if let slash = rest.firstIndex(of: "/") {
                    let name = String(rest[..<slash])
                    if !node.containers.contains(name) { node.containers.append(name) }
                } else {
                    node.tracks.append(track)
                }
            }
            node.containers = LibraryOutline.sorted(node.containers) // by name, as the MediaServer2 tree lists them
            return node
        default:
            throw CLIError("no '\(path)' in the library (try Artists, Albums, Genres, Folders or Playlists)", status: 2)
        }
    }
}

/// Writes `text` (made here of numbers and bar characters, nothing from outside) to the terminal at once.
private func writeToTerminal(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

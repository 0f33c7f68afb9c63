import RepriseCore
import SDBus

/// What desktop searches show and play: a library artist, album or track, by an id the shells hand back. An id
/// names the library's rows only: an artist, an album by its artist and title (``LibraryAlbum/key``), a track by
/// its indexed path; activating one plays what the index holds for it now, and a forged id (a path the index does
/// not hold) plays nothing.
struct SearchResult: Sendable, Equatable {
    enum Kind: String { case artist, album, track }
    let kind: Kind
    /// The artist's name, the album's key (artist and title), or the track's path.
    let value: String
    let name: String
    let description: String
    /// A picture file (the album's cover) or an icon name.
    let icon: String

    /// "kind␟value": a unit separator nobody types.
    var id: String { kind.rawValue + "\u{1F}" + value }

    static func parse(_ id: String) -> (Kind, String)? {
        guard let separator = id.firstIndex(of: "\u{1F}"), let kind = Kind(rawValue: String(id[..<separator])) else { return nil }
        let value = String(id[id.index(after: separator)...])
        return value.isEmpty || value.utf8.count > 4096 ? nil : (kind, value)
    }

    /// The results of a library search, best first: artists, albums, then tracks (at most `limit`).
    static func from(_ results: LibraryResults, limit: Int) -> [SearchResult] {
        let artists = results.artists.map {
            SearchResult(kind: .artist, value: $0, name: $0, description: "Artist", icon: "avatar-default")
        }
        let albums = results.albums.map {
            SearchResult(kind: .album, value: $0.key, name: $0.title, description: "Album" + ($0.artist.map { " by \($0)" } ?? ""),
                         icon: $0.cover ?? "media-optical")
        }
        let tracks = results.tracks.map {
            SearchResult(kind: .track, value: $0.path, name: $0.displayTitle,
                         description: [$0.artist, $0.album].compactMap { $0 }.joined(separator: " — "), icon: $0.cover ?? "audio-x-generic")
        }
        return Array((artists + albums + tracks).prefix(limit))
    }
}

/// Searches for the desktop shells and remembers what it showed them (they ask for the details of ids they got).
final class DesktopSearch {
    private let library: LibraryAccess
    private let player: Player
    private let log: Log
    private var shown: [String: SearchResult] = [:]
    var onUserAction: ((PolicyEvent) -> Void)?
    static let limit = 20

    init(library: LibraryAccess, player: Player, log: Log) {
        self.library = library
        self.player = player
        self.log = log
    }

    func search(_ terms: [String], then: @escaping ([SearchResult]) -> Void) {
        let query = LibraryQuery(terms.prefix(16).joined(separator: " "))
        guard !query.isEmpty, query.words.joined().count >= 2 else { return then([]) }
        library.search(query, limit: 60) { [weak self] results in
            let found = SearchResult.from(results, limit: Self.limit)
            guard let self else { return then(found) }
            if shown.count > 2000 { shown.removeAll() }
            for result in found { shown[result.id] = result }
            then(found)
        }
    }

    func shownResult(_ id: String) -> SearchResult? { shown[id] }

    /// Plays what `id` names: an artist's or album's tracks, or one track, replacing the queue.
    func activate(_ id: String, then: @escaping (DBusError?) -> Void) {
        guard let (kind, value) = SearchResult.parse(id) else { return then(.invalidArgs("no such result")) }
        log.info("desktop search: playing \(kind.rawValue) \(value)")
        onUserAction?(.userChangedTrack)
        let play: ([String]) -> Void = { [player] uris in
            guard !uris.isEmpty else { return then(.invalidArgs("nothing in the library is that \(kind.rawValue) now")) }
            player.replaceQueue(validating: uris) { error in
                if let error { return then(error.dbusError) }
                player.play()
                then(nil)
            }
        }
        let selector: LibrarySelector
        switch kind {
        case .track: selector = .track(path: value)
        case .artist: selector = .artist(value)
        case .album:
            guard let album = LibraryAlbum.parse(key: value) else { return then(.invalidArgs("no such result")) }
            selector = .albumBy(title: album.title, artist: album.artist)
        }
        library.tracks(selector) { play($0.map { MediaURI.file(path: $0.path) }) }
    }
}

/// org.gnome.Shell.SearchProvider2: GNOME's overview searches the library as the user types.
final class GnomeSearchProvider: MethodsOnlyInterface {
    static let description = InterfaceDescription(
        name: "org.gnome.Shell.SearchProvider2",
        methods: [
            .init("GetInitialResultSet", in: "as", ["terms"], out: "as", ["results"]),
            .init("GetSubsearchResultSet", in: "asas", ["previous_results", "terms"], out: "as", ["results"]),
            .init("GetResultMetas", in: "as", ["identifiers"], out: "aa{sv}", ["metas"]),
            .init("ActivateResult", in: "sasu", ["identifier", "terms", "timestamp"]),
            .init("LaunchSearch", in: "asu", ["terms", "timestamp"]),
        ],
        properties: [])
    static let objectPath = "/app/reprise/SearchProvider"

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let arguments = call.arguments
        switch call.member {
        case "GetInitialResultSet", "GetSubsearchResultSet":
            guard let terms = arguments.last?.stringArray, arguments.count == (call.member == "GetInitialResultSet" ? 1 : 2) else {
                throw .invalidArgs("bad arguments for \(call.member)")
            }
            search.search(terms) { call.reply([.strings($0.map(\.id))]) }
            return .deferred
        case "GetResultMetas":
            guard let ids = arguments.first?.stringArray else { throw .invalidArgs("GetResultMetas takes (as)") }
            let metas: [DBusValue] = ids.prefix(100).compactMap { id in
                guard let result = search.shownResult(id) else { return nil }
                return .vardict([("id", .string(id)), ("name", .string(result.name)), ("description", .string(result.description)),
                                 ("gicon", .string(result.icon))])
            }
            return .reply([.array(elementSignature: "a{sv}", metas)])
        case "ActivateResult":
            guard let id = arguments.first?.stringValue, arguments.count == 3 else { throw .invalidArgs("ActivateResult takes (sasu)") }
            search.activate(id) { error in if let error { call.fail(error) } else { call.reply([]) } }
            return .deferred
        case "LaunchSearch":
            // The shell's "show more": Reprise has no window to open for a search; nothing happens.
            return .reply([])
        default:
            throw DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member)")
        }
    }
}

/// org.kde.krunner1: KRunner (and Plasma's search) finds the library's music as the user types.
final class KRunnerProvider: MethodsOnlyInterface {
    static let description = InterfaceDescription(
        name: "org.kde.krunner1",
        methods: [
            .init("Actions", out: "a(sss)", ["matches"]),
            .init("Match", in: "s", ["query"], out: "a(sssida{sv})", ["matches"]),
            .init("Run", in: "ss", ["matchId", "actionId"]),
            .init("Teardown"),
        ],
        properties: [])
    static let objectPath = "/app/reprise/KRunner"

    private let search: DesktopSearch
    init(search: DesktopSearch) { self.search = search }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let arguments = call.arguments
        switch (call.member, arguments.first) {
        case ("Actions", nil):
            return .reply([.array(elementSignature: "(sss)", [])])
        case ("Match", .string(let query)?):
            search.search([query]) { results in
                let count = Double(max(1, results.count))
                let matches: [DBusValue] = results.enumerated().map { index, result in
                    let exact = result.name.lowercased() == query.lowercased()
                    return .structure([.string(result.id), .string(result.name), .string(result.icon.hasPrefix("/") ? "reprise" : result.icon),
                                       .int32(exact ? 100 : 30), .double(1 - Double(index) / count * 0.5),
                                       .vardict([("subtext", .string(result.description))])])
                }
                call.reply([.array(elementSignature: "(sssida{sv})", matches)])
            }
            return .deferred
        case ("Teardown", nil):
            // KRunner closed its session. What it was shown stays (GNOME Shell may be showing the same ids).
            return .reply([])
        case ("Run", .string(let id)?):
            guard arguments.count == 2 else { throw .invalidArgs("Run takes (ss)") }
            search.activate(id) { error in if let error { call.fail(error) } else { call.reply([]) } }
            return .deferred
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
    }
}

import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// The terminal view's library browser: the playlists first; typing filters (playlists by name and a library
/// search as you type), ↓ or Enter goes to the list, Enter plays the chosen playlist, album or track (the current
/// item keeps playing until then), `a` adds it to the queue; any other letter goes back to the filter. Esc or Tab
/// leaves.
struct BrowseView {
    enum Entry: Equatable {
        case playlist(String)
        case album(title: String, artist: String)
        case track(ReportedTrackEntry)
    }
    struct ReportedTrackEntry: Equatable {
        var uri: String, title: String, artist: String
    }

    var filter = ""
    var entries: [Entry] = []
    var selection = 0
    /// Keys go to the list (Enter plays, a adds) rather than to the filter.
    var inList = false
    var message = ""
    /// The playlists' names, read when the view opens.
    var playlists: [String] = []

    /// Opens on the playlists.
    init(client: ServiceClient) {
        playlists = (try? client.library.names(kind: "playlists")) ?? []
        entries = playlists.map(Entry.playlist)
    }

    enum Outcome { case stay, leave }

    mutating func handle(_ key: Key, client: ServiceClient) -> Outcome {
        message = ""
        switch key {
        case .escape, .tab: return .leave
        case .up:
            if selection == 0 { inList = false } else { selection -= 1 }
        case .down:
            if inList { selection = min(max(0, entries.count - 1), selection + 1) } else if !entries.isEmpty { inList = true }
        case .enter:
            if inList { act(enqueue: false, client: client) } else if !entries.isEmpty { inList = true }
        case .character("a") where inList:
            act(enqueue: true, client: client)
        case .character("\u{7F}"), .character("\u{08}"):
            inList = false
            if !filter.isEmpty { filter.removeLast() }
            search(client)
        case .character(let character) where character.isLetter || character.isNumber || character == " " || character == "-":
            inList = false
            if filter.count < 64 { filter.append(character) }
            search(client)
        default: break
        }
        return .stay
    }

    private mutating func search(_ client: ServiceClient) {
        selection = 0
        let query = LibraryQuery(filter)
        guard !query.isEmpty else { return entries = playlists.map(Entry.playlist) }
        let matchingPlaylists = playlists.filter(query.matches).map(Entry.playlist)
        do {
            let found = try client.library.search(query: filter, limit: 100)
            entries = matchingPlaylists + found.albums.map { .album(title: $0.title, artist: $0.artist) } + ReportedTrack.list(found.tracks).map { .track(ReportedTrackEntry(uri: $0.uri, title: $0.title, artist: $0.artist)) }
        } catch {
            entries = []
            message = "\(error)"
        }
    }

    private mutating func act(enqueue: Bool, client: ServiceClient) {
        guard entries.indices.contains(selection) else { return }
        do {
            switch entries[selection] {
            case .playlist(let name):
                _ = try LibrarySelection.play("playlist", name, enqueue: enqueue, on: client)
                message = enqueue ? "added \(name)" : "playing \(name)"
            case .album(let title, let artist): // this artist's album: another's of the same title is not played
                _ = try LibrarySelection.play("album", LibraryAlbum.key(title: title, artist: artist.isEmpty ? nil : artist),
                                              enqueue: enqueue, on: client)
                message = enqueue ? "added \(title)" : "playing \(title)"
            case .track(let track):
                try client.controls.openMedia(uris: [track.uri], enqueue: enqueue)
                if !enqueue { try client.player.play() }
                message = enqueue ? "added \(track.title)" : "playing \(track.title)"
            }
        } catch {
            message = "\(error)"
        }
    }

    func lines(rows: Int) -> [String] {
        var lines = [" Library — playlists; type to search", "", "   Search: \(filter)\(inList ? "" : "▏")", ""]
        let visible = max(1, rows - 8)
        let start = max(0, min(selection - visible / 2, entries.count - visible))
        for (index, entry) in entries.enumerated().dropFirst(start).prefix(visible) {
            let mark = inList && index == selection ? " ▶ " : "   "
            switch entry {
            case .playlist(let name): lines.append(mark + "≡ \(name)")
            case .album(let title, let artist): lines.append(mark + "▸ \(title)" + (artist.isEmpty ? "" : " — \(artist)"))
            case .track(let track): lines.append(mark + "  \(track.title)" + (track.artist.isEmpty ? "" : " — \(track.artist)"))
            }
        }
        if entries.isEmpty && !filter.isEmpty { lines.append("   nothing found") }
        if !message.isEmpty { lines += ["", "   " + message] }
        return lines
    }

    static let hint = "type to search  ↓/Enter list  Enter play  a add  Esc/Tab playback"
}

import RepriseCore
import Synchronization

/// The library as MPD clients walk it, built once where the index is read and kept until the library changes: every
/// available track the index could read (a file it found no length and no tags in — one that only looks like audio —
/// is left out, as MPD leaves out what its decoders cannot read) with its MPD name, sorted by name, kept compactly
/// (``MPDSongTable``); `stats`' counts; the whole tree in MPD's order (each folder, then what is in
/// it); and the replies of `list` without a filter, which clients ask again and again (M.A.L.P.'s album list).
/// Immutable but for that memo, which a lock guards; read only where the index is read, off the loop.
public final class MPDLibrarySnapshot: Sendable {
    public let songs: MPDSongTable
    /// Folders and songs, depth first, as `listall` of the root lists them.
    let tree: [TreeItem]
    /// Each song's place (by its position in ``songs``) in ``tree``'s order.
    let treeRank: [Int32]
    /// The folders' names, by a folder's position in ``tree``'s items.
    private let folderNames: MPDTextBuffer
    /// When each folder last changed (seconds since 1970), by its name; a folder not there: unknown.
    private let folderTimes: [String: Int64]
    /// `stats`: distinct artists and albums (the Artist and Album tags' values, as MPD counts them) and the songs'
    /// total length in seconds.
    let artistCount: Int
    let albumCount: Int
    let totalSeconds: Int64
    private let memo = Mutex<[String: [[String]]]>([:])

    /// A folder (its name's position in ``folderNames``) or a song (its position in ``songs``).
    enum TreeItem: Sendable {
        case folder(Int)
        case song(Int)
    }

    /// - Parameter folderModifiedSeconds: when the folder at a path last changed (each of the library's folders is asked).
    init(_ tracks: [LibraryTrack], writer: MPDSongWriter, folderModifiedSeconds: (@Sendable (String) -> Int64?)? = nil) {
        let songs = tracks.lazy.filter { $0.available && Self.wasRead($0) }.map { track in
            (name: writer.name(ofPath: track.path), track: track)
        }.sorted { $0.name < $1.name }
        artistCount = Set(songs.compactMap(\.track.artist)).count
        albumCount = Set(songs.compactMap(\.track.album)).count
        totalSeconds = songs.reduce(Int64(0)) { MPDCommandContext.adding($0, $1.track.lengthMicroseconds) } / 1_000_000
        var folders = Set<String>()
        for (name, _) in songs {
            var slash = name.lastIndex(of: "/")
            while let end = slash {
                let folder = String(name[..<end])
                guard folders.insert(folder).inserted else { break }
                slash = folder.lastIndex(of: "/")
            }
        }
        var times: [String: Int64] = [:]
        if let folderModifiedSeconds {
            for folder in folders { times[folder] = folderModifiedSeconds(folder.hasPrefix("/") ? folder : writer.folderPrefix + folder) }
        }
        folderTimes = times
        // Each name split once, not at every comparison.
        var names = MPDTextBuffer()
        var items = folders.map { (parts: $0.split(separator: "/"), item: TreeItem.folder(names.append($0))) }
        items += songs.indices.map { (parts: songs[$0].name.split(separator: "/"), item: TreeItem.song($0)) }
        let keys = songs.map(SongKey.init)
        items.sort { a, b in Self.treeOrder(a.parts, a.item, b.parts, b.item) { keys[$0] < keys[$1] } }
        tree = items.map(\.item)
        var rank = [Int32](repeating: 0, count: songs.count), order: [Int32] = []
        order.reserveCapacity(songs.count)
        for case .song(let position) in tree {
            rank[position] = Int32(truncatingIfNeeded: order.count)
            order.append(Int32(truncatingIfNeeded: position))
        }
        treeRank = rank
        names.shrink()
        folderNames = names
        // Kept for as long as the library does not change: only what MPD serves, compactly.
        self.songs = MPDSongTable(songs, folderPrefix: writer.folderPrefix, order: order)
    }

    /// The paths of the songs `name` names — that song, or every song in that folder and below it (`""`: all) — in
    /// MPD's tree order (``treeRank``). (The names are sorted, so a folder's songs are one run of them.)
    func paths(under name: String) -> [FilePath] {
        if name.isEmpty { return tree.compactMap { if case .song(let position) = $0 { songs.path(at: position) } else { nil } } }
        var low = 0, high = songs.count
        while low < high {
            let middle = (low + high) / 2
            if songs.name(at: middle) < name { low = middle + 1 } else { high = middle }
        }
        if low < songs.count, songs.name(at: low) == name { return [songs.path(at: low)] }
        let prefix = name + "/"
        var inFolder: [Int] = []
        var index = low
        while index < songs.count, songs.name(at: index) < prefix { index += 1 }
        while index < songs.count, songs.name(at: index).hasPrefix(prefix) {
            inFolder.append(index)
            index += 1
        }
        inFolder.sort { treeRank[$0] < treeRank[$1] }
        return inFolder.map { songs.path(at: $0) }
    }

    /// A tree item's name: the folder's, or the song's.
    func name(of item: TreeItem) -> String {
        switch item {
        case .folder(let position): folderNames[position]
        case .song(let position): songs.name(at: position)
        }
    }

    /// Writes a folder as MPD's full listings do: its name, and when it last changed.
    func writeFolder(_ name: String, into reply: inout MPDResponse) {
        reply.add("directory", name)
        if let modified = folderTimes[name] { reply.add("Last-Modified", timeSince1970: modified) }
    }

    /// Whether the index read anything of `track`: a length or a tag.
    static func wasRead(_ track: LibraryTrack) -> Bool {
        track.lengthMicroseconds != nil || track.title != nil || track.artist != nil || track.album != nil
    }

    /// MPD's tree order, as its database walks a folder: its songs first (two of them as `songsInOrder` says, by
    /// their positions), then each subfolder by name followed by what is in it.
    static func treeOrder(_ a: [Substring], _ aItem: TreeItem, _ b: [Substring], _ bItem: TreeItem,
                          songsInOrder: (Int, Int) -> Bool) -> Bool {
        for index in 0..<min(a.count, b.count) where a[index] != b[index] {
            // At the first difference: a song of this folder comes before a folder (or an item inside one).
            let aFolderHere = index < a.count - 1 || aItem.isFolder, bFolderHere = index < b.count - 1 || bItem.isFolder
            if aFolderHere != bFolderHere { return bFolderHere }
            if !aFolderHere, case .song(let first) = aItem, case .song(let second) = bItem { return songsInOrder(first, second) }
            return a[index] < b[index]
        }
        return a.count < b.count
    }

    /// What orders a folder's songs as MPD's database sorts them: album (none first), disc, then track (none or
    /// not above zero first), then name.
    struct SongKey: Comparable {
        let album: String?, disc: Int, track: Int, name: String

        init(_ song: (name: String, track: LibraryTrack)) {
            album = song.track.album
            disc = max(song.track.disc ?? 0, 0)
            track = max(song.track.track ?? 0, 0)
            name = song.name
        }

        static func < (a: SongKey, b: SongKey) -> Bool {
            if a.album != b.album { return a.album.map { first in b.album.map { first < $0 } ?? false } ?? true }
            return (a.disc, a.track, a.name) < (b.disc, b.track, b.name)
        }
    }

    /// The rows `key` names, computed by `make` the first time.
    func memoized(_ key: String, _ make: () -> [[String]]) -> [[String]] {
        if let known = memo.withLock({ $0[key] }) { return known }
        let made = make()
        memo.withLock { memo in
            if memo.count >= 64 { memo.removeAll() }
            memo[key] = made
        }
        return made
    }
}

extension MPDLibrarySnapshot.TreeItem {
    var isFolder: Bool { if case .folder = self { true } else { false } }
}

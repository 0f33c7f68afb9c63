/// One playlist file offered through MPRIS Playlists.
public struct PlaylistInfo: Sendable, Equatable {
    /// Stable across restarts: derived from the path.
    public let id: String
    public let path: String
    /// The title the file gives itself, else its file name without the extension.
    public let name: String
    public let modified: Int64
    public let format: PlaylistFormat
    /// How many entries the file held when last read.
    public var entryCount = 0
}

/// MPRIS playlist orderings Reprise can sort by.
public enum PlaylistOrdering: String, Sendable, CaseIterable {
    case alphabetical = "Alphabetical"
    case modifiedDate = "ModifiedDate"
}

/// The playlist files in a few directories (MPRIS Playlists): found again whenever a directory changes,
/// listed in the orderings clients ask for, and which one was activated last. What a look finds is published into
/// the feed as ``ChangeAspects/storedPlaylists``, whoever looked (a client listing them, the MPD server after
/// writing one, the periodic look).
public final class PlaylistLibrary {
    public let directories: [String]
    private let fileSystem: FileSystem
    private let feed: ChangeFeed?
    public private(set) var playlists: [PlaylistInfo] = []
    /// The playlist activated last, while it still exists.
    public private(set) var active: PlaylistInfo?
    /// Modification times of the directories and playlist files when last scanned.
    private var scannedTimes: [String: Int64?] = [:]
    private var scannedOnce = false

    public init(directories: [String], fileSystem: FileSystem, feed: ChangeFeed? = nil) {
        self.directories = directories
        self.fileSystem = fileSystem
        self.feed = feed
    }

    /// What a refresh found: whether the set of playlists changed, and playlists that kept their id but got a new name.
    public struct Changes: Equatable, Sendable {
        public var listChanged = false
        public var renamed: [PlaylistInfo] = []
        /// Playlists that kept their id but whose file was written again.
        public var edited: [PlaylistInfo] = []

        public init() {}

        public var isEmpty: Bool { !listChanged && renamed.isEmpty && edited.isEmpty }
    }

    /// Scans again when a directory or a playlist file was modified (or on the first call): a few `stat` calls.
    @discardableResult
    public func refresh() -> Changes {
        guard !scannedOnce || currentTimes() != scannedTimes else { return Changes() }
        return rescan()
    }

    /// Scans now, whatever the modification times say. The first scan is published to nobody: every reader looks
    /// first, so no one has seen a list it could change (an MPD client idling from the start is not woken by it).
    @discardableResult
    public func rescan() -> Changes {
        let first = !scannedOnce
        scannedOnce = true
        let changes = replace(with: scan(), publishing: !first)
        scannedTimes = currentTimes()
        return changes
    }

    private func currentTimes() -> [String: Int64?] {
        Dictionary((directories + playlists.map(\.path)).map { ($0, fileSystem.modificationTime(of: $0)) },
                   uniquingKeysWith: { first, _ in first })
    }

    private func replace(with found: [PlaylistInfo], publishing: Bool) -> Changes {
        var changes = Changes()
        let old = Dictionary(playlists.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        changes.listChanged = found.map(\.id) != playlists.map(\.id)
        changes.renamed = found.filter { playlist in old[playlist.id].map { $0.name != playlist.name } ?? false }
        changes.edited = found.filter { playlist in
            old[playlist.id].map { $0.modified != playlist.modified || $0.entryCount != playlist.entryCount } ?? false
        }
        playlists = found
        if let active { self.active = found.first { $0.id == active.id } }
        if publishing, !changes.isEmpty { feed?.publish(Change(.storedPlaylists, playlists: changes)) }
        return changes
    }

    private func scan() -> [PlaylistInfo] {
        var found: [PlaylistInfo] = []
        var seen: Set<String> = []
        for directory in directories {
            for name in fileSystem.entries(of: directory) ?? [] where !name.hasPrefix(".") {
                guard let format = PlaylistFormat(fileName: name) else { continue }
                let path = directory + "/" + name
                guard fileSystem.kind(of: path) == .regularFile, seen.insert(path).inserted else { continue }
                let file = try? MediaLocation.readPlaylist(at: path, format: format, in: fileSystem)
                let title = file?.title
                let fileName = String(name[..<(name.lastIndex(of: ".") ?? name.endIndex)])
                found.append(PlaylistInfo(id: Self.id(forPath: path), path: path,
                                          name: (title?.isEmpty == false ? title : nil) ?? fileName,
                                          modified: fileSystem.modificationTime(of: path) ?? 0, format: format,
                                          entryCount: file?.uris.count ?? 0))
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// `maxCount` playlists from `index` in `ordering` (reversed when asked), as MPRIS GetPlaylists.
    public func list(from index: Int, maxCount: Int, ordering: PlaylistOrdering, reversed: Bool) -> [PlaylistInfo] {
        var ordered: [PlaylistInfo]
        switch ordering {
        case .alphabetical:
            ordered = Self.sortedByName(playlists)
        case .modifiedDate:
            ordered = playlists.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
        }
        if reversed { ordered.reverse() }
        guard index >= 0, index < ordered.count, maxCount > 0 else { return [] }
        return Array(ordered[index..<min(ordered.count, index + min(maxCount, ordered.count))])
    }

    public func playlist(withID id: String) -> PlaylistInfo? { playlists.first { $0.id == id } }

    /// The playlist a person means by `name`: its exact name, else the name in any case, else its id.
    public func playlist(named name: String) -> PlaylistInfo? {
        playlists.first { $0.name == name } ?? playlists.first { $0.name.lowercased() == name.lowercased() } ?? playlist(withID: name)
    }

    /// The playlists in name order, as people read them.
    /// `playlists` in name order, as people read names.
    public static func sortedByName(_ playlists: [PlaylistInfo]) -> [PlaylistInfo] {
        playlists.map { (info: $0, key: NaturalSortKey($0.name)) }.sorted { $0.key < $1.key }.map(\.info)
    }

    public var byName: [PlaylistInfo] { list(from: 0, maxCount: playlists.count, ordering: .alphabetical, reversed: false) }

    public func markActive(_ playlist: PlaylistInfo?) { active = playlist }

    /// A stable identifier for `path`: 64-bit FNV-1a of its bytes in hex.
    static func id(forPath path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// `XDG_MUSIC_DIR` from `~/.config/user-dirs.dirs` (lines like `XDG_MUSIC_DIR="$HOME/Music"`).
public enum UserDirectories {
    public static func musicDirectory(userDirs text: String?, home: String) -> String {
        for line in (text ?? "").split(whereSeparator: \.isNewline) {
            let line = line.trimmingWhitespace()
            guard line.hasPrefix("XDG_MUSIC_DIR="), let open = line.firstIndex(of: "\""),
                  let close = line.lastIndex(of: "\""), open < close else { continue }
            let value = String(line[line.index(after: open)..<close])
            if value.hasPrefix("$HOME") { return home + value.dropFirst("$HOME".count) }
            if value.hasPrefix("/") { return value }
        }
        return home + "/Music"
    }
}

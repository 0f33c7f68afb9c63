import Glibc
import LoopKit
import MPDProtocol
import PosixFiles
import RepriseInterfaces
import RepriseCore

/// MPD's stored playlists over Reprise's playlist folders (those MPRIS Playlists lists): a playlist is named by its
/// file's name without the extension. Files are read with the playlist reader and written as M3U8 — an existing
/// M3U file in place, a new playlist in Reprise's own folder — each on a worker, durably; after a write the folders
/// are looked at again as the periodic look does (MPRIS Playlists' signals, MPD's `stored_playlist`).
final class MPDPlaylistFolder: MPDPlaylistFiles {
    private let library: PlaylistLibrary
    private let fileSystem: FileSystem
    /// Nil when no worker thread could be made: nothing is read or written then.
    private let work: BackgroundWork?
    /// Where a new playlist is written.
    private let newPlaylists: String

    init(library: PlaylistLibrary, fileSystem: FileSystem, work: BackgroundWork?, newPlaylists: String) {
        self.library = library
        self.fileSystem = fileSystem
        self.work = work
        self.newPlaylists = newPlaylists
    }

    func list() -> [(name: String, modified: Int64, isWritable: Bool)] {
        lookAgain() // a few stat calls when nothing changed: the folders as they are now, from the first call on
        var seen: Set<String> = []
        return library.playlists.compactMap { playlist in
            let name = Self.name(of: playlist.path)
            return seen.insert(name).inserted ? (name, playlist.modified / 1_000_000_000, Self.isWritable(playlist)) : nil
        }
    }

    /// Whether Reprise writes (and so may change, remove or rename) this playlist's file: M3U only.
    private static func isWritable(_ playlist: PlaylistInfo) -> Bool { [.m3u, .m3u8].contains(playlist.format) }

    private static func refusal(_ playlist: PlaylistInfo) -> String {
        "\(name(of: playlist.path)) is a \(playlist.format.rawValue.uppercased()) file: only M3U playlists are changed"
    }

    func read(_ name: String, then: @escaping ([String]?) -> Void) {
        guard let playlist = playlist(named: name), let work else { return then(nil) }
        let fileSystem = fileSystem
        work.run({ try? MediaLocation.readPlaylist(at: playlist.path, format: playlist.format, in: fileSystem).uris }, then: then)
    }

    func write(_ uris: [String], as name: String, then: @escaping (String?) -> Void) {
        let existing = playlist(named: name)
        if let existing, !Self.isWritable(existing) { return then(Self.refusal(existing)) }
        guard let text = Self.m3u(uris) else { return then("an entry's name has a line break, which M3U cannot hold") }
        guard let work else { return then(Self.noWorker) }
        let folder = newPlaylists, path = existing?.path ?? newPlaylists + "/" + name + ".m3u8"
        work.run({ () -> String? in
            if existing == nil, !DurableFile.makePrivateDirectories(folder, ownComponents: 1) { return "cannot make \(folder)" }
            var text = text
            return text.withUTF8 { DurableFile.write(UnsafeRawBufferPointer($0), to: path) } ? nil : "cannot write \(path)"
        }) { [self] error in
            lookAgain()
            then(error)
        }
    }

    func remove(_ name: String, then: @escaping (String?) -> Void) {
        guard let playlist = playlist(named: name) else { return then("No such playlist") }
        guard Self.isWritable(playlist) else { return then(Self.refusal(playlist)) }
        guard let work else { return then(Self.noWorker) }
        work.run({ unlink(playlist.path) == 0 ? nil : "cannot remove \(playlist.path): \(String(cString: strerror(errno)))" }) { [self] error in
            lookAgain()
            then(error)
        }
    }

    func rename(_ name: String, to newName: String, then: @escaping (String?) -> Void) {
        guard let playlist = playlist(named: name) else { return then("No such playlist") }
        guard Self.isWritable(playlist) else { return then(Self.refusal(playlist)) }
        guard !newName.utf8.contains(0), !newName.contains("/") else { return then("Bad playlist name") }
        guard let work else { return then(Self.noWorker) }
        let path = playlist.path, folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let target = folder + "/" + newName + "." + playlist.format.rawValue
        work.run({ () -> String? in
            // No rename over an existing file (renameat2's RENAME_NOREPLACE needs a kernel and a file system that
            // have it; link then unlink is the portable form).
            guard link(path, target) == 0 else { return "cannot rename \(path): \(String(cString: strerror(errno)))" }
            unlink(path)
            return nil
        }) { [self] error in
            lookAgain()
            then(error)
        }
    }

    /// The playlist called `name`; when none is known, the folders are looked at again first (one made since the
    /// last look — or before the first periodic look after start — is found, as MPD reads its folder when asked).
    private func playlist(named name: String) -> PlaylistInfo? {
        if let known = library.playlists.first(where: { Self.name(of: $0.path) == name }) { return known }
        lookAgain()
        return library.playlists.first { Self.name(of: $0.path) == name }
    }

    /// Looks at the folders again; what changed reaches every client through the feed.
    private func lookAgain() { library.refresh() }

    private static let noWorker = "no thread to write playlists with"

    /// MPD's name for a playlist file: its name without the directory and the extension.
    static func name(of path: String) -> String {
        let file = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
    }

    /// An M3U8 playlist of `uris` (local files as their paths), or nil when one cannot be written as a line.
    static func m3u(_ uris: [String]) -> String? {
        var text = "#EXTM3U\n"
        for uri in uris {
            let line = MediaURI(uri).flatMap { $0.scheme == "file" ? $0.path : nil } ?? uri
            guard !line.contains(where: \.isNewline), !line.hasPrefix("#") else { return nil }
            text += line + "\n"
        }
        return text
    }
}

/// Looks at the playlist folders again and tells clients what changed (the adaptor's periodic look).

import Glibc
import RepriseCore

/// Walks a music folder through directory descriptors: each directory's names read once, types taken from its
/// entries where the file system gives them, and `fstatat` relative to the open directory (no full path resolved
/// again) only for music files the caller wants it for and entries of unknown type. No link is followed (a directory
/// is opened with O_NOFOLLOW: one replaced by a link meanwhile is skipped), hidden entries are skipped, names are
/// visited in order, and each folder's cover file (``MediaLocation/folderCoverNames``) is noted from the same listing.
enum FolderWalk {
    /// A music file found, with what the index compares (nil where the walk was told not to look) and the cover
    /// picture beside it.
    struct File {
        var path: String
        var size: Int64?
        var modified: Int64?
        var folderCover: String?
    }

    /// How deep folders are followed.
    static let maximumDepth = 32

    /// Visits every music file under `root` (an absolute path, RawPath-escaped). A file whose path `wantsStatus`
    /// is false for (one the index does not have: whoever reads it takes its size and time from the descriptor it
    /// reads) is not looked at, when the file system gives entries' types.
    static func walk(_ root: String, isMusic: (String) -> Bool, wantsStatus: (String) -> Bool = { _ in true },
                     visit: (File) -> Void) {
        walk(root, isMusic: isMusic, wantsStatus: wantsStatus, enter: { _ in true }, visit: visit)
    }

    /// Visits `root` and every directory under it, before what is in it; a directory `visit` returns false for is
    /// not gone into. No file is looked at, unless the file system does not tell entries' types.
    static func directories(_ root: String, visit: (String) -> Bool) {
        walk(root, isMusic: { _ in false }, wantsStatus: { _ in false }, enter: visit, visit: { _ in })
    }

    private static func walk(_ root: String, isMusic: (String) -> Bool, wantsStatus: (String) -> Bool, enter: (String) -> Bool,
                             visit: (File) -> Void) {
        let descriptor = RawPath.withCString(root) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        walk(descriptor, path: root, depth: 0, isMusic: isMusic, wantsStatus: wantsStatus, enter: enter, visit: visit)
    }

    private static func walk(_ descriptor: Int32, path: String, depth: Int, isMusic: (String) -> Bool,
                             wantsStatus: (String) -> Bool, enter: (String) -> Bool, visit: (File) -> Void) {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(stream) } // closes the descriptor too
        guard enter(path) else { return }
        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { RawPath.string(fromBytes: Array($0.prefix { $0 != 0 })) }
            guard !name.hasPrefix(".") else { continue } // ".", "..", hidden
            entries.append((name, entry.pointee.d_type))
        }
        entries.sort { $0.name < $1.name }
        let directory = dirfd(stream)
        func status(_ name: String) -> stat? {
            var info = stat()
            return RawPath.withCString(name) { fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0 ? info : nil
        }
        func isRegular(_ entry: (name: String, type: UInt8)) -> Bool {
            entry.type == UInt8(DT_REG) || entry.type == UInt8(DT_UNKNOWN) && status(entry.name).map { $0.st_mode & S_IFMT == S_IFREG } == true
        }
        // The cover, looked for once the folder has music: cover names, lower-cased once (only names as short as the
        // longest cover name can be one).
        var cover: String??
        func folderCover() -> String? {
            if let cover { return cover }
            let longest = MediaLocation.folderCoverNames.map(\.utf8.count).max() ?? 0
            let short = entries.filter { $0.name.utf8.count <= longest }.map { (lowered: $0.name.lowercased(), entry: $0) }
            let found = MediaLocation.folderCoverNames.lazy.compactMap { candidate in
                short.first { $0.lowered == candidate && isRegular($0.entry) }
            }.first.map { path + "/" + $0.entry.name }
            cover = .some(found)
            return found
        }
        for entry in entries {
            var type = entry.type
            var info: stat?
            if type == UInt8(DT_UNKNOWN) {
                info = status(entry.name)
                guard let mode = info?.st_mode else { continue }
                type = mode & S_IFMT == S_IFDIR ? UInt8(DT_DIR) : mode & S_IFMT == S_IFREG ? UInt8(DT_REG) : UInt8(DT_UNKNOWN)
            }
            if type == UInt8(DT_DIR), depth + 1 < maximumDepth {
                let child = RawPath.withCString(entry.name) { openat(directory, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                if child >= 0 {
                    walk(child, path: path + "/" + entry.name, depth: depth + 1, isMusic: isMusic, wantsStatus: wantsStatus,
                         enter: enter, visit: visit)
                }
            } else if type == UInt8(DT_REG), isMusic(entry.name) {
                let file = path + "/" + entry.name
                if info == nil && !wantsStatus(file) {
                    visit(File(path: file, folderCover: folderCover()))
                    continue
                }
                guard let found = info ?? status(entry.name), found.st_mode & S_IFMT == S_IFREG else { continue }
                visit(File(path: file, size: Int64(found.st_size), modified: LibraryScanner.modified(found), folderCover: folderCover()))
            }
        }
    }
}

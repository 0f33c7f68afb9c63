
/// Command-line arguments expanded into URIs.
public struct Expansion: Sendable, Equatable {
    public var uris: [String] = []
    /// Ranges of `uris` that each came from one directory argument (to be put in album order).
    public var directoryGroups: [Range<Int>] = []
    /// One message for each argument or playlist entry left out.
    public var problems: [String] = []

    public init() {}
}

/// Turning command-line arguments and client-supplied URIs into playable URIs.
public enum MediaLocation {
    /// File extensions taken from a directory argument: audio, and video (which opens a window).
    public static let mediaExtensions: Set<String> = Set([
        "aac", "aif", "aiff", "ape", "flac", "m4a", "mka", "mp2", "mp3", "mpc", "oga", "ogg", "opus",
        "spx", "tta", "wav", "weba", "wma", "wv",
    ]).union(videoExtensions)

    /// Extensions of video containers: such media gets its window (with the loading spinner) before its streams are known.
    public static let videoExtensions: Set<String> = ["avi", "m4v", "mkv", "mov", "mp4", "mpeg", "mpg", "ogv", "webm", "wmv"]

    /// Whether the URI's file name ends in a video container's extension.
    public static func looksLikeVideo(_ uri: String) -> Bool {
        guard let name = MediaURI(uri)?.lastPathComponent else { return false }
        return videoExtensions.contains(fileExtension(name))
    }

    /// The longest URI accepted, in bytes (a path of PATH_MAX bytes, percent-encoded, fits).
    public static let maximumURILength = 16 * 1024

    /// The checks that need no file system, made on every URI from a client, a playlist, the command line or the
    /// saved state: at most ``maximumURILength`` bytes, no control characters (a newline, tab or escape must be
    /// percent-encoded), a supported scheme, and a host for network URIs. Returns the parsed URI.
    @discardableResult
    public static func validateForm(_ uri: String) throws(PlayerError) -> MediaURI {
        guard uri.utf8.count <= maximumURILength else {
            throw .invalidArgument("the URI is \(uri.utf8.count) bytes long (at most \(maximumURILength))")
        }
        guard !uri.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .invalidArgument("'\(TerminalText.sanitized(uri))' contains control characters (percent-encode them)")
        }
        guard let parsed = MediaURI(uri) else { throw .invalidArgument("'\(uri)' is not a URI") }
        guard SupportedSchemes.all.contains(parsed.scheme) else {
            throw .unsupportedScheme("URI scheme '\(parsed.scheme)' is not supported (use \(SupportedSchemes.all.joined(separator: ", ")))")
        }
        if parsed.scheme != "file" && (parsed.host ?? "").isEmpty { throw .invalidArgument("'\(uri)' has no host") }
        return parsed
    }

    /// Checks that `uri` names something the player could read: ``validateForm(_:)`` and, for `file:`, an
    /// existing readable regular file.
    @discardableResult
    public static func validate(_ uri: String, in fileSystem: FileSystem) throws(PlayerError) -> MediaURI {
        let parsed = try validateForm(uri)
        try checkFile(parsed, in: fileSystem)
        return parsed
    }

    /// For a `file:` URI, that it names an existing readable regular file.
    private static func checkFile(_ parsed: MediaURI, in fileSystem: FileSystem) throws(PlayerError) {
        if parsed.scheme == "file" {
            let path = parsed.path
            switch fileSystem.kind(of: path) {
            case .missing: throw .unplayable("\(path): no such file")
            case .directory: throw .unplayable("\(path) is a directory")
            case .other: throw .unplayable("\(path) is not a regular file")
            case .regularFile: break
            }
            guard fileSystem.isReadable(path) else { throw .unplayable("\(path): permission denied") }
        }
    }

    /// Expands command-line arguments: URIs stay, files become `file://` URIs, playlists their entries,
    /// directories their audio files (recursively, links followed, each directory seen once).
    public static func expand(_ arguments: [String], relativeTo cwd: String, in fileSystem: FileSystem) -> Expansion {
        var result = Expansion()
        for argument in arguments {
            if argument.contains(text: "://"), let parsed = MediaURI(argument), parsed.scheme.count > 1 {
                do throws(PlayerError) {
                    result.uris += try resolve(argument, in: fileSystem, problems: &result.problems)
                } catch {
                    result.problems.append(error.message)
                }
                continue
            }
            let path = MediaURI.absolutePath(argument, relativeTo: cwd)
            switch fileSystem.kind(of: path) {
            case .missing:
                result.problems.append("\(argument): no such file or directory")
            case .directory:
                let found = mediaFiles(in: path, fileSystem: fileSystem)
                if found.isEmpty { result.problems.append("\(argument): no audio files") }
                result.directoryGroups.append(result.uris.count..<result.uris.count + found.count)
                result.uris += found.map(MediaURI.file(path:))
            case .other:
                result.problems.append("\(argument) is not a regular file (devices, FIFOs and sockets are not played)")
            case .regularFile:
                guard PlaylistFormat(fileName: path) != nil else {
                    result.uris.append(MediaURI.file(path: path))
                    continue
                }
                do throws(PlayerError) {
                    result.uris += try resolve(MediaURI.file(path: path), in: fileSystem, problems: &result.problems)
                } catch {
                    result.problems.append(error.message)
                }
            }
        }
        return result
    }

    /// A URI as a client gives it, validated. A local playlist file becomes its entries, each validated the same
    /// way: the ones that cannot be played are named in `problems` and left out; none playable is an error.
    public static func resolve(_ uri: String, in fileSystem: FileSystem,
                               problems: inout [String]) throws(PlayerError) -> [String] {
        let parsed = try validate(uri, in: fileSystem)
        guard parsed.scheme == "file", let format = PlaylistFormat(fileName: parsed.path) else {
            return [uri]
        }
        let playlist = try readPlaylist(at: parsed.path, format: format, in: fileSystem)
        guard playlist.uris.count <= PlayQueue.maximumCount else {
            throw .unplayable("\(parsed.path): \(playlist.uris.count) entries, more than a queue holds (\(PlayQueue.maximumCount))")
        }
        var uris: [String] = []
        uris.reserveCapacity(playlist.uris.count)
        for entry in playlist.uris {
            do throws(PlayerError) {
                let inner = try validateForm(entry)
                if inner.scheme == "file", PlaylistFormat(fileName: inner.path) != nil {
                    problems.append("\(entry): a playlist inside a playlist is not followed")
                    continue
                }
                try checkFile(inner, in: fileSystem)
                uris.append(entry)
            } catch {
                problems.append("\(parsed.path): \(error.message)")
            }
        }
        guard !uris.isEmpty else { throw .unplayable("\(parsed.path): the playlist has no playable entries") }
        return uris
    }

    /// Reads and parses the playlist file at `path`.
    public static func readPlaylist(at path: String, format: PlaylistFormat,
                                    in fileSystem: FileSystem) throws(PlayerError) -> PlaylistFile {
        guard let bytes = fileSystem.contents(of: path, limit: PlaylistFile.sizeLimit) else {
            throw .unplayable("\(path): cannot be read (or is larger than \(PlaylistFile.sizeLimit >> 20) MiB)")
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "/"
        return PlaylistFile(bytes, format: format, directory: directory.isEmpty ? "/" : directory)
    }

    /// Directories nested deeper than this are not entered.
    static let maximumDepth = 32
    /// A directory argument yields at most this many files.
    static let maximumFiles = 200_000

    /// Paths of the audio files under `directory`, recursively (links followed, each directory entered once),
    /// in natural name order at each level (track 2 before track 10).
    public static func mediaFiles(in directory: String, fileSystem: FileSystem) -> [String] {
        var visited: Set<FileIdentity> = []
        var files: [String] = []
        collectAudioFiles(in: directory, depth: 0, visited: &visited, into: &files, fileSystem: fileSystem)
        return files
    }

    private static func collectAudioFiles(in directory: String, depth: Int, visited: inout Set<FileIdentity>,
                                          into files: inout [String], fileSystem: FileSystem) {
        guard depth <= maximumDepth, files.count < maximumFiles,
              let identity = fileSystem.identity(of: directory), visited.insert(identity).inserted else { return }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let names = (fileSystem.entries(of: directory) ?? [])
            .filter { !$0.hasPrefix(".") }
            .map { (name: $0, key: NaturalSortKey($0)) }
            .sorted { $0.key < $1.key }
            .map(\.name)
        for name in names where files.count < maximumFiles {
            let path = base + name
            switch fileSystem.kind(of: path) {
            case .regularFile where mediaExtensions.contains(fileExtension(name)):
                files.append(path)
            case .directory:
                collectAudioFiles(in: path, depth: depth + 1, visited: &visited, into: &files, fileSystem: fileSystem)
            default:
                break
            }
        }
    }

    /// Names of cover pictures looked for beside audio files without embedded art, best first (case ignored).
    public static let folderCoverNames = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png",
                                   "front.jpg", "front.png"]

    /// The path of a cover picture in `folder` (see ``folderCoverNames``), if there is one.
    public static func folderCover(in folder: String, fileSystem: FileSystem) -> String? {
        var byName: [String: String] = [:]
        for name in fileSystem.entries(of: folder) ?? [] where byName[name.lowercased()] == nil {
            byName[name.lowercased()] = name
        }
        for candidate in folderCoverNames {
            if let name = byName[candidate], fileSystem.kind(of: folder + "/" + name) == .regularFile { return folder + "/" + name }
        }
        return nil
    }

    /// The lower-cased text after the last dot of a file name ("" when there is none).
    static func fileExtension(_ name: String) -> String { fileExtension(ofPath: name) }

    /// The extension of the last component of `path`, lower case, without its dot; "" when it has none (a name that
    /// starts with its only dot is a hidden file's, not an extension). Looks at bytes only: it runs once a file in a
    /// library pass.
    public static func fileExtension(ofPath path: String) -> String {
        let bytes = path.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return "" }
        let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
        if let slash, slash > dot { return "" }
        guard dot != (slash.map { bytes.index(after: $0) } ?? bytes.startIndex) else { return "" }
        return String(path[bytes.index(after: dot)...]).lowercased()
    }

    /// Natural order: runs of digits compare by value ("2" < "10"), the rest case-insensitively.
    public static func naturallyPrecedes(_ a: String, _ b: String) -> Bool {
        NaturalSortKey(a) < NaturalSortKey(b)
    }
}

/// A file name prepared once for natural-order comparison: lower-cased text with each run of digits
/// reduced to (length without leading zeros, digits), so sorting many names allocates nothing per comparison.
struct NaturalSortKey: Comparable {
    private enum Part: Equatable {
        case text(UInt32)
        case number(length: Int, digits: [UInt32])
    }
    private let parts: [Part]
    private let original: String

    init(_ name: String) {
        original = name
        var parts: [Part] = []
        var digits: [UInt32] = []
        func flushDigits() {
            guard !digits.isEmpty else { return }
            let significant = Array(digits.drop { $0 == 48 })
            parts.append(.number(length: significant.count, digits: significant))
            digits.removeAll()
        }
        for scalar in name.lowercased().unicodeScalars {
            if (48...57).contains(scalar.value) {
                digits.append(scalar.value)
            } else {
                flushDigits()
                parts.append(.text(scalar.value))
            }
        }
        flushDigits()
        self.parts = parts
    }

    static func < (a: NaturalSortKey, b: NaturalSortKey) -> Bool {
        for (left, right) in zip(a.parts, b.parts) where left != right {
            switch (left, right) {
            case (.number(let l, let ld), .number(let r, let rd)):
                return l != r ? l < r : ld.lexicographicallyPrecedes(rd)
            case (.number, .text(let r)): return 48 < r
            case (.text(let l), .number): return l < 48
            case (.text(let l), .text(let r)): return l < r
            }
        }
        if a.parts.count != b.parts.count { return a.parts.count < b.parts.count }
        return a.original < b.original
    }

    static func == (a: NaturalSortKey, b: NaturalSortKey) -> Bool { a.original == b.original }
}


/// Turning command-line arguments and client-supplied URIs into playable URIs.
public enum MediaLocation {
    /// File extensions taken from a directory argument.
    public static let audioExtensions: Set<String> = [
        "aac", "aif", "aiff", "ape", "flac", "m4a", "mka", "mp2", "mp3", "mpc", "oga", "ogg", "opus",
        "spx", "tta", "wav", "weba", "wma", "wv",
    ]

    /// Checks that `uri` names something the player could read: a supported scheme and, for
    /// `file:`, an existing readable regular file.
    public static func validate(_ uri: String, in fileSystem: FileSystem) throws(PlayerError) {
        guard let parsed = MediaURI(uri) else { throw .invalidArgument("'\(uri)' is not a URI") }
        guard SupportedSchemes.all.contains(parsed.scheme) else {
            throw .unsupportedScheme("URI scheme '\(parsed.scheme)' is not supported (use \(SupportedSchemes.all.joined(separator: ", ")))")
        }
        if parsed.scheme == "file" {
            let path = parsed.path
            switch fileSystem.kind(of: path) {
            case .missing: throw .unplayable("\(path): no such file")
            case .directory: throw .unplayable("\(path) is a directory")
            case .other: throw .unplayable("\(path) is not a regular file")
            case .regularFile: break
            }
            guard fileSystem.isReadable(path) else { throw .unplayable("\(path): permission denied") }
        } else if (parsed.host ?? "").isEmpty {
            throw .invalidArgument("'\(uri)' has no host")
        }
    }

    /// Expands command-line arguments: URIs stay, files become `file://` URIs, directories become
    /// their audio files in name order. Returns the URIs and a message for each argument skipped.
    public static func expand(_ arguments: [String], relativeTo cwd: String,
                              in fileSystem: FileSystem) -> (uris: [String], problems: [String]) {
        var uris: [String] = []
        var problems: [String] = []
        for argument in arguments {
            if argument.contains("://"), let parsed = MediaURI(argument), parsed.scheme.count > 1 {
                do throws(PlayerError) {
                    try validate(argument, in: fileSystem)
                    uris.append(argument)
                } catch {
                    problems.append(error.message)
                }
                continue
            }
            let path = MediaURI.absolutePath(argument, relativeTo: cwd)
            switch fileSystem.kind(of: path) {
            case .missing:
                problems.append("\(argument): no such file or directory")
            case .directory:
                let found = audioFiles(in: path, fileSystem: fileSystem)
                if found.isEmpty { problems.append("\(argument): no audio files") }
                uris += found.map(MediaURI.file(path:))
            case .regularFile, .other:
                uris.append(MediaURI.file(path: path))
            }
        }
        return (uris, problems)
    }

    /// Paths of the audio files directly inside `directory` (links followed), in natural name order
    /// (track 2 before track 10).
    public static func audioFiles(in directory: String, fileSystem: FileSystem) -> [String] {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return (fileSystem.entries(of: directory) ?? [])
            .filter { !$0.hasPrefix(".") && audioExtensions.contains(fileExtension($0)) }
            .map { (name: $0, key: NaturalSortKey($0)) }
            .sorted { $0.key < $1.key }
            .map { base + $0.name }
            .filter { fileSystem.kind(of: $0) == .regularFile }
    }

    /// The lower-cased text after the last dot of a file name ("" when there is none).
    static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
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

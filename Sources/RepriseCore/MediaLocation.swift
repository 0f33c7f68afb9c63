import FoundationEssentials

/// Turning command-line arguments and client-supplied URIs into playable URIs.
public enum MediaLocation {
    /// File extensions taken from a directory argument.
    public static let audioExtensions: Set<String> = [
        "aac", "aif", "aiff", "ape", "flac", "m4a", "mka", "mp2", "mp3", "mpc", "oga", "ogg", "opus",
        "spx", "tta", "wav", "weba", "wma", "wv",
    ]

    /// Checks that `uri` names something the player could read: a supported scheme and, for
    /// `file:`, an existing readable regular file.
    public static func validate(_ uri: String) throws(PlayerError) {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else {
            throw .invalidArgument("'\(uri)' is not a URI")
        }
        guard SupportedSchemes.all.contains(scheme) else {
            throw .unsupportedScheme("URI scheme '\(scheme)' is not supported (use \(SupportedSchemes.all.joined(separator: ", ")))")
        }
        if scheme == "file" {
            let path = url.path
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .unplayable("\(path): no such file")
            }
            guard !isDirectory else { throw .unplayable("\(path) is a directory") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw .unplayable("\(path): permission denied") }
        } else if url.host == nil || url.host!.isEmpty {
            throw .invalidArgument("'\(uri)' has no host")
        }
    }

    /// Expands command-line arguments: URIs stay, files become `file://` URIs, directories become
    /// their audio files in name order. Returns the URIs and a message for each argument skipped.
    public static func expand(_ arguments: [String], relativeTo cwd: String) -> (uris: [String], problems: [String]) {
        var uris: [String] = []
        var problems: [String] = []
        for argument in arguments {
            if let url = URL(string: argument), let scheme = url.scheme, scheme.count > 1, argument.contains("://") {
                do throws(PlayerError) {
                    try validate(argument)
                    uris.append(argument)
                } catch {
                    problems.append(error.message)
                }
                continue
            }
            let path = argument.hasPrefix("/") ? argument : cwd + "/" + argument
            let standardized = URL(fileURLWithPath: path).standardizedFileURL
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: standardized.path, isDirectory: &isDirectory) else {
                problems.append("\(argument): no such file or directory")
                continue
            }
            if isDirectory {
                let found = audioFiles(in: standardized)
                if found.isEmpty { problems.append("\(argument): no audio files") }
                uris += found.map(\.absoluteString)
            } else {
                uris.append(standardized.absoluteString)
            }
        }
        return (uris, problems)
    }

    /// Audio files directly inside `directory`, in natural name order (track 2 before track 10).
    public static func audioFiles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names
            .filter { !$0.hasPrefix(".") && audioExtensions.contains(fileExtension($0)) }
            .map { (name: $0, key: NaturalSortKey($0)) }
            .sorted { $0.key < $1.key }
            .map(\.name)
            .map { directory.appendingPathComponent($0) }
            .filter { url in // follows symbolic links, unlike URL resource values
                var isDirectory = false
                return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory
            }
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

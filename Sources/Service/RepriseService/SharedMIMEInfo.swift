import Glibc
import RepriseCore

/// The MIME type aliases shared-mime-info registers, as installed: `mime/aliases` in each directory of
/// `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share` when unset), all of them together.
enum SharedMIMEInfo {
    static func installedAliases(fileSystem: FileSystem,
                                 dataDirectories: String? = getenv("XDG_DATA_DIRS").map { String(cString: $0) }) -> [String: [String]] {
        let directories = (dataDirectories.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").filter { $0.hasPrefix("/") }
        var aliases: [String: [String]] = [:]
        for directory in directories {
            guard let bytes = fileSystem.contents(of: directory + "/mime/aliases", limit: SupportedMediaTypes.aliasesFileLimit)
            else { continue }
            aliases.merge(SupportedMediaTypes.aliases(in: String(decoding: bytes, as: UTF8.self))) { $0 + $1 }
        }
        return aliases
    }
}

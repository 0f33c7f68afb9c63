import Glibc

/// Writing files so that a crash leaves either the old contents or the new ones, never a torn file,
/// and creating the private directories they live in.
public enum DurableFile {
    /// Writes `bytes` to a temporary file beside `path` (mode 0600), fsyncs it, renames it over `path` and
    /// fsyncs the directory. Returns false (leaving any old file untouched) on failure.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
        // A new hidden file of a short name beside the target (mkstemp's: 0600, never an existing one), so that two
        // writers never share it and a target name of up to 255 bytes still has room.
        // A NUL would end the path where the C calls read it: another file.
        guard !path.utf8.contains(0) else { return false }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var template = ((directory.isEmpty ? "" : directory) + "/.reprise-XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return false }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let synced = Descriptor.writeAll(fd, bytes) && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
        return true
    }

    /// Creates `directory` and its missing parents with mode 0700; the last `ownComponents` components (the ones
    /// Reprise owns, e.g. `reprise/art`) are set to 0700 even when they already exist.
    public static func makePrivateDirectories(_ directory: String, ownComponents: Int) -> Bool {
        let components = directory.split(separator: "/")
        var current = ""
        for (index, component) in components.enumerated() {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { return false }
            if index >= components.count - ownComponents, chmod(current, 0o700) != 0 { return false }
        }
        return true
    }
}

/// The XDG base directories of the user (environment variables, with the specification's defaults).
public enum XDGDirectories {
    public static func variable(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        let text = String(cString: value)
        return text.hasPrefix("/") ? text : nil
    }

    public static var home: String { variable("HOME") ?? "/tmp" }
    public static var stateHome: String { variable("XDG_STATE_HOME") ?? home + "/.local/state" }
    public static var cacheHome: String { variable("XDG_CACHE_HOME") ?? home + "/.cache" }
    public static var dataHome: String { variable("XDG_DATA_HOME") ?? home + "/.local/share" }
    public static var configHome: String { variable("XDG_CONFIG_HOME") ?? home + "/.config" }
}

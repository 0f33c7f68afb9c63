import Glibc
import RepriseCore

/// Keeps the player's ``SavedState`` in `$XDG_STATE_HOME/reprise/state` (default `~/.local/state`).
/// Writes go to a temporary file that is fsynced and renamed over the old one, so a crash leaves either
/// the old state or the new one; a file that cannot be read back is moved aside, never trusted.
struct StateStore: Sendable {
    let directory: String
    var path: String { directory + "/state" }

    static func standard() -> StateStore {
        StateStore(directory: XDGDirectories.stateHome + "/reprise")
    }

    /// Writes `state` durably. Returns false (and leaves the old file) on any failure.
    @discardableResult
    func save(_ state: SavedState) -> Bool {
        guard DurableFile.makePrivateDirectories(directory, ownComponents: 1) else { return false }
        var text = state.encoded()
        return text.withUTF8 { DurableFile.write(UnsafeRawBufferPointer($0), to: path) }
    }

    /// The saved state, or nil when there is none. A corrupt file is renamed to `state.corrupt` and reported.
    func load(log: Log) -> SavedState? {
        guard let text = readFile(path) else { return nil }
        do throws(StateError) {
            return try SavedState.decode(text)
        } catch {
            let aside = path + ".corrupt"
            rename(path, aside)
            log.warning("ignoring unreadable saved state (\(error)); moved it to \(aside)")
            return nil
        }
    }

    private func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if bytes.count > 64 << 20 { return "" } // absurdly large: treat as corrupt
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

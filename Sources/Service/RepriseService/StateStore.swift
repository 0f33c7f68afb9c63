import Glibc
import PosixFiles
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

    /// Largest state file read (the largest queue's state is far below it).
    static let sizeLimit = 256 << 20

    /// The saved state, or nil when there is none. A corrupt file is renamed to `state.corrupt` and reported.
    /// Every entry is checked like a URI from a client (``MediaLocation/validateForm(_:)``; a local file that
    /// exists must be a regular file): the file is data, not trusted code, and what fails is left out.
    func load(log: Log, fileSystem: FileSystem) -> SavedState? {
        guard let text = readFile(path, fileSystem: fileSystem) else { return nil }
        do throws(StateError) {
            let state = try SavedState.decode(text).keepingOnly { uri in
                guard let parsed = try? MediaLocation.validateForm(uri) else { return false }
                let kind = parsed.scheme == "file" ? fileSystem.kind(of: parsed.path) : .regularFile
                return kind == .regularFile || kind == .missing // a missing file may be on a disk not mounted yet
            }
            if state.skippedLines > 0 {
                log.warning("left \(state.skippedLines) saved entries out: not something a client could queue")
            }
            return state
        } catch {
            let aside = path + ".corrupt"
            rename(path, aside)
            log.warning("ignoring unreadable saved state (\(error)); moved it to \(aside)")
            return nil
        }
    }

    /// The file's text, or nil when there is none; "" (corrupt) when it is not a regular file or too large. Opened
    /// without blocking: a FIFO at the path never hangs the start.
    private func readFile(_ path: String, fileSystem: FileSystem) -> String? {
        switch fileSystem.kind(of: path) {
        case .missing: return nil
        case .regularFile:
            guard let bytes = fileSystem.contents(of: path, limit: Self.sizeLimit) else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        case .directory, .other: return ""
        }
    }
}

import Glibc
import PosixFiles

/// What Reprise changed in other clients (lowered or muted streams, players paused with notify-on-deactivation),
/// written to `$XDG_STATE_HOME/reprise/changed-streams` before each change, so a run that dies holding them
/// lets the next one put them back.
struct ChangedStreamsStore {
    let path: String

    static func standard() -> ChangedStreamsStore {
        ChangedStreamsStore(path: XDGDirectories.stateHome + "/reprise/changed-streams")
    }

    struct Saved: Equatable {
        var volumes: [UInt32: [UInt32]] = [:]
        var muted: Set<UInt32> = []
        var pausedPlayers: [String] = []
    }

    /// Replaces the record (an empty record removes the file).
    func save(_ saved: Saved) {
        let (volumes, muted, pausedPlayers) = (saved.volumes, saved.muted, saved.pausedPlayers)
        guard !volumes.isEmpty || !muted.isEmpty || !pausedPlayers.isEmpty else {
            unlink(path)
            return
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard DurableFile.makePrivateDirectories(directory, ownComponents: 1) else { return }
        var lines = volumes.sorted { $0.key < $1.key }.map { "volume \($0.key) " + $0.value.map(String.init).joined(separator: ",") }
        lines += muted.sorted().map { "muted \($0)" }
        lines += pausedPlayers.map { "paused " + $0 }
        var text = lines.joined(separator: "\n") + "\n"
        _ = text.withUTF8 { DurableFile.write(UnsafeRawBufferPointer($0), to: path) }
    }

    func load() -> Saved? {
        // Opened without blocking and only as a regular file: a FIFO here must not hang the start.
        guard let bytes = PosixFileSystem().contents(of: path, limit: 1 << 20), !bytes.isEmpty else { return nil }
        var saved = Saved()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 3, parts[0] == "volume", let index = UInt32(parts[1]) {
                let volumes = parts[2].split(separator: ",").compactMap { UInt32($0) }
                if !volumes.isEmpty { saved.volumes[index] = volumes }
            } else if parts.count == 2, parts[0] == "muted", let index = UInt32(parts[1]) {
                saved.muted.insert(index)
            } else if parts.count == 2, parts[0] == "paused" {
                saved.pausedPlayers.append(String(parts[1]))
            }
        }
        return saved
    }
}

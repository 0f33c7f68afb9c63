import PulseKit

/// Keeps what the sound server remembers for other apps' streams as it was before Reprise lowered or muted them.
///
/// A stock PulseAudio's `module-stream-restore` saves every volume or mute a client sets on a stream for that
/// stream's group (its media role, else its application), and the next stream of the group from any app starts
/// with it. Ducking restores the stream's own volume exactly, but the restore itself is saved — also where the
/// stream's volume was one the app asked for and the server had never remembered. So, before the first change,
/// the database is read (the server answers in order: the answer predates the change); once everything Reprise
/// changed is put back and the server has saved that, the entries of the groups it touched are written back as
/// they were, or removed if there were none. WirePlumber (behind pipewire-pulse) shows no entries here and needs
/// nothing: it ignores a client's initial volume, so a stream's volume there is always the one it remembers.
final class RestoreMemoryKeeper {
    /// One round of changes: from the first stream changed until everything is put back.
    private final class Round {
        /// The database before the round (nil until the answer arrives, or when the server keeps none).
        var before: [String: RestoreEntry]? {
            didSet { if before != nil { for (group, entry) in corrections { before?[group] = entry } } }
        }
        var groups: Set<String> = []
        var serial = 0
        /// What a round that ended meanwhile knows the entries were before it (the read of this round may have
        /// seen that round's changes): applied to ``before`` whenever it arrives.
        private var corrections: [String: RestoreEntry?] = [:]

        func correct(_ group: String, to entry: RestoreEntry?) {
            corrections[group] = .some(entry)
            if before != nil { before?[group] = entry }
        }
    }

    private let server: SoundServer
    private var current: Round?
    /// Rounds begun and not yet put back, oldest first (the current one last).
    private var live: [Round] = []
    /// Rounds being put back, and who waits for them.
    private var puttingBack = 0
    private var waiting: [() -> Void] = []

    /// Told what each round read, wrote and removed (debug logging).
    private let trace: (String) -> Void
    private var serial = 0

    init(server: SoundServer, trace: @escaping (String) -> Void = { _ in }) {
        self.server = server
        self.trace = trace
    }

    private static func describe(_ entries: [String: RestoreEntry]?, _ groups: Set<String>) -> String {
        guard let entries else { return "none kept" }
        return groups.sorted().map { group in "\(group)=" + (entries[group].map { "\($0.volumes)\($0.muted ? " muted" : "")" } ?? "absent") }
            .joined(separator: " ")
    }

    /// Call before changing the volume or mute of `streams`.
    func willChange(_ streams: [SinkInputInfo]) {
        let round = current ?? Round()
        round.groups.formUnion(streams.map(Self.group))
        guard current == nil else { return }
        current = round
        live.append(round)
        serial += 1
        round.serial = serial
        trace("round \(serial) begins for \(round.groups.sorted().joined(separator: ", "))")
        server.readRestoreEntries { [trace] entries in
            round.before = entries.map(Self.byName)
            trace("round \(round.serial) read before: \(Self.describe(round.before, round.groups))")
        }
    }

    /// Call once every change is put back (the requests are sent). `done` runs when the server holds the old
    /// entries again (at once when there was nothing to do).
    func allRestored(_ done: @escaping () -> Void = {}) {
        guard let round = current else {
            if puttingBack == 0 { done() } else { waiting.append(done) }
            return
        }
        current = nil
        trace("round \(round.serial) ends: putting back")
        puttingBack += 1
        let done = { [weak self] in
            done()
            guard let self else { return }
            live.removeAll { $0 === round }
            puttingBack -= 1
            if puttingBack == 0 {
                let waiters = waiting
                waiting.removeAll()
                waiters.forEach { $0() }
            }
        }
        // After the server has applied (and saved) the restores, read what it remembers now and put back the rest.
        server.afterPendingRequests { [weak self] in
            guard round.before != nil else { return done() }
            self?.reconcile(round, checksLeft: 3, done) ?? done()
        }
    }

    /// Reads the database and puts back what differs from before the round; then reads it again, since the server
    /// may save the last restore only after the first read (a stock PulseAudio once kept a restored volume that way),
    /// until nothing differs or the checks run out.
    private func reconcile(_ round: Round, checksLeft: Int, _ done: @escaping () -> Void) {
        server.readRestoreEntries { [weak self, server] now in
            guard let self, let before = round.before, let now else { return done() }
            let current = Self.byName(now)
            let rewrite = round.groups.compactMap { group in before[group].flatMap { current[group] == $0 ? nil : $0 } }
            let remove = round.groups.filter { before[$0] == nil && current[$0] != nil }
            trace("round \(round.serial) put back (\(checksLeft) checks left): now \(Self.describe(current, round.groups)), "
                  + "before \(Self.describe(before, round.groups)); rewriting \(rewrite.map(\.name)), removing \(remove.sorted())")
            // Every round begun since this one ended (still running or itself being put back) may have read the
            // database before this write, or its answer is still on the way: each must remember the old entries too.
            if let index = live.firstIndex(where: { $0 === round }) {
                for later in live[(index + 1)...] {
                    for group in round.groups { later.correct(group, to: before[group]) }
                    trace("round \(later.serial) corrected from round \(round.serial)")
                }
            }
            guard !(rewrite.isEmpty && remove.isEmpty), checksLeft > 0 else { return server.afterPendingRequests(done) }
            server.writeRestoreEntries(rewrite.sorted { $0.name < $1.name })
            server.deleteRestoreEntries(remove.sorted())
            server.afterPendingRequests { [weak self] in
                guard let self else { return done() }
                reconcile(round, checksLeft: checksLeft - 1, done)
            }
        }
    }

    /// The connection was lost: no answers will come.
    func forget() {
        current = nil
        live.removeAll()
        puttingBack = 0
        let waiters = waiting
        waiting.removeAll()
        waiters.forEach { $0() }
    }

    /// The stream-restore group a stream belongs to: the one the server named on the stream, else
    /// module-stream-restore's naming (role first, else application).
    static func group(of stream: SinkInputInfo) -> String {
        if let named = stream.restoreGroup, !named.isEmpty { return named }
        if let role = stream.role, !role.isEmpty { return "sink-input-by-media-role:" + role }
        return "sink-input-by-application-name:" + (stream.applicationName ?? "")
    }

    private static func byName(_ entries: [RestoreEntry]) -> [String: RestoreEntry] {
        Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

import RepriseCore

/// The player and its engine: starts with the media given on the command line (playing at once, so the pipeline
/// prerolls while the rest starts) or with the saved queue, paused; stopping stops playback.
final class PlaybackComponent: ServiceComponent {
    let name = "playback"
    private let player: Player
    /// What the command line named (nil: nothing, so the saved queue comes back).
    private let media: Expansion?
    private let saved: SavedState?
    private let log: Log

    init(player: Player, media: Expansion?, saved: SavedState?, log: Log) {
        self.player = player
        self.media = media
        self.saved = saved
        self.log = log
    }

    func start() {
        guard let media else {
            if let saved, !saved.uris.isEmpty {
                log.info("restoring \(saved.uris.count) queued, paused at \(saved.positionMicroseconds / 1_000_000) s")
                player.restore(saved)
            }
            return
        }
        media.problems.forEach { log.warning("skipping \($0)") }
        // New media replaces the saved queue, but long files still resume where they were left.
        if let saved { player.restoreResumePositions(saved.resumePositions) }
        player.enqueue(media.uris, directoryGroups: media.directoryGroups)
        if !player.queue.isEmpty { player.play() }
    }

    func stop(_ done: @escaping () -> Void) {
        player.stop()
        done()
    }
}

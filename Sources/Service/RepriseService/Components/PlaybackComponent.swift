import RepriseCore

/// The player and its engine: starts with the media given on the command line (playing at once, so the pipeline
/// prerolls while the rest starts) or with the saved queue, paused; stopping stops playback and waits (a little)
/// for the pipeline to close its stream.
final class PlaybackComponent: ServiceComponent {
    let name = "playback"
    private let player: Player
    /// What the command line named (nil: nothing, so the saved queue comes back).
    private let media: Expansion?
    private let saved: SavedState?
    private let log: Log
    /// Calls its argument once the pipeline has done what was asked of it (or has given up waiting).
    private let whenPipelineSettled: (@escaping () -> Void) -> Void

    init(player: Player, media: Expansion?, saved: SavedState?, log: Log,
         whenPipelineSettled: @escaping (@escaping () -> Void) -> Void = { $0() }) {
        self.player = player
        self.media = media
        self.saved = saved
        self.log = log
        self.whenPipelineSettled = whenPipelineSettled
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
        whenPipelineSettled(done)
    }
}

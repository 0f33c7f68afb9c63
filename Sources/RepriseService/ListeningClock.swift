import LoopKit
import PosixFiles
import RepriseCore

/// What follows playing time: the sleep timer's count, fade and end, and the chapter announced as playback crosses
/// into another (a few ticks a second while either matters, none otherwise); and the chapters of a local MP4/M4B
/// file, which GStreamer does not read, read from its `chpl` box on a worker when it loads.
final class ListeningClock {
    private let player: Player
    private let timers: LoopTimers
    private let work: BackgroundWork?
    private let log: Log
    private var tickScheduled = false
    private var lastTick: Double?
    private var chaptersLookedUpFor: String?

    init(player: Player, timers: LoopTimers, work: BackgroundWork?, log: Log) {
        self.player = player
        self.timers = timers
        self.work = work
        self.log = log
    }

    /// Call after every player change.
    func playerChanged() {
        lookUpMP4Chapters()
        scheduleTick()
    }

    private var needsTicks: Bool {
        player.sleepTimer != nil || (!player.chapters.isEmpty && player.status == .playing)
    }

    private func scheduleTick() {
        guard needsTicks else {
            lastTick = nil
            return
        }
        guard !tickScheduled else { return }
        tickScheduled = true
        if lastTick == nil { lastTick = monotonicSeconds() }
        // Fine steps while the sleep fade runs, else four a second (a chapter's title is late by at most that).
        let fading = player.sleepRemainingMicroseconds.map { left in
            left < (player.sleepTimer?.fadeMicroseconds ?? 0) + 1_000_000
        } ?? false
        timers.once(afterMilliseconds: fading ? 50 : 250) { [weak self] in self?.tick() }
    }

    private func tick() {
        tickScheduled = false
        let now = monotonicSeconds()
        let elapsed = lastTick.map { Int64((now - $0) * 1_000_000) } ?? 0
        lastTick = now
        player.sleepTimerTick(elapsedMicroseconds: elapsed)
        player.updateChapter()
        scheduleTick()
    }

    private func lookUpMP4Chapters() {
        let uri = player.loadedURI
        guard uri != chaptersLookedUpFor else { return }
        chaptersLookedUpFor = uri
        guard let uri, player.chapters.isEmpty, let location = MediaURI(uri), location.scheme == "file",
              let dot = location.path.lastIndex(of: "."),
              ["m4b", "m4a", "mp4", "m4v", "mov", "aac"].contains(location.path[location.path.index(after: dot)...].lowercased()),
              let work else { return }
        let path = location.path
        work.run({ MP4ChapterReader.chapters(atPath: path) ?? [] }) { [weak self] chapters in
            guard let self, !chapters.isEmpty else { return }
            log.debug("\(chapters.count) chapters in the MP4 chpl box of \(path)")
            player.didFindChapters(chapters, for: uri)
        }
    }
}

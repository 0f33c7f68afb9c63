import LoopKit
import PosixFiles
import RepriseCore

/// What follows playing time: the sleep timer's count, fade and end, and the chapter announced as playback crosses
/// into another (a few ticks a second while either matters, none otherwise); and the chapters of a local MP4/M4B
/// file, which GStreamer does not read, read from its `chpl` box on a worker when it loads.
final class ListeningClock: TimedComponent {
    let name = "listening clock"
    private let player: Player
    private let work: BackgroundWork?
    private let log: Log
    /// The next tick's.
    let timer: TimerSlot
    private var lastTick: Double?
    private var chaptersLookedUpFor: String?

    init(player: Player, timers: LoopTimers, work: BackgroundWork?, log: Log) {
        self.player = player
        timer = TimerSlot(timers)
        self.work = work
        self.log = log
    }

    /// Whether a tick is waiting (for tests).
    var isTicking: Bool { timer.isSet }

    /// Call after every player change.
    func followPlayback() {
        lookUpMP4Chapters()
        scheduleTick()
    }

    private var needsTicks: Bool {
        player.sleepTimer != nil || (!player.chapters.isEmpty && player.status == .playing)
    }

    private func scheduleTick() {
        guard needsTicks, !timer.isClosed else {
            lastTick = nil
            return
        }
        guard !timer.isSet else { return }
        if lastTick == nil { lastTick = monotonicSeconds() }
        // Fine steps while the sleep fade runs, else four a second (a chapter's title is late by at most that).
        let fading = player.sleepRemainingMicroseconds.map { left in
            left < (player.sleepTimer?.fadeMicroseconds ?? 0) + 1_000_000
        } ?? false
        timer.set(afterMilliseconds: fading ? 50 : 250) { [weak self] in self?.tick() }
    }

    private func tick() {
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

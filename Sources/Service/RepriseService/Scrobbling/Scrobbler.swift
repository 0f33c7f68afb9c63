import Glibc
import LoopKit
import PosixFiles
import RepriseCore
import RepriseInterfaces

/// Scrobbling: follows the player with a ``ListenTracker`` (a one-shot timer at the moment a listen will count,
/// never a periodic tick), keeps listens in a ``ListenQueue`` mirrored on disk, and sends them to a ListenBrainz
/// server in batches — one request at a time, on a network worker, with backoff after failures and the server's
/// rate-limit headers obeyed. File writes go to a worker of their own, so a hung server never holds up keeping a
/// listen; nothing here blocks the loop or a key press's path.
final class Scrobbler: ServiceComponent, PlayerFollower, ScrobbleControl {
    let name = "scrobbling"
    private let player: Player
    private let timers: LoopTimers
    private let files: BackgroundWork?
    private let network: BackgroundWork?
    private let file: ListenFile
    private let sender: ListenSender
    private let log: Log
    private var tracker = ListenTracker()
    private var queue = ListenQueue()
    private var loaded = false
    private var loading = false
    /// Raised on stop: a long read of the queue file ends early instead of holding up the service's exit.
    private let loadCancellation = WorkCancellation()
    private var sending = false
    private var stopped = false
    private var pendingPlayingNow: Listen?
    /// "Playing now" goes at most every ``playingNowSpacing`` seconds (a station changing titles many times a
    /// second sends the last one); the timer for the one waiting.
    private var lastPlayingNowSent = -Double.infinity
    private var playingNowTimer: LoopTimer?
    static let playingNowSpacing = 2.0
    private var backoff = ScrobbleBackoff()
    private var retryTimer: LoopTimer?
    private var listenTimer: LoopTimer?
    /// Listens per request now: 1 while a refused batch is sent one by one to find the listen refused.
    private var batchLimit = ListenBrainz.batchSize
    private var batchesSinceRewrite = 0
    /// How many listens given up because the queue was full, as last logged.
    private var droppedFromFullQueue = 0

    private(set) var isEnabled: Bool
    let server: String
    private(set) var sent = 0
    private(set) var refused = 0
    private(set) var lastError = ""
    private(set) var lastSent: Int64 = 0
    private(set) var retryAt: Int64 = 0

    var queued: Int { queue.count }
    var dropped: Int { refused + queue.dropped }

    init(player: Player, settings: ScrobbleSettings, timers: LoopTimers, file: ListenFile = .standard(), loop: EventLoop, log: Log) {
        self.player = player
        self.timers = timers
        self.file = file
        self.log = log
        isEnabled = settings.enabled
        server = settings.url
        let token = settings.tokenFile.map { $0.hasPrefix("~/") ? XDGDirectories.home + $0.dropFirst() : $0 }
            ?? XDGDirectories.configHome + "/reprise/listenbrainz-token"
        sender = ListenSender(server: settings.url, tokenPath: token)
        files = BackgroundWork(loop: loop, label: "reprise.listens")
        network = BackgroundWork(loop: loop, label: "reprise.scrobble")
    }

    func start() {
        if isEnabled { load() }
    }

    /// Stops sending; waits for the listens already handed to the file worker to be written.
    func stop(_ done: @escaping () -> Void) {
        stopped = true
        loadCancellation.cancel()
        retryTimer?.cancel()
        listenTimer?.cancel()
        playingNowTimer?.cancel()
        guard let files else { return done() }
        files.run({}) { _ in done() }
    }

    func setEnabled(_ on: Bool) {
        defer { player.feed.publish(.scrobbling) }
        guard on else {
            isEnabled = false
            tracker = ListenTracker()
            listenTimer?.cancel()
            pendingPlayingNow = nil
            log.info("scrobbling off")
            return
        }
        isEnabled = true
        log.info("scrobbling to \(server)")
        if !loaded { return load() }
        // On again: the next attempt now, not after the wait, and the backoff starts afresh (the user asked; a server
        // cannot).
        backoff = ScrobbleBackoff()
        retryTimer?.cancel()
        retryTimer = nil
        retryAt = 0
        trackListening()
        sendNext()
    }

    // MARK: Following the player

    /// What is heard, and for how long, follows the whole player.
    var followedParts: ChangeAspects { .player }
    func follow(_ change: Change) { trackListening() }

    func trackListening() {
        guard isEnabled, !stopped else { return }
        let now = monotonicSeconds()
        let events = tracker.update(play: currentPlay(), sounding: player.isSounding, rate: player.rate,
                                    positionMicroseconds: player.positionMicroseconds, now: now, wallClock: Int64(time(nil)))
        for event in events {
            switch event {
            case .playingNow(let listen):
                pendingPlayingNow = listen
                sendNext()
            case .listen(let listen):
                keep(listen)
            }
        }
        listenTimer?.cancel()
        listenTimer = tracker.secondsUntilListen(now: now).map { seconds in
            timers.once(afterMilliseconds: UInt32(min(seconds * 1000 + 1, 86_400_000))) { [weak self] in
                self?.listenTimer = nil
                self?.trackListening()
            }
        }
    }

    private func currentPlay() -> ListenTracker.Play? {
        guard let entry = player.loadedEntry else { return nil }
        let tags = entry.tags
        var play = ListenTracker.Play(entryID: entry.id, restarts: player.loopRestarts, artist: tags.artists.first, title: tags.title,
                                      album: tags.album, trackNumber: tags.trackNumber, lengthMicroseconds: entry.lengthMicroseconds,
                                      isStream: LiveStream.isLive(uri: entry.uri, lengthMicroseconds: entry.lengthMicroseconds))
        play.musicBrainz = tags.musicBrainz
        return play
    }

    // MARK: The queue

    private func keep(_ listen: Listen) {
        let line = ListenQueue.line(for: listen)
        guard line.utf8.count <= Listen.maximumEncodedLength else {
            refused += 1
            log.warning("listen of \(TerminalText.sanitized(listen.title)) not kept: longer than ListenBrainz takes")
            return
        }
        guard queue.add(listen) else { return }
        log.info("listen: \(TerminalText.sanitized(listen.artist)) – \(TerminalText.sanitized(listen.title)) (\(queue.count) waiting)")
        noteQueueOverflow()
        let file = file
        files?.run({ file.append(line) }) { [weak self] written in
            guard let self, !written else { return }
            lastError = "the queue file \(file.path) could not be written"
            log.warning(lastError)
            player.feed.publish(.scrobbling)
        }
        player.feed.publish(.scrobbling)
        sendNext()
    }

    private func noteQueueOverflow() {
        guard queue.dropped > droppedFromFullQueue else { return }
        log.warning("the queue of listens is full: \(queue.dropped - droppedFromFullQueue) oldest given up")
        droppedFromFullQueue = queue.dropped
    }

    private func load() {
        guard !loading, let files else { return }
        loading = true
        let file = file, capacity = queue.capacity, cancellation = loadCancellation
        files.run({ file.read(capacity: capacity) { cancellation.isCancelled } }) { [weak self] reading in
            guard let self, !stopped else { return }
            loading = false
            loaded = true
            switch reading {
            case .none, .cancelled: break
            case .setAside(let aside, let why):
                log.warning("the queue of listens was set aside as \(aside): \(why)")
            case .read(let saved, let refusedLines):
                if refusedLines > 0 { log.warning("\(refusedLines) lines of \(file.path) are not listens; left out") }
                var merged = saved
                for listen in queue.listens { merged.add(listen) }
                queue = merged
                if saved.count > 0 { log.info("\(saved.count) listens waiting from before") }
                if refusedLines > 0 || saved.dropped > 0 { rewrite() }
            }
            noteQueueOverflow()
            player.feed.publish(.scrobbling)
            trackListening()
            sendNext()
        }
    }

    private func rewrite() {
        batchesSinceRewrite = 0
        let file = file, text = queue.fileText
        files?.run({ file.rewrite(text) }) { [weak self] written in
            guard let self, !written else { return }
            log.warning("the queue file \(file.path) could not be rewritten")
        }
    }

    // MARK: Sending

    /// Sends what waits — "playing now" first, then the oldest listens — unless a request is under way or a wait
    /// after a failure or a rate limit is not over.
    private func sendNext() {
        guard isEnabled, loaded, !sending, !stopped, retryTimer == nil, let network else { return }
        let sender = sender
        let waited = monotonicSeconds() - lastPlayingNowSent
        if pendingPlayingNow != nil, waited < Self.playingNowSpacing, playingNowTimer == nil {
            let delay = UInt32((Self.playingNowSpacing - waited) * 1000) + 1
            playingNowTimer = timers.once(afterMilliseconds: delay) { [weak self] in
                self?.playingNowTimer = nil
                self?.sendNext()
            }
        }
        if let now = pendingPlayingNow, waited >= Self.playingNowSpacing {
            pendingPlayingNow = nil
            lastPlayingNowSent = monotonicSeconds()
            sending = true
            let body = ListenBrainz.playingNowBody(now)
            network.run({ sender.send(body) }) { [weak self] result in self?.finished(result, sending: []) }
        } else if !queue.isEmpty {
            let batch = queue.first(batchLimit)
            sending = true
            let body = ListenBrainz.submitBody(batch)
            network.run({ sender.send(body) }) { [weak self] result in self?.finished(result, sending: batch) }
        }
    }

    private func finished(_ result: ListenSender.Result, sending batch: [Listen]) {
        sending = false
        guard !stopped else { return }
        defer { player.feed.publish(.scrobbling) }
        switch result.outcome {
        case .accepted:
            backoff.succeeded()
            lastError = ""
            guard !batch.isEmpty else { break }
            queue.remove(batch)
            sent += batch.count
            lastSent = Int64(time(nil))
            log.info("\(batch.count) listens accepted by \(server) (\(queue.count) waiting)")
            if batchLimit == 1 && batch.count == 1 { batchLimit = ListenBrainz.batchSize }
            batchesSinceRewrite += 1
            if queue.isEmpty || batchesSinceRewrite >= 10 { rewrite() }
        case .retry(let after, let reason):
            // "Playing now" is not tried again (the next track's replaces it), but what waits is held back alike.
            lastError = reason
            log.warning("scrobbling: \(reason)")
            return wait(backoff.failed(serverWait: after))
        case .tokenRefused(let reason):
            lastError = reason
            log.warning("scrobbling: \(reason); waiting for another token (or reprise scrobble on)")
            return wait(1800)
        case .listensRefused(let reason):
            lastError = reason
            if batch.count > 1 {
                log.warning("scrobbling: \(reason); sending them one by one")
                batchLimit = 1
            } else if let listen = batch.first {
                log.warning("scrobbling: \(reason); listen of \(TerminalText.sanitized(listen.title)) given up")
                queue.remove(batch)
                refused += 1
                rewrite()
            }
            return wait(max(ScrobbleBackoff.refusedSpacingSeconds, result.rateLimitWait ?? 0))
        }
        if let wait = result.rateLimitWait, wait > 0 { return self.wait(wait) }
        sendNext()
    }

    private func wait(_ seconds: Double) {
        retryTimer?.cancel()
        retryAt = Int64(time(nil)) + Int64(seconds.rounded(.up))
        retryTimer = timers.once(afterMilliseconds: UInt32(min(seconds * 1000, 86_400_000))) { [weak self] in
            guard let self else { return }
            retryTimer = nil
            retryAt = 0
            player.feed.publish(.scrobbling)
            sendNext()
        }
    }
}

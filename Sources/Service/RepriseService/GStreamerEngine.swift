import Glibc
import GStreamerKit
import LoopKit
import RepriseLibrary
import RepriseCore

/// The ``PlaybackEngine`` over a GStreamer playbin: turns player requests into pipeline state
/// changes and seeks, and pipeline bus messages into player events. With crossfade a second, audio-only playbin
/// takes the incoming track while the first fades out (see GStreamerEngine+Crossfade.swift); `playbin` is always
/// the one whose stream is the player's.
final class GStreamerEngine: PlaybackEngine {
    /// The stream loaded now, the one the player sees.
    var playbin: Playbin
    /// The pipeline made by the service (with the video sink): video always plays there.
    let main: Playbin
    /// The second pipeline, made on the first crossfade.
    var spare: Playbin?
    let makeSpare: () -> Playbin?
    let timers: LoopTimers
    let log: Log
    weak var player: Player?
    private var lastSeenGain: Double?
    var loaded = false
    var prerolled = false
    /// Where the last seek goes (nanoseconds) and when it was asked for, until the pipeline has done it: the position
    /// reported meanwhile, so that a client reading Position when Seeked arrives gets the new place.
    var seekTarget: (nanoseconds: Int64, askedAt: Double)?
    /// A live stream's title waiting for its turn, and when the last one went to the player: a station (a remote
    /// peer) sending a new title in every metadata block would otherwise make every MPRIS client redraw thousands
    /// of times a second. At most one every ``streamTitleInterval``; the latest is always announced.
    var pendingStreamTitle: String?
    var streamTitleTimer: LoopTimer?
    var lastStreamTitleAt = -Double.infinity
    static let streamTitleInterval = 0.25
    var wantsPlaying = false
    /// The stream was loaded paused to go to its range's start first; it plays once it is there.
    var playsAfterRangeSeek = false
    var pendingSeek: Int64?
    /// The loaded stream's position as the sink last answered it (µs); nil since the load.
    var lastAnsweredPosition: Int64?
    /// The loaded stream's failure was reported (a refused state change that follows says nothing new).
    var errorReported = false
    /// Fails a local file that neither prerolls nor fails (see GStreamerEngine+OpenWatchdog.swift).
    var openWatchdog: LoopTimer?
    /// Playing was asked of a paused stream and the pipeline has not reached PLAYING yet. A sound server that went
    /// away (or dropped the stream) while it was paused is only found out now, by the sink's error: the stream is
    /// opened again where it was, once, instead of being left paused in silence by the very Play that asked for sound.
    private var resumePending = false
    private var outputReopened = false
    var rate = 1.0
    private var volume = 1.0
    /// A sleep timer's fade (1: none).
    private var sleepFade = 1.0
    /// Lowered for a short sound (the audio policy's duck decision), on everything that sounds.
    var isDucked = false { didSet { applyGain() } }
    static let duckedGain = 0.3
    /// Told of loads, prerolls, buffering and cork requests.
    let events: StreamEvents
    /// The subtitle file to show with a media URI (nil: none).
    private let subtitleFor: (String) -> String?
    var subtitleURI: String?
    private var nextSubtitleURI: String?
    /// The crossfade plan the player gave, the URI prepared to follow, and the fade state (see the extension).
    var plan = CrossfadePlan.off
    var preparedURI: String?
    var crossfade = CrossfadeState()
    /// Times the loaded stream was restarted after a caps negotiation failure (see ``recoverFromNegotiationFailure()``).
    private var renegotiations = 0
    static let renegotiationLimit = 3
    /// Readings of each pipeline's audio clock while a stream is to play, their timer, and the reloads they made for
    /// this load (see GStreamerEngine+ClockWatch.swift).
    var clockWatches: [ObjectIdentifier: ClockLeapWatch] = [:]
    var clockCheckTimer: LoopTimer?
    var clockRecoveries = 0

    init(playbin: Playbin, timers: LoopTimers, events: StreamEvents, log: Log,
         subtitleFor: @escaping (String) -> String? = { _ in nil }, makeSpare: @escaping () -> Playbin? = { nil }) {
        self.playbin = playbin
        self.events = events
        self.subtitleFor = subtitleFor
        main = playbin
        self.timers = timers
        self.log = log
        self.makeSpare = makeSpare
        playbin.onMessage = { [unowned self, unowned playbin] message in self.route(message, from: playbin) }
        watchClock(of: playbin)
    }

    /// Every pipeline there is (what settings apply to).
    var pipelines: [Playbin] { [main] + (spare.map { [$0] } ?? []) }

    private func applyGain() {
        let preamp = pow(10, equalizerPreampDecibels / 20)
        for pipeline in pipelines { pipeline.gain = volume * (isDucked ? Self.duckedGain : 1) * sleepFade * preamp }
    }

    /// The equalizer's band filter gains (nil: off) and its pre-amplification (dB), on every pipeline.
    private var equalizerGains: [Double]?
    private var equalizerPreampDecibels = 0.0

    func setEqualizer(filterGains: [Double]?, preampDecibels: Double) {
        equalizerGains = filterGains
        equalizerPreampDecibels = min(0, preampDecibels)
        for pipeline in pipelines { applyEqualizer(to: pipeline) }
        applyGain()
    }

    /// Sets `pipeline`'s equalizer to the gains in use (all 0 when off: it then passes the sound through).
    func applyEqualizer(to pipeline: Playbin) {
        pipeline.setEqualizer(frequencies: Equalizer.frequencies,
                              gains: equalizerGains ?? Array(repeating: 0, count: Equalizer.frequencies.count),
                              bandwidthRatio: Equalizer.bandwidthRatio)
    }

    func setSleepFade(_ gain: Double) {
        sleepFade = min(1, max(0, gain))
        applyGain()
    }

    let rateRange: ClosedRange<Double> = 0.5...2.0

    /// The sink the next stream opens on (the output the user chose); nil for the sound server's default.
    var outputDevice: String? {
        get { main.outputDevice }
        set { for pipeline in pipelines { pipeline.outputDevice = newValue } }
    }

    /// The pipeline changes state on its own thread: a refusal arrives later, as an error message or
    /// ``PipelineMessage/stateRefused(generation:)``, and fails the stream then.
    func load(_ uri: String, playing: Bool, range: PlayRange?) -> Bool {
        let start = range.map { $0.startMicroseconds.multipliedReportingOverflow(by: 1000) }
        let end = range?.endMicroseconds.map { $0.multipliedReportingOverflow(by: 1000) }
        guard start?.overflow != true, end?.overflow != true else { return false }
        choosePipeline(forLoading: uri, playing: playing)
        loaded = true
        prerolled = false
        // A range: once prerolled, the stream goes to its start and is told where to end (a seek sets both).
        pendingSeek = start?.partialValue
        seekTarget = nil
        lastAnsweredPosition = nil
        dropPendingStreamTitle()
        wantsPlaying = playing
        errorReported = false
        resumePending = false
        outputReopened = false
        events.buffering(percent: 100) // a new stream: nothing is being waited for yet
        events.streamWillLoad()
        renegotiations = 0
        clockRecoveries = 0
        subtitleURI = subtitleFor(uri)
        // A range prerolls paused and plays once at its start: nothing before it is heard.
        playsAfterRangeSeek = playing && range != nil
        playbin.load(uri, subtitleURI: subtitleURI, state: playing && range == nil ? .playing : .paused, endNanoseconds: end?.partialValue)
        watchOpening(uri)
        updateClockWatch()
        return true
    }

    func resume() -> Bool { setPlaying(true) }

    func pause() -> Bool { setPlaying(false) }

    /// Every sounding pipeline to playing or paused; a resume may find the output reopened (``resumePending``).
    private func setPlaying(_ playing: Bool) -> Bool {
        wantsPlaying = playing
        resumePending = playing
        for pipeline in sounding { pipeline.setState(playing ? .playing : .paused) }
        if playing { scheduleCrossfadeTick() }
        updateClockWatch()
        return true
    }

    func stop() {
        stopWatchingOpening()
        events.buffering(percent: 100) // nothing loaded: nothing to wait for
        loaded = false
        prerolled = false
        seekTarget = nil
        lastAnsweredPosition = nil
        dropPendingStreamTitle()
        wantsPlaying = false
        updateClockWatch()
        endCrossfades()
        playbin.stop()
        playbin.setNextURI(nil)
        preparedURI = nil
    }

    /// Runs `body` once the pipelines have done what was asked of them (at most `timeoutMilliseconds` later each).
    func whenSettled(timeoutMilliseconds: UInt32, _ body: @escaping () -> Void) {
        guard let spare else { return main.whenSettled(timeoutMilliseconds: timeoutMilliseconds, body) }
        main.whenSettled(timeoutMilliseconds: timeoutMilliseconds) { spare.whenSettled(timeoutMilliseconds: timeoutMilliseconds, body) }
    }

    func prepareNext(_ uri: String?) {
        preparedURI = uri
        // playbin takes the subtitle file of the next stream with its URI.
        nextSubtitleURI = uri.flatMap(subtitleFor)
        playbin.setSubtitleURI(nextSubtitleURI)
        handOverPrepared()
    }

    /// Gives playbin the prepared URI for a gapless hand-over, unless it is to crossfade in instead (playbin takes
    /// the URI as soon as it has read the current stream, which may be long before the crossfade would begin).
    func handOverPrepared() {
        playbin.setNextURI(plan.nextOverlapSeconds == nil ? preparedURI : nil)
        scheduleCrossfadeTick()
    }

    func seek(toMicroseconds microseconds: Int64) -> Bool {
        guard loaded else { return false }
        let nanoseconds = microseconds.multipliedReportingOverflow(by: 1000)
        guard !nanoseconds.overflow else { return false }
        guard prerolled else {
            pendingSeek = nanoseconds.partialValue
            return true
        }
        finishFade() // what fades out has nothing to do with where the current stream goes
        abandonIncoming() // the moment to fade in is no longer the one it was loaded for
        seekTarget = (nanoseconds.partialValue, monotonicSeconds())
        lastAnsweredPosition = microseconds
        playbin.seek(toNanoseconds: nanoseconds.partialValue, rate: rate)
        scheduleCrossfadeTick()
        return true
    }

    func setRate(_ newRate: Double) {
        rate = newRate
        log.info("rate \(newRate)" + (playbin.keepsPitchAtOtherRates ? " (pitch kept by scaletempo)" : " (scaletempo missing: pitch follows)"))
        // scaletempo is in a stream's audio filter only while a rate other than 1 is asked for: a stream loaded at
        // rate 1 loads again where it is, through a filter with it (back at rate 1, it stays until the next load).
        for pipeline in pipelines { pipeline.wantsPitchKeeper = newRate != 1 }
        guard loaded else { return }
        if newRate != 1, playbin.keepsPitchAtOtherRates, !playbin.hasPitchKeeper {
            log.info("rate \(newRate): reloading the stream where it is, with scaletempo")
            return reloadWhereItIs()
        }
        guard prerolled else { return }
        playbin.seek(toNanoseconds: playbin.positionNanoseconds ?? 0, rate: newRate)
    }

    func setVolume(_ volume: Double) {
        self.volume = volume
        applyGain()
    }

    var isMuted: Bool {
        get { main.isSilenced }
        set { for pipeline in pipelines { pipeline.isSilenced = newValue } }
    }

    func setReplayGain(_ kind: ReplayGainKind, preampDecibels: Double, fallbackDecibels: Double, fallbackPeak: Double?) {
        let wasLevelling = playbin.levelsLoudness
        let configuration = kind == .none ? nil
            : ReplayGainConfiguration(albumMode: kind == .album, preampDecibels: preampDecibels, fallbackDecibels: fallbackDecibels,
                                      fallbackPeak: fallbackPeak)
        for pipeline in pipelines { pipeline.replayGain = configuration }
        // Turned on or off while a stream is loaded: its audio filter has (or lacks) the leveller, so the stream loads
        // again where it is, with a filter made for the new setting.
        if loaded, wasLevelling != (kind != .none) {
            log.info("ReplayGain \(kind == .none ? "off" : "on"): reloading the stream where it is")
            reloadWhereItIs()
        }
    }

    var appliedGainDecibels: Double? { playbin.appliedReplayGainDecibels }

    /// The leveller sets its gain on GStreamer's thread once the stream's tags reach it, with no message of its
    /// own: after each message from the pipeline, a gain other than the one last seen is told to the player.
    func noticeAppliedGain() {
        let gain = appliedGainDecibels.flatMap { $0.isFinite ? $0 : nil }
        guard gain != lastSeenGain else { return }
        lastSeenGain = gain
        player?.engineAppliedGainDidChange()
    }

    /// The `media.role` of the next stream loaded.
    func setStreamRole(_ role: String) {
        streamRole = role
        for pipeline in pipelines { pipeline.setRole(role) }
    }
    var streamRole = "music"

    /// The pipeline's position; while a seek is under way, where it goes (before preroll, the seek waiting for it).
    /// A seek is under way until the pipeline's position shows it done (``hasReached(_:at:)``); one the pipeline
    /// never confirms stops counting after 5 s.
    /// A query the sink cannot answer for a moment (its state changing on the pipeline's thread, a busy sound
    /// server) gives the last position it answered, never nothing: a client must not see 0:00 in between.
    var positionMicroseconds: Int64? {
        if !prerolled, let pendingSeek { return pendingSeek / 1000 }
        let position = playbin.positionNanoseconds
        if let target = seekTarget {
            if let position, hasReached(target, at: position) {
                seekTarget = nil
            } else if monotonicSeconds() - target.askedAt < 5 {
                return target.nanoseconds / 1000
            } else {
                seekTarget = nil
            }
        }
        guard let now = position.map({ $0 / 1000 }) else { return prerolled ? lastAnsweredPosition : nil }
        lastAnsweredPosition = now
        return now
    }

    /// Whether the pipeline at `position` has done the seek to `target`: at most 1 s before it, and past it by no more
    /// than what has played since (and 1 s). Elsewhere it is still at the place before — the pipeline's confirmation
    /// (ASYNC_DONE) that arrived was an earlier seek's.
    private func hasReached(_ target: (nanoseconds: Int64, askedAt: Double), at position: Int64) -> Bool {
        let ahead = (monotonicSeconds() - target.askedAt + 1) * max(rate, 0) * 1e9
        return position >= target.nanoseconds - 1_000_000_000 && Double(position) <= Double(target.nanoseconds) + ahead
    }

    func handle(_ message: PipelineMessage) {
        guard let player else { return }
        switch message {
        case .asyncDone where loaded && !prerolled:
            stopWatchingOpening()
            prerolled = true
            seekTarget = nil
            if let target = pendingSeek ?? (rate != 1 || playbin.endNanoseconds != nil ? 0 : nil) {
                pendingSeek = nil
                if target > 0 { seekTarget = (target, monotonicSeconds()) }
                playbin.seek(toNanoseconds: target, rate: rate)
            }
            if playsAfterRangeSeek {
                playsAfterRangeSeek = false
                if wantsPlaying { playbin.setState(.playing) }
            }
            player.engineDidPreroll(lengthMicroseconds: playbin.durationNanoseconds.map { $0 / 1000 },
                                    seekable: playbin.isSeekable)
            events.streamReady(subtitleURI: subtitleURI)
            beginFadeIfWaiting()
            scheduleCrossfadeTick()
        case .asyncDone where loaded:
            // The seek is done when the pipeline is there: then it reports the new place itself.
            if let target = seekTarget, let position = playbin.positionNanoseconds, hasReached(target, at: position) { seekTarget = nil }
        case .streamStart where loaded && prerolled:
            guard let uri = playbin.takeGaplessSwitch() else { break }
            lastAnsweredPosition = nil // another stream: the last answer was the previous one's, a seek its too
            seekTarget = nil
            if rate != 1, let position = playbin.positionNanoseconds { playbin.seek(toNanoseconds: position, rate: rate) }
            subtitleURI = nextSubtitleURI
            player.engineDidStartNextStream(uri: uri, seekable: playbin.isSeekable)
            events.streamReady(subtitleURI: subtitleURI)
        case .tags(let tags) where loaded && !playbin.isSwitchPending:
            playbin.applyReplayGain() // the stream's gain may have changed: the limiter follows
            if let cut = tags.cutForSoundServer { log.info("tags: the sound server's copy is cut (\(cut)); Reprise keeps them whole") }
            // While a handed-over stream waits to start, its tags may already arrive: they are not the current track's.
            player.engineDidReadTags(tags.track)
            if !tags.chapterComments.isEmpty { player.engineDidReadChapters(VorbisChapterComments.chapters(in: tags.chapterComments)) }
        case .chapters(let found) where loaded && !playbin.isSwitchPending:
            player.engineDidReadChapters(found.map { Chapter(title: $0.title ?? "", startMicroseconds: $0.startNanoseconds / 1000) })
        case .streamTitle(let text) where loaded && !playbin.isSwitchPending:
            offerStreamTitle(text)
        case .durationChanged where loaded:
            if let duration = playbin.durationNanoseconds { player.engineLengthDidChange(microseconds: duration / 1000) }
        case .endOfStream where loaded:
            player.engineDidReachEnd()
        case .error(let text, let debug, let source) where loaded:
            log.debug("pipeline error from \(source): \(debug)")
            errorReported = true
            stopWatchingOpening()
            if debug.contains(text: "not-negotiated"), recoverFromNegotiationFailure() { break }
            if source == Playbin.audioOutputName, resumePending, !outputReopened {
                // Found out by this Play: the server may well be back (a paused stream notices only now).
                log.info("the sound output was gone when playing resumed (\(text)): opening it again where it was")
                outputReopened = true
                resumePending = false
                errorReported = false
                reloadWhereItIs()
            } else if source == Playbin.audioOutputName {
                // The sound server is gone (or refused us): the media is fine, so do not skip it.
                player.engineOutputDidFail(text)
            } else if playbin.isSwitchPending {
                player.engineDidFailNextStream(text)
            } else {
                player.engineDidFail(text)
            }
        case .stateRefused where loaded && !errorReported:
            errorReported = true
            player.engineDidFail("the pipeline refused the stream")
        case .warning(let text, let source):
            log.debug("pipeline warning from \(source): \(text)")
        case .staleError(let text, let source):
            log.debug("ignoring a late error from \(source), no longer in the pipeline: \(text)")
        case .clockLost where wantsPlaying:
            playbin.setState(.paused)
            playbin.setState(.playing)
        case .buffering(let percent):
            events.buffering(percent: percent)
            // Play as soon as enough is buffered; wait (paused) while it is not.
            if wantsPlaying { playbin.setState(percent < 100 ? .paused : .playing) }
        case .requestState(let state, let source) where loaded:
            // pulsesink turns PulseAudio's cork/uncork requests (module-role-cork) into these.
            log.info("\(source) asks for state \(state)")
            if state == .paused || state == .playing { events.corkRequested(state == .paused) }
        case .stateChanged(let old, let new, _):
            log.debug("pipeline \(old) -> \(new)")
            if new == .playing { resumePending = false; outputReopened = false } // it sounds: a later Play may reopen again
        default:
            break
        }
    }
}

extension GStreamerEngine {
    /// The video window's size changed while the stream was renegotiating and it stopped with "not negotiated":
    /// nothing is wrong with the media, so the stream starts again where it was (a few times at most) instead
    /// of being skipped. The player sees no change.
    fileprivate func recoverFromNegotiationFailure() -> Bool {
        guard renegotiations < Self.renegotiationLimit else { return false }
        renegotiations += 1
        log.warning("the stream stopped renegotiating its format; starting it again at \((playbin.positionNanoseconds ?? 0) / 1_000_000_000) s")
        reloadWhereItIs()
        return true
    }

    /// Loads the stream again (a new audio filter) and goes back to where it was, in the same state.
    func reloadWhereItIs() {
        let position = prerolled ? (seekTarget?.nanoseconds ?? playbin.positionNanoseconds ?? lastAnsweredPosition.map { $0 * 1000 } ?? 0)
            : pendingSeek ?? 0
        seekTarget = nil
        prerolled = false
        pendingSeek = position > 0 ? position : nil
        playbin.restart(state: wantsPlaying ? .playing : .paused)
    }
}

extension GStreamerEngine {
    /// Hands a live stream's title to the player now, or as the latest one when its turn comes.
    func offerStreamTitle(_ text: String) {
        let wait = lastStreamTitleAt + Self.streamTitleInterval - monotonicSeconds()
        guard wait > 0 else {
            lastStreamTitleAt = monotonicSeconds()
            return player?.engineDidReadStreamTitle(text) ?? ()
        }
        pendingStreamTitle = text
        guard streamTitleTimer?.isActive != true else { return }
        streamTitleTimer = timers.once(afterMilliseconds: UInt32(wait * 1000) + 1) { [weak self] in
            guard let self, let title = pendingStreamTitle else { return }
            pendingStreamTitle = nil
            lastStreamTitleAt = monotonicSeconds()
            player?.engineDidReadStreamTitle(title)
        }
    }

    /// A new stream (or none): the previous one's waiting title is not announced.
    func dropPendingStreamTitle() {
        streamTitleTimer?.cancel()
        streamTitleTimer = nil
        pendingStreamTitle = nil
    }
}

import GStreamerKit
import RepriseCore

/// The ``PlaybackEngine`` over a GStreamer playbin: turns player requests into pipeline state
/// changes and seeks, and pipeline bus messages into player events.
final class GStreamerEngine: PlaybackEngine {
    private let playbin: Playbin
    private let log: Log
    weak var player: Player?
    private var loaded = false
    private var prerolled = false
    private var wantsPlaying = false
    private var pendingSeek: Int64?
    /// The loaded stream's failure was reported (a refused state change that follows says nothing new).
    private var errorReported = false
    private var rate = 1.0
    private var volume = 1.0
    /// Lowered for a short sound (the audio policy's duck decision).
    var isDucked = false { didSet { playbin.gain = volume * (isDucked ? Self.duckedGain : 1) } }
    static let duckedGain = 0.3
    /// The sound server asked the stream to pause (true) or play again (false): a cork request.
    var onCorkRequest: ((Bool) -> Void)?
    /// The subtitle file to show with a media URI (nil: none).
    var subtitleFor: ((String) -> String?)?
    /// A stream prerolled or a gapless one started, with the subtitle file given to it.
    var onStreamReady: ((String?) -> Void)?
    /// A new stream is about to load (from its start).
    var onLoad: (() -> Void)?
    /// Buffering of network media, in percent (100: enough to play).
    var onBuffering: ((Int) -> Void)?
    private var subtitleURI: String?
    private var nextSubtitleURI: String?
    /// Times the loaded stream was restarted after a caps negotiation failure (see ``recoverFromNegotiationFailure()``).
    private var renegotiations = 0
    static let renegotiationLimit = 3

    init(playbin: Playbin, log: Log) {
        self.playbin = playbin
        self.log = log
        playbin.onMessage = { [unowned self] message in self.handle(message) }
    }

    let rateRange: ClosedRange<Double> = 0.5...2.0

    /// The sink the next stream opens on (the output the user chose); nil for the sound server's default.
    var outputDevice: String? {
        get { playbin.outputDevice }
        set { playbin.outputDevice = newValue }
    }

    /// The pipeline changes state on its own thread: a refusal arrives later, as an error message or
    /// ``PipelineMessage/stateRefused(generation:)``, and fails the stream then.
    func load(_ uri: String, playing: Bool) -> Bool {
        loaded = true
        prerolled = false
        pendingSeek = nil
        wantsPlaying = playing
        errorReported = false
        onBuffering?(100) // a new stream: nothing is being waited for yet
        onLoad?()
        renegotiations = 0
        subtitleURI = subtitleFor?(uri)
        playbin.load(uri, subtitleURI: subtitleURI, state: playing ? .playing : .paused)
        return true
    }

    func resume() -> Bool {
        wantsPlaying = true
        playbin.setState(.playing)
        return true
    }

    func pause() -> Bool {
        wantsPlaying = false
        playbin.setState(.paused)
        return true
    }

    func stop() {
        onBuffering?(100) // nothing loaded: nothing to wait for
        loaded = false
        prerolled = false
        wantsPlaying = false
        playbin.stop()
        playbin.setNextURI(nil)
    }

    /// Runs `body` once the pipeline has done what was asked of it (at most `timeoutMilliseconds` later).
    func whenSettled(timeoutMilliseconds: UInt32, _ body: @escaping () -> Void) {
        playbin.whenSettled(timeoutMilliseconds: timeoutMilliseconds, body)
    }

    func prepareNext(_ uri: String?) {
        // playbin takes the subtitle file of the next stream with its URI.
        nextSubtitleURI = uri.flatMap { subtitleFor?($0) }
        playbin.setSubtitleURI(nextSubtitleURI)
        playbin.setNextURI(uri)
    }

    func seek(toMicroseconds microseconds: Int64) -> Bool {
        guard loaded else { return false }
        let nanoseconds = microseconds.multipliedReportingOverflow(by: 1000)
        guard !nanoseconds.overflow else { return false }
        guard prerolled else {
            pendingSeek = nanoseconds.partialValue
            return true
        }
        playbin.seek(toNanoseconds: nanoseconds.partialValue, rate: rate)
        return true
    }

    func setRate(_ newRate: Double) {
        rate = newRate
        log.info("rate \(newRate)" + (playbin.keepsPitchAtOtherRates ? " (pitch kept by scaletempo)" : " (scaletempo missing: pitch follows)"))
        guard loaded, prerolled else { return }
        playbin.seek(toNanoseconds: playbin.positionNanoseconds ?? 0, rate: newRate)
    }

    func setVolume(_ volume: Double) {
        self.volume = volume
        playbin.gain = volume * (isDucked ? Self.duckedGain : 1)
    }

    var isMuted: Bool {
        get { playbin.isSilenced }
        set { playbin.isSilenced = newValue }
    }

    func setReplayGain(_ kind: ReplayGainKind, preampDecibels: Double, fallbackDecibels: Double) {
        let wasLevelling = playbin.levelsLoudness
        playbin.replayGain = kind == .none ? nil
            : ReplayGainConfiguration(albumMode: kind == .album, preampDecibels: preampDecibels, fallbackDecibels: fallbackDecibels)
        // Turned on or off while a stream is loaded: its audio filter has (or lacks) the leveller, so the stream loads
        // again where it is, with a filter made for the new setting.
        if loaded, wasLevelling != (kind != .none) {
            log.info("ReplayGain \(kind == .none ? "off" : "on"): reloading the stream where it is")
            reloadWhereItIs()
        }
    }

    var appliedGainDecibels: Double? { playbin.appliedReplayGainDecibels }

    /// The `media.role` of the next stream loaded.
    func setStreamRole(_ role: String) { playbin.setRole(role) }

    var positionMicroseconds: Int64? { playbin.positionNanoseconds.map { $0 / 1000 } }

    private func handle(_ message: PipelineMessage) {
        guard let player else { return }
        switch message {
        case .asyncDone where loaded && !prerolled:
            prerolled = true
            if let target = pendingSeek ?? (rate != 1 ? 0 : nil) {
                pendingSeek = nil
                playbin.seek(toNanoseconds: target, rate: rate)
            }
            player.engineDidPreroll(lengthMicroseconds: playbin.durationNanoseconds.map { $0 / 1000 },
                                    seekable: playbin.isSeekable)
            onStreamReady?(subtitleURI)
        case .streamStart where loaded && prerolled:
            guard let uri = playbin.takeGaplessSwitch() else { break }
            if rate != 1, let position = playbin.positionNanoseconds { playbin.seek(toNanoseconds: position, rate: rate) }
            subtitleURI = nextSubtitleURI
            player.engineDidStartNextStream(uri: uri, seekable: playbin.isSeekable)
            onStreamReady?(subtitleURI)
        case .tags(let tags) where loaded && !playbin.isSwitchPending:
            playbin.applyReplayGain() // the stream's gain may have changed: the limiter follows
            // While a handed-over stream waits to start, its tags may already arrive: they are not the current track's.
            player.engineDidReadTags(TrackTags(tags))
        case .durationChanged where loaded:
            if let duration = playbin.durationNanoseconds { player.engineLengthDidChange(microseconds: duration / 1000) }
        case .endOfStream where loaded:
            player.engineDidReachEnd()
        case .error(let text, let debug, let source) where loaded:
            log.debug("pipeline error from \(source): \(debug)")
            errorReported = true
            if debug.contains("not-negotiated"), recoverFromNegotiationFailure() { break }
            if source == Playbin.audioOutputName {
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
            onBuffering?(percent)
            // Play as soon as enough is buffered; wait (paused) while it is not.
            if wantsPlaying { playbin.setState(percent < 100 ? .paused : .playing) }
        case .requestState(let state, let source) where loaded:
            // pulsesink turns PulseAudio's cork/uncork requests (module-role-cork) into these.
            log.info("\(source) asks for state \(state)")
            if state == .paused || state == .playing { onCorkRequest?(state == .paused) }
        case .stateChanged(let old, let new, _):
            log.debug("pipeline \(old) -> \(new)")
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
        let position = prerolled ? playbin.positionNanoseconds ?? 0 : pendingSeek ?? 0
        prerolled = false
        pendingSeek = position > 0 ? position : nil
        playbin.restart(state: wantsPlaying ? .playing : .paused)
    }
}

extension TrackTags {
    init(_ tags: StreamTags) {
        self.init(title: tags.title, artists: tags.artists, album: tags.album, albumArtists: tags.albumArtists,
                  trackNumber: tags.trackNumber, discNumber: tags.discNumber, genres: tags.genres,
                  composers: tags.composers, comments: tags.comments, contentCreated: tags.date, description: tags.description)
    }
}

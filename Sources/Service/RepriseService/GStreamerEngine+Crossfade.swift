import Glibc
import GStreamerKit
import RepriseCore

/// Where a crossfade stands.
struct CrossfadeState {
    /// The stream fading out (the previous track), still sounding.
    var fadingOut: Playbin?
    /// The next track started (at silence) when its fade-in is due, until it has prerolled; the current one is still
    /// the player's.
    var incoming: Incoming?
    struct Incoming {
        let playbin: Playbin
        let uri: String
        let seconds: Double
    }
    /// A load that fades the previous stream out, waiting for the new one to preroll: the fade's length.
    var waitingSeconds: Double?
    /// The fade under way: its length and the playing time gone.
    var ramp: (seconds: Double, elapsed: Double)?
    var lastTick: ContinuousClock.Instant?
    var tickScheduled = false
    /// A crossfade into this URI failed to start; it is not tried again (the track follows the usual way).
    var failedURI: String?
}

/// Crossfade over two pipelines. Automatic: `plan.nextOverlapSeconds` before the current track ends, the prepared
/// next one starts on the other pipeline at silence; once it has prerolled it becomes the player's current track
/// (``Player/engineDidStartNextStream(uri:seekable:)``) and both gain stages follow an equal-power curve, the old
/// one stopping at the end. A load while something sounds (a user's Next, GoTo…) fades the old stream out and the
/// new one in over `plan.userChangeFadeSeconds`. Pause, ducking, silent mode and the output apply to both.
extension GStreamerEngine {
    func setCrossfadePlan(_ plan: CrossfadePlan) {
        self.plan = plan
        if plan.nextOverlapSeconds == nil { abandonIncoming() }
        if crossfade.incoming == nil { handOverPrepared() }
    }

    /// The pipelines sounding now (pause and resume act on all of them).
    var sounding: [Playbin] {
        var all = [playbin]
        if let out = crossfade.fadingOut { all.append(out) }
        if let incoming = crossfade.incoming { all.append(incoming.playbin) }
        return all
    }

    /// Messages of the player's stream are handled as ever; of the others only what matters to them.
    func route(_ message: PipelineMessage, from source: Playbin) {
        if source === playbin {
            handle(message)
            return noticeAppliedGain()
        }
        if let incoming = crossfade.incoming, source === incoming.playbin {
            switch message {
            case .asyncDone: beginCrossfade()
            case .error(let text, _, _):
                log.warning("crossfade into \(incoming.uri) failed (\(text)); it follows without one")
                abandonIncoming(failed: true)
            case .stateRefused:
                log.warning("crossfade into \(incoming.uri) refused; it follows without one")
                abandonIncoming(failed: true)
            case .requestState(let state, _) where state == .paused || state == .playing: events.corkRequested(state == .paused)
            default: break
            }
            return
        }
        switch message {
        case .endOfStream, .error: if source === crossfade.fadingOut { finishFade() }
        case .requestState(let state, _) where state == .paused || state == .playing: events.corkRequested(state == .paused)
        default: break
        }
    }

    /// Before a load: which pipeline takes it, and whether what sounds now fades out.
    func choosePipeline(forLoading uri: String, playing: Bool) {
        abandonIncoming()
        crossfade.failedURI = nil
        finishFade()
        let isVideo = CrossfadeSettings.isVideo(uri)
        if let seconds = plan.userChangeFadeSeconds, playing, loaded, prerolled, wantsPlaying, !isVideo,
           let other = otherPipeline() {
            let old = playbin
            old.setNextURI(nil)
            crossfade.fadingOut = old
            crossfade.waitingSeconds = seconds
            other.fade = 0
            use(other)
            return
        }
        let target = isVideo ? main : playbin
        playbin.fade = 1
        if target !== playbin {
            playbin.stop()
            use(target)
        }
        target.fade = 1
    }

    /// The new stream has prerolled: a load waiting to fade the old one out starts its ramp.
    func beginFadeIfWaiting() {
        guard let seconds = crossfade.waitingSeconds else { return }
        crossfade.waitingSeconds = nil
        startRamp(seconds: seconds)
    }

    /// Any crossfade ends now: what fades out stops, what was started ahead stops.
    func endCrossfades() {
        abandonIncoming()
        finishFade()
        crossfade.waitingSeconds = nil
        playbin.fade = 1
    }

    /// The fade ends: the old stream stops, the new one is at full level.
    func finishFade() {
        crossfade.ramp = nil
        crossfade.waitingSeconds = nil
        if let out = crossfade.fadingOut {
            out.stop()
            out.setNextURI(nil)
            crossfade.fadingOut = nil
        }
        playbin.fade = 1
    }

    func scheduleCrossfadeTick(afterMilliseconds milliseconds: UInt32 = 50) {
        guard !crossfade.tickScheduled, needsTick else { return }
        crossfade.tickScheduled = true
        timers.once(afterMilliseconds: milliseconds) { [weak self] in
            guard let self else { return }
            crossfade.tickScheduled = false
            tick()
        }
    }

    private var needsTick: Bool {
        if crossfade.ramp != nil { return wantsPlaying }
        return plan.nextOverlapSeconds != nil && preparedURI != nil && preparedURI != crossfade.failedURI && loaded
            && prerolled && wantsPlaying && crossfade.fadingOut == nil && crossfade.incoming == nil
    }

    private func tick() {
        let now = ContinuousClock.now
        defer { crossfade.lastTick = now }
        if var ramp = crossfade.ramp {
            if wantsPlaying, let last = crossfade.lastTick {
                let step = now - last
                ramp.elapsed += Double(step.components.seconds) + Double(step.components.attoseconds) / 1e18
            }
            crossfade.ramp = ramp
            let progress = min(1, ramp.elapsed / ramp.seconds)
            guard progress < 1 else { return finishFade() }
            crossfade.fadingOut?.fade = cos(progress * .pi / 2)
            playbin.fade = sin(progress * .pi / 2)
            return scheduleCrossfadeTick(afterMilliseconds: 30)
        }
        guard let seconds = plan.nextOverlapSeconds, let uri = preparedURI, needsTick,
              let position = playbin.positionNanoseconds, let duration = playbin.durationNanoseconds else {
            return scheduleCrossfadeTick(afterMilliseconds: 500)
        }
        // Real time left (at the playback rate); a short track overlaps at most half of itself. The next stream
        // starts playing at silence when its fade-in is due and the fade begins once it has prerolled (a stream
        // prerolled paused ahead of time starts against its sink's clock ~the time it waited late, so it is not).
        let overlap = min(seconds, Double(duration) / 1e9 / 2)
        let left = Double(duration - position) / 1e9 / max(rate, 0.1)
        guard left <= overlap else {
            return scheduleCrossfadeTick(afterMilliseconds: UInt32(min(1000, max(20, (left - overlap) / 2 * 1000))))
        }
        if crossfade.incoming == nil { loadIncoming(uri, seconds: overlap) }
    }

    /// Starts `uri` on the other pipeline, playing at silence, to fade in over `seconds` once it has prerolled.
    private func loadIncoming(_ uri: String, seconds: Double) {
        guard let other = otherPipeline() else { return }
        playbin.setNextURI(nil) // the current stream ends by itself now, no gapless hand-over
        other.fade = 0
        other.load(uri, subtitleURI: nil, state: wantsPlaying ? .playing : .paused)
        crossfade.incoming = CrossfadeState.Incoming(playbin: other, uri: uri, seconds: seconds)
    }

    /// The incoming stream has prerolled: it becomes the player's track and the fade begins.
    private func beginCrossfade() {
        guard let incoming = crossfade.incoming else { return }
        log.info("crossfade into \(incoming.uri) over \(oneDecimal(incoming.seconds)) s")
        crossfade.incoming = nil
        crossfade.fadingOut = playbin
        use(incoming.playbin)
        prerolled = true
        pendingSeek = nil
        seekTarget = nil
        subtitleURI = nil
        startRamp(seconds: incoming.seconds)
        if rate != 1, let position = playbin.positionNanoseconds { playbin.seek(toNanoseconds: position, rate: rate) }
        player?.engineDidStartNextStream(uri: incoming.uri, seekable: playbin.isSeekable)
        if let duration = playbin.durationNanoseconds { player?.engineLengthDidChange(microseconds: duration / 1000) }
        events.streamReady(subtitleURI: nil)
    }

    private func startRamp(seconds: Double) {
        crossfade.ramp = (seconds, 0)
        crossfade.lastTick = ContinuousClock.now
        crossfade.tickScheduled = false
        scheduleCrossfadeTick(afterMilliseconds: 30)
    }

    /// A crossfade started ahead is dropped (a load, a stop, or it failed): the current stream goes on alone.
    func abandonIncoming(failed: Bool = false) {
        guard let incoming = crossfade.incoming else { return }
        crossfade.incoming = nil
        if failed { crossfade.failedURI = incoming.uri } else { handOverPrepared() }
        incoming.playbin.stop()
        incoming.playbin.fade = 1
    }

    /// Makes `pipeline` the player's, its messages handled as such.
    private func use(_ pipeline: Playbin) {
        playbin = pipeline
        lastAnsweredPosition = nil
    }

    /// The pipeline that is not the player's now (made on first use, set up like the other).
    private func otherPipeline() -> Playbin? {
        if playbin !== main { return main }
        if let spare { return spare }
        guard let made = makeSpare() else { return nil }
        made.onMessage = { [unowned self, unowned made] message in self.route(message, from: made) }
        made.setRole(streamRole)
        made.outputDevice = main.outputDevice
        made.replayGain = main.replayGain
        made.wantsPitchKeeper = main.wantsPitchKeeper
        made.gain = main.gain
        made.isSilenced = main.isSilenced
        applyEqualizer(to: made)
        watchClock(of: made)
        spare = made
        return made
    }
}

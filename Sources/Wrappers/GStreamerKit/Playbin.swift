import CGStreamer
import CGStreamerShims
import Glibc

/// GStreamer set-up for the process.
public enum GStreamer {
    /// Initialises GStreamer once; safe to call again.
    public static func initialize() {
        gst_init(nil, nil)
    }

    public static func hasElement(_ factory: String) -> Bool {
        guard let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }
}

/// Whether GStreamer accepted a state change, and whether it completes later (`async`).
public enum StateChangeResult: Sendable, Equatable {
    case failure, success, async, noPreroll

    init(_ raw: GstStateChangeReturn) {
        switch raw {
        case GST_STATE_CHANGE_SUCCESS: self = .success
        case GST_STATE_CHANGE_ASYNC: self = .async
        case GST_STATE_CHANGE_NO_PREROLL: self = .noPreroll
        default: self = .failure
        }
    }
}

/// A `playbin` pipeline playing audio to PulseAudio with a given stream role.
/// Bus messages are delivered to `onMessage` from the thread-default GLib main context. State changes, seeks and new
/// sources run on the pipeline's own thread (``PipelineThread``), so the caller never waits for them.
public final class Playbin {
    let element: UnsafeMutablePointer<GstElement>
    /// The video sink bin, once ``enableVideo(windowHandle:)`` set one.
    var videoSink: UnsafeMutablePointer<GstElement>?
    private var watchID: guint = 0
    private let handoff = GaplessHandoff()
    let thread: PipelineThread
    /// Called for every bus message of the stream loaded now, on the main loop's thread.
    public var onMessage: ((PipelineMessage) -> Void)?

    var elementPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(element) }

    private let applicationName: String
    private let applicationID: String
    private let iconName: String
    private var sink: UnsafeMutableRawPointer?
    /// playbin's flags as last set (the pipeline thread sets them; reading them back could wait on a state change).
    var flags = UInt32(RP_PLAY_FLAG_AUDIO | RP_PLAY_FLAG_SOFT_VOLUME) {
        didSet {
            let flags = flags
            thread.perform { pipeline, _ in rp_object_set_flags(pipeline.raw, "flags", flags) }
        }
    }
    /// The newest load or stop asked of the pipeline thread.
    private(set) var generation: UInt64 = 0
    /// Set from a load until its marker arrives: until then the bus carries the previous stream's messages.
    private var awaitedGeneration: UInt64?

    /// The most bytes of any tag string that reach the audio sink.
    static let tagStringLimit: UInt32 = 1024

    /// - Parameters:
    ///   - role: the PulseAudio `media.role` of the stream (e.g. "music").
    ///   - applicationName: shown by sound settings as the stream's owner.
    ///   - applicationID: the app's desktop id; its streams form a stream-restore group of their own.
    public init?(role: String, applicationName: String, applicationID: String, iconName: String) {
        guard let element = gst_element_factory_make("playbin", "player") else { return nil }
        self.element = element
        self.applicationName = applicationName
        self.applicationID = applicationID
        self.iconName = iconName
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        rp_object_set_flags(UnsafeMutableRawPointer(element), "flags", flags)
        _ = rp_playbin_sound_only(element) // until enableVideo: no video sink of playbin's choosing, nothing decoded
        if let made = gst_element_factory_make("pulsesink", Self.audioOutputName) {
            let sinkPointer = UnsafeMutableRawPointer(made)
            sink = sinkPointer
            rp_object_set_string(sinkPointer, "client-name", applicationName)
            // pulsesink hands titles and artists to the sound server, which drops the connection over 64 KiB.
            _ = rp_limit_tag_strings(made, Self.tagStringLimit)
            // The gain stage goes in front of the sink, after playsink's queue, so it is heard at once.
            var gain: UnsafeMutablePointer<GstElement>?, equalizer: UnsafeMutablePointer<GstElement>?
            if let output = rp_audio_output_new(made, &gain, &equalizer) {
                gainStage = gain
                equalizerStage = equalizer
                rp_object_set_object(UnsafeMutableRawPointer(element), "audio-sink", UnsafeMutableRawPointer(output))
            } else {
                rp_object_set_object(UnsafeMutableRawPointer(element), "audio-sink", sinkPointer)
            }
        }
        thread = PipelineThread(element: element, sink: sink, holderClientName: applicationName + " (idle)")
        applyGain()
        setRole(role)
        keepsPitchAtOtherRates = GStreamer.hasElement("scaletempo")
        if let filter = freshAudioFilter() { rp_object_set_object(elementPointer, "audio-filter", filter.raw); gst_object_unref(filter.raw) }
        handoff.connect(to: element)
        rp_post_live_titles_early(element)
        let bus = gst_element_get_bus(element)
        rp_bus_drop_children_state_changes(bus, element)
        watchID = gst_bus_add_watch(bus, { _, message, userdata in
            guard let message, let userdata else { return 1 }
            let playbin = Unmanaged<Playbin>.fromOpaque(userdata).takeUnretainedValue()
            playbin.dispatch(PipelineMessage(message, pipeline: playbin.elementPointer))
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
        rp_bus_watch_not_blocked(watchID)
        gst_object_unref(UnsafeMutableRawPointer(bus))
    }

    deinit {
        for element in [gainStage, equalizerStage, leveller, limiter] { if let element { gst_object_unref(UnsafeMutableRawPointer(element)) } }
        if watchID != 0 { g_source_remove(watchID) }
        thread.finish(holding: ElementReference(pointer: element))
    }

    /// Passes on the messages of the stream loaded now; those still queued for an earlier one are dropped.
    private func dispatch(_ message: PipelineMessage) {
        switch message {
        case .streamBegins(let generation):
            if generation == awaitedGeneration { awaitedGeneration = nil }
            return
        case .stateRefused(let generation) where generation != self.generation:
            return
        default:
            guard awaitedGeneration == nil else { return }
        }
        onMessage?(message)
    }

    /// Whether the pipeline changes the playback rate without changing pitch (scaletempo is installed).
    public private(set) var keepsPitchAtOtherRates = false

    /// Whether the audio filters made from now on include scaletempo: set while a rate other than 1 is asked for.
    /// At rate 1 it would only cost memory (its plugin, the FFT library and its buffers: about 0.4 MiB resident).
    public var wantsPitchKeeper = false

    /// Whether the audio filter made last (the one in use, or the one the next stream plays through) has scaletempo.
    public private(set) var hasPitchKeeper = false

    /// Where the loaded stream ends (ns), when it is to end before the medium does: every seek keeps it (a seek
    /// after preroll first sets it). A stream handed over gaplessly, a load or a stop clears it.
    public private(set) var endNanoseconds: Int64?

    /// Loads `uri` from its start (with `subtitleURI`, nil: none) on ``outputDevice`` and moves to `state`,
    /// dropping any gapless handover; with `endNanoseconds`, seeks end the stream there. Returns at once; the
    /// pipeline thread does the rest.
    public func load(_ uri: String, subtitleURI: String?, state: ElementState, endNanoseconds: Int64? = nil) {
        self.endNanoseconds = endNanoseconds
        // A file over HTTP(S) is downloaded as it plays (uridecodebin's download buffering, to an unlinked file in
        // the cache folder), so demuxers read it in pull mode: in push mode GStreamer 1.22's oggdemux seeks for the
        // length while theoradec reads the headers, and after a stall the stream could fail as its data resumed.
        // Live streams (radio) are not downloaded: uridecodebin only does it for progressive media.
        let download = UInt32(RP_PLAY_FLAG_DOWNLOAD)
        let wanted = uri.hasPrefix("http://") || uri.hasPrefix("https://") ? flags | download : flags & ~download
        if wanted != flags { flags = wanted }
        handoff.reset()
        generation += 1
        awaitedGeneration = generation
        thread.load(generation: generation, source: StreamSource(uri: uri, subtitleURI: subtitleURI ?? "", outputDevice: outputDevice),
                    filter: freshAudioFilter(), state: state)
    }

    /// Loads the current stream again from its start (a new audio filter, the same URI and subtitle) in `state`.
    public func restart(state: ElementState) {
        generation += 1
        awaitedGeneration = generation
        thread.load(generation: generation, source: StreamSource(outputDevice: outputDevice), filter: freshAudioFilter(), state: state)
    }

    /// Unloads the stream (NULL); what was asked of the pipeline before and has not happened yet no longer will.
    public func stop() {
        endNanoseconds = nil
        handoff.reset()
        generation += 1
        awaitedGeneration = generation // no marker comes until the next load: nothing on the bus is of interest
        thread.stop(generation: generation, filter: freshAudioFilter())
    }

    /// Whether the pipeline thread has requests under way or waiting: reading playbin's own properties (its streams,
    /// say) could wait until they are done, which may be never.
    public var isChangingState: Bool { thread.isBusy }

    /// Moves the loaded stream to `state` (paused or playing); returns at once.
    public func setState(_ state: ElementState) {
        thread.setState(state, generation: generation)
    }

    /// Runs `body` on the loop once the pipeline thread has done everything asked before, or after `timeoutMilliseconds`
    /// if it has not (it may be stuck on a streaming thread or the sound server).
    public func whenSettled(timeoutMilliseconds: UInt32, _ body: @escaping () -> Void) {
        let once = LoopOnce(body)
        let box = Unmanaged.passRetained(once)
        let handle = OnceHandle(pointer: box.toOpaque())
        _ = box.retain() // one reference for each of the two callers below
        thread.afterPending {
            g_idle_add({ LoopOnce.fire($0) }, handle.pointer)
        }
        g_timeout_add(timeoutMilliseconds, { LoopOnce.fire($0) }, handle.pointer)
    }

    /// The PulseAudio sink streams open on from the next load; nil for the server's default. (Left to itself
    /// pulsesink opens each stream on the sink the previous one ended on, so once that sink is removed every later
    /// stream would fail.)
    public var outputDevice: String?

    /// The URI to continue with, without a gap, when the current stream is about to end (nil: stop at its end).
    public func setNextURI(_ uri: String?) { handoff.setNext(uri) }

    /// The next URI was handed over and its stream has not started yet.
    public var isSwitchPending: Bool { handoff.isSwitchPending }

    /// Call on stream-start: the URI (once) when the new stream is the one handed over by ``setNextURI(_:)``.
    public func takeGaplessSwitch() -> String? {
        guard let uri = handoff.takeSwitch() else { return nil }
        endNanoseconds = nil
        return uri
    }

    /// A new audio filter for the next stream (a reference for the pipeline thread to install): scaletempo (when
    /// ``wantsPitchKeeper``), then ReplayGain's elements. scaletempo frees its buffers when it stops but keeps its
    /// count of queued bytes; if the next stream at a rate other than 1 has a smaller frame size (fewer channels, a
    /// lower sample rate), it then moves that many bytes through the freed (NULL) buffer and the process crashes. A
    /// fresh element after every stop never carries that count over.
    private func freshAudioFilter() -> ElementReference? {
        var leveller: UnsafeMutablePointer<GstElement>?, limiter: UnsafeMutablePointer<GstElement>?
        let keepsPitch = keepsPitchAtOtherRates && wantsPitchKeeper
        guard let filter = rp_audio_filter_new(keepsPitch, replayGain != nil, &leveller, &limiter) else { return nil }
        hasPitchKeeper = keepsPitch
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(filter))
        for old in [self.leveller, self.limiter] { if let old { gst_object_unref(UnsafeMutableRawPointer(old)) } }
        self.leveller = leveller
        self.limiter = limiter
        applyReplayGain()
        return ElementReference(pointer: filter)
    }

    /// rgvolume and rglimiter inside the audio filter, when it was made with ReplayGain (references of ours).
    private var leveller: UnsafeMutablePointer<GstElement>?
    private var limiter: UnsafeMutablePointer<GstElement>?

    /// ReplayGain from the next stream loaded (nil: none); changes between album and track gain, pre-amplification
    /// and fallback apply at once to what plays. Set from off to on or back, it applies from the next load.
    public var replayGain: ReplayGainConfiguration? { didSet { applyReplayGain() } }

    /// Whether the audio filter in use levels loudness (made while ``replayGain`` was set).
    public var levelsLoudness: Bool { leveller != nil }

    /// The gain rgvolume applies to what plays now, in dB (tag gain or fallback, pre-amplification, clipping
    /// prevention included); nil without ReplayGain.
    public var appliedReplayGainDecibels: Double? {
        leveller.map { rp_object_get_double(UnsafeMutableRawPointer($0), "result-gain") }
    }

    /// Sets rgvolume's properties (it recomputes its gain at once) and turns the limiter on only where a positive
    /// gain could clip (rgvolume keeps tagged peaks under full scale itself; the limiter is for what has no peak).
    public func applyReplayGain() {
        guard let leveller, let replayGain else { return }
        let raw = UnsafeMutableRawPointer(leveller)
        rp_object_set_bool(raw, "album-mode", replayGain.albumMode)
        rp_object_set_double(raw, "pre-amp", replayGain.preampDecibels)
        // rgvolume adds the pre-amplification to the fallback too; untagged streams play at the fallback itself.
        rp_object_set_double(raw, "fallback-gain", replayGain.fallbackDecibels - replayGain.preampDecibels)
        let headroom = replayGain.fallbackPeak.map { peak in min(60, max(0, -20 * log10(max(peak, 1e-6)))) } ?? 0
        rp_object_set_double(raw, "headroom", headroom)
        if let limiter { rp_object_set_bool(UnsafeMutableRawPointer(limiter), "enabled", (appliedReplayGainDecibels ?? 0) > 0) }
    }

    /// The volume element in front of the audio sink (a reference of ours): the user's volume, ducking, silent mode.
    private var gainStage: UnsafeMutablePointer<GstElement>?
    /// equalizer-nbands before it (a reference of ours); nil without plugins-good.
    private var equalizerStage: UnsafeMutablePointer<GstElement>?

    /// Whether the output has an equalizer (GStreamer's plugins-good).
    public var hasEqualizer: Bool { equalizerStage != nil }

    /// Sets the equalizer's peak filters (centre frequencies in Hz, gains in dB, each band `bandwidthRatio` of its
    /// frequency wide) on what plays now; all gains 0 leaves it passing the sound through untouched.
    public func setEqualizer(frequencies: [Double], gains: [Double], bandwidthRatio: Double) {
        guard let equalizerStage, frequencies.count == gains.count else { return }
        rp_equalizer_set_bands(equalizerStage, frequencies, gains, Int32(clamping: gains.count), bandwidthRatio)
    }

    private func applyGain() {
        guard let gainStage else { return }
        rp_object_set_double(UnsafeMutableRawPointer(gainStage), "volume", gain * fade)
        rp_object_set_bool(UnsafeMutableRawPointer(gainStage), "mute", isSilenced)
    }

    /// Position in nanoseconds, when the pipeline knows it.
    public var positionNanoseconds: Int64? {
        answer { element in
            var position: gint64 = -1
            return gst_element_query_position(element, GST_FORMAT_TIME, &position) != 0 && position >= 0 ? Int64(position) : nil
        }
    }

    /// The time of the audio sink's own clock (the one the pipeline runs on while it plays sound): it runs only while
    /// the sink plays and otherwise holds its last time, never going back, from one stream to the next. Nil before the
    /// first stream reached PAUSED, and while the pipeline thread is busy (``isChangingState``).
    public var audioClockNanoseconds: UInt64? { thread.isBusy ? nil : thread.audioClockNanoseconds }

    /// Duration in nanoseconds, when known.
    public var durationNanoseconds: Int64? {
        answer { element in
            var duration: gint64 = -1
            return gst_element_query_duration(element, GST_FORMAT_TIME, &duration) != 0 && duration > 0 ? Int64(duration) : nil
        }
    }

    /// Whether the current stream can seek in time.
    public var isSeekable: Bool {
        answer { element -> Bool? in
            guard let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return nil }
            defer { gst_query_unref(query) }
            guard gst_element_query(element, query) != 0 else { return nil }
            var seekable: gboolean = 0
            gst_query_parse_seeking(query, nil, &seekable, nil, nil)
            return seekable != 0
        } ?? false
    }

    /// Asks the sinks, never playbin itself: playbin answers queries under a lock its state changes hold, and a
    /// state change can wait for good on a streaming thread (the loop once blocked in a duration query so). A sink
    /// answers position itself and passes the rest upstream through the pads. The audio sink first, then video's.
    private func answer<T>(_ query: (UnsafeMutablePointer<GstElement>) -> T?) -> T? {
        for candidate in [sink?.assumingMemoryBound(to: GstElement.self), videoSink] {
            if let candidate, let answer = query(candidate) { return answer }
        }
        return nil
    }

    /// Flushing, accurate seek to `nanoseconds`, playing on at `rate` up to ``endNanoseconds`` (on the pipeline
    /// thread; returns at once).
    public func seek(toNanoseconds nanoseconds: Int64, rate: Double) {
        thread.seek(toNanoseconds: nanoseconds, rate: rate, end: endNanoseconds, generation: generation)
    }

    /// The name of the audio sink element (errors it posts are output failures, not media failures).
    public static let audioOutputName = "audio-output"

    /// The PulseAudio `media.role` of streams opened from now on (the next stream loaded).
    ///
    /// The stream names its own stream-restore group (`module-stream-restore.id`, by application id): a stock
    /// PulseAudio otherwise groups it by role with every other app's streams of that role, restores onto it what
    /// they left (a volume Reprise had ducked them to, say) and stores its volume back into their entry. What the
    /// user sets on Reprise's stream is remembered for Reprise.
    public func setRole(_ role: String) {
        let group = "sink-input-by-application-id:" + applicationID
        let properties = "props,media.role=\(role),application.name=\(applicationName),application.id=\(applicationID),"
            + "application.icon_name=\(iconName),module-stream-restore.id=\"\(group)\""
        thread.perform { _, sink in if let sink { _ = rp_object_set_structure(sink.raw, "stream-properties", properties) } }
    }

    /// Silences the audio inside the pipeline (the sound server's stream keeps its own volume and mute, so no
    /// stream-restore database learns it).
    public var isSilenced = false { didSet { applyGain() } }

    /// Linear gain inside the pipeline, 1.0 = unchanged (at most 10). The sound server's stream volume is the user's.
    public var gain = 1.0 { didSet { applyGain() } }

    /// A crossfade's share of the gain, 0…1 (1: none under way).
    public var fade = 1.0 { didSet { applyGain() } }
}

/// A body run once on the loop, by whichever of two callers comes first (both run on the loop thread).
private final class LoopOnce {
    private var body: (() -> Void)?
    init(_ body: @escaping () -> Void) { self.body = body }

    /// Runs the body unless it ran, and drops the caller's reference. A GLib source callback.
    static func fire(_ pointer: UnsafeMutableRawPointer?) -> gboolean {
        guard let pointer else { return 0 }
        let box = Unmanaged<LoopOnce>.fromOpaque(pointer)
        let once = box.takeUnretainedValue()
        let body = once.body
        once.body = nil
        box.release()
        body?()
        return 0
    }
}

private struct OnceHandle: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }

/// ReplayGain as rgvolume applies it: album or track gain, pre-amplification and the gain of untagged streams (dB).
public struct ReplayGainConfiguration: Sendable, Equatable {
    public var albumMode: Bool
    public var preampDecibels: Double
    public var fallbackDecibels: Double
    /// The true peak (linear) of a stream without tags whose fallback was measured: rgvolume counts an untagged
    /// stream's peak as full scale and so holds any positive gain at the headroom; with the measured peak the
    /// headroom is what that peak leaves below full scale. Nil: none measured (headroom 0).
    public var fallbackPeak: Double?

    public init(albumMode: Bool, preampDecibels: Double, fallbackDecibels: Double, fallbackPeak: Double? = nil) {
        self.albumMode = albumMode
        self.preampDecibels = preampDecibels
        self.fallbackDecibels = fallbackDecibels
        self.fallbackPeak = fallbackPeak
    }
}

import CGStreamer
import CGStreamerShims

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
/// Bus messages are delivered to `onMessage` from the thread-default GLib main context.
public final class Playbin {
    let element: UnsafeMutablePointer<GstElement>
    /// The video sink bin, once ``enableVideo(windowHandle:)`` set one.
    var videoSink: UnsafeMutablePointer<GstElement>?
    private var watchID: guint = 0
    private let handoff = GaplessHandoff()
    /// Called for every bus message, on the main loop's thread.
    public var onMessage: ((PipelineMessage) -> Void)?

    var elementPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(element) }

    /// - Parameters:
    ///   - role: the PulseAudio `media.role` of the stream (e.g. "music").
    ///   - applicationName: shown by sound settings as the stream's owner.
    private let applicationName: String
    private let iconName: String
    private var sink: UnsafeMutableRawPointer?

    /// The most bytes of any tag string that reach the audio sink.
    static let tagStringLimit: UInt32 = 1024

    public init?(role: String, applicationName: String, iconName: String) {
        guard let element = gst_element_factory_make("playbin", "player") else { return nil }
        self.element = element
        self.applicationName = applicationName
        self.iconName = iconName
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        rp_object_set_flags(elementPointer, "flags", UInt32(RP_PLAY_FLAG_AUDIO | RP_PLAY_FLAG_SOFT_VOLUME))
        if let made = gst_element_factory_make("pulsesink", Self.audioOutputName) {
            let sinkPointer = UnsafeMutableRawPointer(made)
            sink = sinkPointer
            rp_object_set_string(sinkPointer, "client-name", applicationName)
            // pulsesink hands titles and artists to the sound server, which drops the connection over 64 KiB.
            _ = rp_limit_tag_strings(made, Self.tagStringLimit)
            setRole(role)
            rp_object_set_object(elementPointer, "audio-sink", sinkPointer)
        }
        keepsPitchAtOtherRates = GStreamer.hasElement("scaletempo")
        installFreshAudioFilter()
        handoff.connect(to: element)
        let bus = gst_element_get_bus(element)
        watchID = gst_bus_add_watch(bus, { _, message, userdata in
            guard let message, let userdata else { return 1 }
            let playbin = Unmanaged<Playbin>.fromOpaque(userdata).takeUnretainedValue()
            playbin.onMessage?(PipelineMessage(message, pipeline: playbin.elementPointer))
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
        gst_object_unref(UnsafeMutableRawPointer(bus))
    }

    deinit {
        _ = gst_element_set_state(element, GST_STATE_NULL)
        if let gainStage { gst_object_unref(UnsafeMutableRawPointer(gainStage)) }
        if watchID != 0 { g_source_remove(watchID) }
        gst_object_unref(elementPointer)
        if let mainLoopHolder {
            _ = gst_element_set_state(mainLoopHolder, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(mainLoopHolder))
        }
    }

    /// Whether the pipeline changes the playback rate without changing pitch (scaletempo is its audio filter).
    public private(set) var keepsPitchAtOtherRates = false

    /// Sets the URI to load on the next change from NULL/READY, dropping any gapless handover. Its stream opens
    /// on ``outputDevice``.
    public func setURI(_ uri: String) {
        handoff.reset()
        if let sink { rp_object_set_string(sink, "device", outputDevice) }
        rp_object_set_string(elementPointer, "uri", uri)
    }

    /// The PulseAudio sink streams open on from the next ``setURI(_:)``; nil for the server's default. (Left to
    /// itself pulsesink opens each stream on the sink the previous one ended on, so once that sink is removed
    /// every later stream would fail.)
    public var outputDevice: String?

    /// The URI to continue with, without a gap, when the current stream is about to end (nil: stop at its end).
    public func setNextURI(_ uri: String?) { handoff.setNext(uri) }

    /// The next URI was handed over and its stream has not started yet.
    public var isSwitchPending: Bool { handoff.isSwitchPending }

    /// Call on stream-start: the URI (once) when the new stream is the one handed over by ``setNextURI(_:)``.
    public func takeGaplessSwitch() -> String? { handoff.takeSwitch() }

    @discardableResult
    public func setState(_ state: ElementState) -> StateChangeResult {
        if state.raw != GST_STATE_NULL { holdPulseMainLoop() }
        let result = StateChangeResult(gst_element_set_state(element, state.raw))
        if state.raw == GST_STATE_NULL || state.raw == GST_STATE_READY { installFreshAudioFilter() }
        return result
    }

    /// Gives playbin a new audio filter (used from the next stream on): scaletempo, then Reprise's own gain stage.
    /// scaletempo frees its buffers when it stops but keeps its count of queued bytes; if the next stream at a rate
    /// other than 1 has a smaller frame size (fewer channels, a lower sample rate), it then moves that many bytes
    /// through the freed (NULL) buffer and the process crashes. A fresh element after every stop never carries that
    /// count over. The new gain stage starts at the current gain and mute.
    private func installFreshAudioFilter() {
        var gain: UnsafeMutablePointer<GstElement>?
        guard let filter = rp_audio_filter_new(keepsPitchAtOtherRates, &gain), let gain else { return }
        rp_object_set_object(elementPointer, "audio-filter", UnsafeMutableRawPointer(filter))
        if let old = gainStage { gst_object_unref(UnsafeMutableRawPointer(old)) }
        gainStage = gain
        applyGain()
    }

    /// The volume element inside Reprise's audio filter (a reference of ours).
    private var gainStage: UnsafeMutablePointer<GstElement>?

    private func applyGain() {
        guard let gainStage else { return }
        rp_object_set_double(UnsafeMutableRawPointer(gainStage), "volume", gain)
        rp_object_set_bool(UnsafeMutableRawPointer(gainStage), "mute", isSilenced)
    }

    /// An idle pulsesink kept in READY (its own client connection, no stream) for the life of the pipeline.
    /// pulsesink shares one PulseAudio main loop among all its instances and frees it when the last one goes to
    /// NULL; a caps query or tag event reaching our sink from a streaming thread still running at that moment
    /// then asserts on the freed loop and aborts the process. With this one holding it, the loop is never freed.
    /// It cannot reach READY while there is no sound server, so it is tried again on every later state change.
    private var mainLoopHolder: UnsafeMutablePointer<GstElement>?

    private func holdPulseMainLoop() {
        guard mainLoopHolder == nil, sink != nil, let holder = gst_element_factory_make("pulsesink", "main-loop-holder") else { return }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(holder))
        // A client name of its own, so it never shares (and keeps alive) the context our stream uses.
        rp_object_set_string(UnsafeMutableRawPointer(holder), "client-name", applicationName + " (idle)")
        if gst_element_set_state(holder, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE {
            _ = gst_element_set_state(holder, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(holder))
            return
        }
        mainLoopHolder = holder
    }

    /// The state the pipeline is in now (not waiting for pending changes).
    public var currentState: ElementState {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        _ = gst_element_get_state(element, &current, &pending, 0)
        return ElementState(current)
    }

    /// Position in nanoseconds, when the pipeline knows it.
    public var positionNanoseconds: Int64? {
        var position: gint64 = -1
        guard gst_element_query_position(element, GST_FORMAT_TIME, &position) != 0, position >= 0 else { return nil }
        return Int64(position)
    }

    /// Duration in nanoseconds, when known.
    public var durationNanoseconds: Int64? {
        var duration: gint64 = -1
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &duration) != 0, duration > 0 else { return nil }
        return Int64(duration)
    }

    /// Whether the current stream can seek in time.
    public var isSeekable: Bool {
        guard let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return false }
        defer { gst_query_unref(query) }
        guard gst_element_query(element, query) != 0 else { return false }
        var seekable: gboolean = 0
        gst_query_parse_seeking(query, nil, &seekable, nil, nil)
        return seekable != 0
    }

    /// Flushing, accurate seek to `nanoseconds`, playing on at `rate`.
    public func seek(toNanoseconds nanoseconds: Int64, rate: Double) -> Bool {
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        return gst_element_seek(element, rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(max(0, nanoseconds)),
                                GST_SEEK_TYPE_NONE, -1) != 0
    }

    /// The name of the audio sink element (errors it posts are output failures, not media failures).
    public static let audioOutputName = "audio-output"

    /// The PulseAudio `media.role` of streams opened from now on (the next stream loaded).
    public func setRole(_ role: String) {
        guard let sink else { return }
        _ = rp_object_set_structure(sink, "stream-properties",
                                    "props,media.role=\(role),application.name=\(applicationName),application.icon_name=\(iconName)")
    }

    /// Silences the audio inside the pipeline (the sound server's stream keeps its own volume and mute, so no
    /// stream-restore database learns it).
    public var isSilenced = false { didSet { applyGain() } }

    /// Linear gain inside the pipeline, 1.0 = unchanged (at most 10). The sound server's stream volume is the user's.
    public var gain = 1.0 { didSet { applyGain() } }
}

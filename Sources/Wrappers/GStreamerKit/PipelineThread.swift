import CGStreamer
import CGStreamerShims
import Dispatch
import LoopKit
import Synchronization

/// An element reference handed to the pipeline thread (GStreamer objects are thread-safe to hand over).
struct ElementReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstElement>
    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
}

/// The audio sink's clock, handed from the pipeline thread to readers on the loop.
struct ClockReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstClock>
    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
}

/// What a load changes before the new stream starts (nil fields: unchanged).
struct StreamSource: Sendable {
    var uri: String?
    var subtitleURI: String?
    var outputDevice: String?
}

/// Runs everything that may wait on the pipeline's streaming threads or on the sound server — state changes,
/// seeks, a new source — on one serial thread of its own, in the order asked. A state change takes locks a
/// streaming thread can hold for good (a demuxer stuck on hostile media) and pulsesink waits for the sound server
/// (which may have stopped answering); on the loop either would stop every reply. A request made for a load that a
/// newer load (or stop) has replaced is skipped. The loop learns where a new stream's messages begin from a marker
/// posted on the pipeline's bus, in order with the pipeline's own messages.
final class PipelineThread: @unchecked Sendable {
    /// The thread itself, kept for the pipeline's life; a dispatch queue where none can be had.
    private let thread = StandingThread()
    private let fallback = DispatchQueue(label: "reprise.pipeline", qos: .userInitiated)
    private let element: ElementReference
    private let sink: ElementReference?
    private let holderClientName: String
    /// The newest load (or stop) asked for; requests of older ones are skipped.
    private let newest = Atomic<UInt64>(0)
    /// Touched only on the pipeline thread (see ``holdPulseMainLoop()``).
    private var mainLoopHolder: UnsafeMutablePointer<GstElement>?
    /// The last seek asked of the loaded stream (touched only on the pipeline thread; see ``setState(_:generation:)``).
    private var lastSeek: (nanoseconds: Int64, rate: Double, end: Int64?)?
    /// The audio sink's own clock, taken on this thread once the sink has left READY (see ``captureAudioClock()``).
    private let audioClock = Mutex<ClockReference?>(nil)

    init(element: UnsafeMutablePointer<GstElement>, sink: UnsafeMutableRawPointer?, holderClientName: String) {
        self.element = ElementReference(pointer: element)
        self.sink = sink.map { ElementReference(pointer: $0.assumingMemoryBound(to: GstElement.self)) }
        self.holderClientName = holderClientName
    }

    /// Load `generation`: the pipeline to NULL (dropping the previous stream and the messages still queued for it),
    /// the new audio filter and source, READY, the marker for the loop, then `state`.
    func load(generation: UInt64, source: StreamSource, filter: ElementReference?, state: ElementState) {
        newest.store(generation, ordering: .relaxed)
        submit { [self] in
            defer { if let filter { gst_object_unref(filter.raw) } }
            guard isCurrent(generation) else { return }
            lastSeek = nil
            _ = gst_element_set_state(element.pointer, GST_STATE_NULL)
            if let filter { rp_object_set_object(element.raw, "audio-filter", filter.raw) }
            if let sink { rp_object_set_string(sink.raw, "device", source.outputDevice) }
            if let subtitle = source.subtitleURI { rp_object_set_string(element.raw, "suburi", subtitle.isEmpty ? nil : subtitle) }
            if let uri = source.uri {
                // A file over HTTP(S) is downloaded to a temporary file in the user's cache folder, which uridecodebin
                // does not make: on an account that has none yet, the stream would fail ("Could not create temp file").
                if uri.hasPrefix("http://") || uri.hasPrefix("https://") { _ = g_mkdir_with_parents(g_get_user_cache_dir(), 0o700) }
                rp_object_set_string(element.raw, "uri", uri)
            }
            holdPulseMainLoop()
            let ready = gst_element_set_state(element.pointer, GST_STATE_READY)
            rp_post_generation(element.pointer, PipelineMessage.streamBeginsName, generation)
            let result = ready == GST_STATE_CHANGE_FAILURE ? ready : gst_element_set_state(element.pointer, state.raw)
            if result == GST_STATE_CHANGE_FAILURE { rp_post_generation(element.pointer, PipelineMessage.stateRefusedName, generation) }
            captureAudioClock()
        }
    }

    /// Unloads (NULL) and installs the audio filter for the next stream; requests made before are skipped.
    func stop(generation: UInt64, filter: ElementReference?) {
        newest.store(generation, ordering: .relaxed)
        submit { [self] in
            lastSeek = nil
            _ = gst_element_set_state(element.pointer, GST_STATE_NULL)
            if let filter {
                rp_object_set_object(element.raw, "audio-filter", filter.raw)
                gst_object_unref(filter.raw)
            }
        }
    }

    /// A pause that comes while a flushing seek made in PLAYING is still prerolling makes the pipeline keep the
    /// running time from before the seek: its position then reads the seek's target plus the time played before it,
    /// for as long as it stays paused. The seek is made again once paused, which sets the time right.
    func setState(_ state: ElementState, generation: UInt64) {
        submit { [self] in
            guard isCurrent(generation) else { return }
            holdPulseMainLoop()
            let seekPrerolling = lastSeek != nil && state == .paused
                && gst_element_get_state(element.pointer, nil, nil, 0) == GST_STATE_CHANGE_ASYNC
            if gst_element_set_state(element.pointer, state.raw) == GST_STATE_CHANGE_FAILURE {
                rp_post_generation(element.pointer, PipelineMessage.stateRefusedName, generation)
            } else if seekPrerolling, let seek = lastSeek {
                Self.seek(element, to: seek.nanoseconds, rate: seek.rate, end: seek.end)
            }
            captureAudioClock()
        }
    }

    /// Flushing, accurate seek, the stream ending at `end` when given (it takes the pipeline's state lock, so it
    /// waits for any state change under way).
    func seek(toNanoseconds nanoseconds: Int64, rate: Double, end: Int64?, generation: UInt64) {
        submit { [self] in
            guard isCurrent(generation) else { return }
            lastSeek = (nanoseconds, rate, end)
            Self.seek(element, to: nanoseconds, rate: rate, end: end)
        }
    }

    private static func seek(_ element: ElementReference, to nanoseconds: Int64, rate: Double, end: Int64?) {
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        _ = gst_element_seek(element.pointer, rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(max(0, nanoseconds)),
                             end == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET, end.map { gint64($0) } ?? -1)
    }

    /// Runs `body` with the pipeline and its audio sink, in order with the other requests: every property change
    /// of either goes through here (playbin and pulsesink do not expect one while they change state).
    func perform(_ body: @escaping @Sendable (_ pipeline: ElementReference, _ audioSink: ElementReference?) -> Void) {
        submit { [self] in body(element, sink) }
    }

    /// Runs `body` on the pipeline thread once everything asked before has been done.
    func afterPending(_ body: @escaping @Sendable () -> Void) { submit(body) }

    /// The pipeline and the idle sink to NULL, then both references dropped: the end of the pipeline's life.
    func finish(holding element: ElementReference) {
        submit { [self] in
            _ = gst_element_set_state(element.pointer, GST_STATE_NULL)
            if let clock = audioClock.withLock({ taken in defer { taken = nil }; return taken }) { gst_object_unref(clock.raw) }
            gst_object_unref(element.raw)
            if let holder = mainLoopHolder {
                _ = gst_element_set_state(holder, GST_STATE_NULL)
                gst_object_unref(UnsafeMutableRawPointer(holder))
                mainLoopHolder = nil
            }
        }
        thread?.end()
    }

    /// The audio sink keeps the clock it makes for its life, but asking it for the clock takes its ring buffer's lock,
    /// which pulsesink holds while it waits for the sound server (and which reads as no clock until the sink has left
    /// READY): it is asked once, here, after a state change.
    private func captureAudioClock() {
        guard let sink, audioClock.withLock({ $0 == nil }),
              let clock = gst_element_provide_clock(sink.pointer) else { return }
        audioClock.withLock { $0 = ClockReference(pointer: clock) }
    }

    /// The time of the audio sink's clock; nil before the sink first left READY. Read it only while the thread is not
    /// busy (``isBusy``): the clock reads the sink's ring buffer, which a state change under way may release.
    var audioClockNanoseconds: UInt64? {
        guard let clock = audioClock.withLock({ taken in taken.map { ClockReference(pointer: gst_object_ref($0.raw)
                                                                          .assumingMemoryBound(to: GstClock.self)) } })
        else { return nil }
        defer { gst_object_unref(clock.raw) }
        let time = gst_clock_get_time(clock.pointer)
        return time == UInt64.max ? nil : UInt64(time) // UInt64.max: GST_CLOCK_TIME_NONE
    }

    /// Requests asked for and not yet done.
    private let pending = Atomic<Int>(0)

    /// Whether a request is under way or waiting: reading playbin's properties now could wait on it.
    var isBusy: Bool { pending.load(ordering: .acquiring) > 0 }

    private func submit(_ body: @escaping @Sendable () -> Void) {
        pending.add(1, ordering: .relaxed)
        let request: @Sendable () -> Void = { [self] in
            body()
            pending.subtract(1, ordering: .releasing)
        }
        if let thread { thread.submit(request) } else { fallback.async(execute: request) }
    }

    private func isCurrent(_ generation: UInt64) -> Bool { generation >= newest.load(ordering: .relaxed) }

    /// An idle pulsesink kept in READY (its own client connection, no stream) for the life of the pipeline.
    /// pulsesink shares one PulseAudio main loop among all its instances and frees it when the last one goes to
    /// NULL; a caps query or tag event reaching our sink from a streaming thread still running at that moment
    /// then asserts on the freed loop and aborts the process. With this one holding it, the loop is never freed.
    /// It cannot reach READY while there is no sound server, so it is tried again before every later state change.
    private func holdPulseMainLoop() {
        guard mainLoopHolder == nil, sink != nil, let holder = gst_element_factory_make("pulsesink", "main-loop-holder") else { return }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(holder))
        // A client name of its own, so it never shares (and keeps alive) the context our stream uses.
        rp_object_set_string(UnsafeMutableRawPointer(holder), "client-name", holderClientName)
        if gst_element_set_state(holder, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE {
            _ = gst_element_set_state(holder, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(holder))
            return
        }
        mainLoopHolder = holder
    }
}

import CGStreamer
import CGStreamerShims

/// A GStreamer element state.
public enum ElementState: Sendable, Equatable {
    case voidPending, null, ready, paused, playing

    init(_ raw: GstState) {
        switch raw {
        case GST_STATE_NULL: self = .null
        case GST_STATE_READY: self = .ready
        case GST_STATE_PAUSED: self = .paused
        case GST_STATE_PLAYING: self = .playing
        default: self = .voidPending
        }
    }

    var raw: GstState {
        switch self {
        case .voidPending: GST_STATE_VOID_PENDING
        case .null: GST_STATE_NULL
        case .ready: GST_STATE_READY
        case .paused: GST_STATE_PAUSED
        case .playing: GST_STATE_PLAYING
        }
    }
}

/// A message from the pipeline's bus, copied out of the C message so it can be kept and passed around.
/// A chapter of a stream's table of contents.
public struct TOCChapter: Sendable, Equatable {
    public let title: String?
    public let startNanoseconds: Int64
}

public enum PipelineMessage: Sendable, Equatable {
    case endOfStream
    case error(message: String, debug: String, source: String)
    case warning(message: String, source: String)
    case tags(StreamTags)
    /// The stream's table of contents: its chapters as (title, start in nanoseconds), in order.
    case chapters([TOCChapter])
    /// A live stream's title update (Shoutcast/Icecast `StreamTitle`, as one text), the moment it arrived.
    case streamTitle(String)
    /// The pipeline itself (not a child element) changed state.
    case stateChanged(old: ElementState, new: ElementState, pending: ElementState)
    case asyncDone
    case durationChanged
    case streamStart
    case buffering(percent: Int)
    case clockLost
    /// An element (e.g. pulsesink when the sound server corks the stream) asks for a state.
    case requestState(ElementState, source: String)
    /// An error or warning from an element no longer in the pipeline (a source of a stream already replaced,
    /// posting late from its own thread): it says nothing about the stream loaded now.
    case staleError(message: String, source: String)
    /// The pipeline thread is about to start the stream of load `generation`: what follows belongs to it.
    case streamBegins(generation: UInt64)
    /// The pipeline refused a state change asked for during load `generation`.
    case stateRefused(generation: UInt64)
    case other

    static let streamBeginsName = "reprise-stream-begins"
    static let stateRefusedName = "reprise-state-refused"

    /// Decodes `message`; `pipeline` tells the pipeline's own state changes from its children's.
    init(_ message: UnsafeMutablePointer<GstMessage>, pipeline: UnsafeMutableRawPointer) {
        let source = rp_message_source(message)
        let sourceName = String(cString: rp_object_name(source))
        switch rp_message_type(message) {
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>? = nil
            var debug: UnsafeMutablePointer<gchar>? = nil
            let isError = rp_message_type(message) == GST_MESSAGE_ERROR
            if isError { gst_message_parse_error(message, &error, &debug) } else { gst_message_parse_warning(message, &error, &debug) }
            let text = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
            let debugText = debug.map { String(cString: $0) } ?? ""
            if let error { g_error_free(error) }
            g_free(debug)
            if let source, gst_object_has_as_ancestor(source, pipeline.assumingMemoryBound(to: GstObject.self)) == 0 {
                self = .staleError(message: text, source: sourceName)
            } else {
                self = isError ? .error(message: text, debug: debugText, source: sourceName) : .warning(message: text, source: sourceName)
            }
        case GST_MESSAGE_TAG:
            var list: UnsafeMutablePointer<GstTagList>? = nil
            gst_message_parse_tag(message, &list)
            if let list {
                // The copy cut for the sound server: the whole list came just before it (below).
                self = rp_tag_list_is_cut_copy(list) ? .other : .tags(StreamTags(list))
                gst_tag_list_unref(list)
            } else {
                self = .other
            }
        case GST_MESSAGE_STATE_CHANGED:
            guard UnsafeMutableRawPointer(source) == pipeline else { self = .other; return }
            var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            self = .stateChanged(old: ElementState(old), new: ElementState(new), pending: ElementState(pending))
        case GST_MESSAGE_ASYNC_DONE:
            self = .asyncDone
        case GST_MESSAGE_DURATION_CHANGED:
            self = .durationChanged
        case GST_MESSAGE_STREAM_START:
            self = .streamStart
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message, &percent)
            self = .buffering(percent: Int(percent))
        case GST_MESSAGE_CLOCK_LOST:
            self = .clockLost
        case GST_MESSAGE_APPLICATION:
            var generation: UInt64 = 0
            if rp_message_generation(message, Self.streamBeginsName, &generation) {
                self = .streamBegins(generation: generation)
            } else if rp_message_generation(message, Self.stateRefusedName, &generation) {
                self = .stateRefused(generation: generation)
            } else {
                self = .other
            }
        case GST_MESSAGE_TOC:
            let limit: Int32 = 2000
            var starts = [Int64](repeating: 0, count: Int(limit))
            var titles = [UnsafeMutablePointer<CChar>?](repeating: nil, count: Int(limit))
            let count = Int(rp_message_toc_chapters(message, &starts, &titles, limit))
            self = .chapters((0..<count).map { index in
                defer { g_free(titles[index]) }
                return TOCChapter(title: titles[index].map { String(cString: $0) }, startNanoseconds: starts[index])
            })
        case GST_MESSAGE_ELEMENT:
            var cut: UnsafeMutablePointer<CChar>? = nil
            if let title = rp_message_stream_title(message) {
                self = .streamTitle(String(cString: title))
            } else if let list = rp_message_full_tags(message, &cut) {
                var tags = StreamTags(list)
                tags.cutForSoundServer = cut.map { String(cString: $0) }
                g_free(cut)
                gst_tag_list_unref(list)
                self = .tags(tags)
            } else {
                self = .other
            }
        case GST_MESSAGE_REQUEST_STATE:
            var state = GST_STATE_VOID_PENDING
            gst_message_parse_request_state(message, &state)
            self = .requestState(ElementState(state), source: sourceName)
        default:
            self = .other
        }
    }
}

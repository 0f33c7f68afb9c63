import CGStreamer
import CGStreamerShims

/// One audio or subtitle stream of the loaded media, as playbin numbers them.
public struct MediaStreamInfo: Sendable, Equatable {
    public var index: Int
    /// ISO 639 code from the stream's tags, when it has one.
    public var language: String?
    public var title: String?
    public var codec: String?
    /// The container the stream came from ("Matroska"…); nil for a stream read straight from a file (a sidecar subtitle).
    public var container: String?
}

/// The decoded size of the current video stream.
public struct VideoFormat: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Width ÷ height as displayed (the pixel aspect ratio applied).
    public var displayAspectRatio: Double

    public init(width: Int, height: Int, displayAspectRatio: Double) {
        self.width = width
        self.height = height
        self.displayAspectRatio = displayAspectRatio
    }
}

/// A decoded frame, mapped for reading while the closure given it runs: 32-bit BGRx pixels.
public struct VideoFrame {
    public let pixels: UnsafeRawPointer
    public let width: Int
    public let height: Int
    /// Bytes a row.
    public let stride: Int

    public init(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
    }
}

/// Keeps the frame callback alive for as long as the sink (the process's life).
private final class FrameCallback {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}

/// Where decoded video goes.
public enum VideoOutput: @unchecked Sendable {
    /// Frames kept for the application to draw (``Playbin/withLatestVideoFrame(_:)``): its X11 window.
    case frames
    /// waylandsink drawing into a subsurface of `surface` on the application's `display` connection (both C
    /// pointers, `wl_display *` and `wl_surface *`), scaled by the compositor; `size` is the surface's.
    case waylandSurface(display: UnsafeMutableRawPointer, surface: UnsafeMutableRawPointer, size: (width: Int, height: Int))
}

extension Playbin {
    /// Decodes video into `output` from now on. Call once, before loading; false when an element the sink needs is
    /// missing (video then stays off).
    public func enableVideo(output: VideoOutput, onFrame: @escaping () -> Void) -> Bool {
        guard case .waylandSurface(let display, let surface, let size) = output else { return enableVideo(onFrame: onFrame) }
        guard let sink = rp_video_sink_new_wayland(display, surface, Int32(size.width), Int32(size.height)) else { return false }
        return useVideoSink(sink)
    }

    /// Where in a Wayland surface the picture goes (its aspect kept inside, black around): the surface's size.
    public func setVideoRenderRectangle(x: Int, y: Int, width: Int, height: Int) {
        guard let videoSink else { return }
        rp_video_sink_set_render_rectangle(videoSink, Int32(x), Int32(y), Int32(width), Int32(height))
    }

    private func useVideoSink(_ sink: UnsafeMutablePointer<GstElement>) -> Bool {
        videoSink = sink
        rp_playbin_decode_video(element)
        let videoSink = ElementReference(pointer: sink)
        thread.perform { pipeline, _ in rp_object_set_object(pipeline.raw, "video-sink", videoSink.raw) }
        flags = UInt32(RP_PLAY_FLAG_AUDIO | RP_PLAY_FLAG_SOFT_VOLUME | RP_PLAY_FLAG_VIDEO | RP_PLAY_FLAG_TEXT)
        return true
    }

    /// Decodes video (and subtitles) from now on, keeping the latest frame; `onFrame` runs on the event loop after a
    /// new one arrived (read it with ``withLatestVideoFrame(_:)``). Call once, before loading. False when an
    /// element the sink needs is missing (video then stays off).
    public func enableVideo(onFrame: @escaping () -> Void) -> Bool {
        let callback = Unmanaged.passRetained(FrameCallback(onFrame)).toOpaque()
        guard let sink = rp_video_sink_new({ userdata in
            Unmanaged<FrameCallback>.fromOpaque(userdata!).takeUnretainedValue().handler()
        }, callback) else {
            Unmanaged<FrameCallback>.fromOpaque(callback).release()
            return false
        }
        return useVideoSink(sink)
    }

    /// The number of video streams in the loaded media.
    public var videoStreamCount: Int { Int(rp_object_get_int(elementPointer, "n-video")) }

    public var videoFormat: VideoFormat? {
        var width: Int32 = 0, height: Int32 = 0, parN: Int32 = 1, parD: Int32 = 1
        guard rp_playbin_video_format(element, &width, &height, &parN, &parD), width > 0, height > 0, parD > 0 else { return nil }
        let pixelAspect = parN > 0 ? Double(parN) / Double(parD) : 1
        return VideoFormat(width: Int(width), height: Int(height), displayAspectRatio: Double(width) * pixelAspect / Double(height))
    }

    /// Scales frames to `width`×`height` (nil: their own size) and crops the given edges.
    public func setVideoLayout(width: Int?, height: Int?, crop: (left: Int, top: Int, right: Int, bottom: Int)) {
        guard let videoSink else { return }
        rp_video_sink_set_layout(videoSink, Int32(width ?? 0), Int32(height ?? 0), Int32(crop.left), Int32(crop.top),
                                 Int32(crop.right), Int32(crop.bottom))
    }

    /// Runs `body` with the latest frame mapped, if there is one (on the event loop).
    public func withLatestVideoFrame(_ body: (VideoFrame) -> Void) {
        guard let videoSink else { return }
        var frame = rp_video_frame()
        guard rp_video_sink_map_latest(videoSink, &frame), let pixels = frame.data else { return }
        defer { rp_video_sink_unmap(videoSink) }
        body(VideoFrame(pixels: UnsafeRawPointer(pixels), width: Int(frame.width), height: Int(frame.height),
                        stride: Int(frame.stride)))
    }

    /// Drops the kept frame (a new stream loads).
    public func forgetVideoFrame() {
        if let videoSink { rp_video_sink_forget(videoSink) }
    }

    /// Decodes no more video from the next stream on (the display went away); what plays keeps its sound.
    public func disableVideo() {
        flags = UInt32(RP_PLAY_FLAG_AUDIO | RP_PLAY_FLAG_SOFT_VOLUME)
    }

    public var audioStreams: [MediaStreamInfo] { streams(count: "n-audio", signal: "get-audio-tags", codecTag: "audio-codec") }
    public var subtitleStreams: [MediaStreamInfo] { streams(count: "n-text", signal: "get-text-tags", codecTag: "subtitle-codec") }

    public var currentAudioStream: Int {
        get { Int(rp_object_get_int(elementPointer, "current-audio")) }
        set { setInt("current-audio", newValue) }
    }

    public var currentSubtitleStream: Int {
        get { Int(rp_object_get_int(elementPointer, "current-text")) }
        set { setInt("current-text", newValue) }
    }

    /// Whether subtitles are drawn (playbin's text flag).
    public var showsSubtitles: Bool {
        get { flags & UInt32(RP_PLAY_FLAG_TEXT) != 0 }
        set { if newValue { flags |= UInt32(RP_PLAY_FLAG_TEXT) } else { flags &= ~UInt32(RP_PLAY_FLAG_TEXT) } }
    }

    private func setInt(_ name: String, _ value: Int) {
        let value = Int32(clamping: value)
        thread.perform { pipeline, _ in rp_object_set_int(pipeline.raw, name, value) }
    }

    /// A subtitle file shown with the next stream loaded (nil: none).
    public func setSubtitleURI(_ uri: String?) {
        thread.perform { pipeline, _ in rp_object_set_string(pipeline.raw, "suburi", uri) } // in order with its load
    }

    private func streams(count property: String, signal: String, codecTag: String) -> [MediaStreamInfo] {
        let count = Int(rp_object_get_int(elementPointer, property))
        return (0..<max(0, min(count, 64))).map { index in
            func tag(_ name: String) -> String? {
                guard let value = rp_playbin_stream_tag(element, signal, Int32(index), name) else { return nil }
                defer { g_free(value) }
                return String(cString: value)
            }
            return MediaStreamInfo(index: index, language: tag("language-code"), title: tag("title"), codec: tag(codecTag),
                                   container: tag("container-format"))
        }
    }
}

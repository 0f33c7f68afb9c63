import CGStreamer
import CGStreamerPbutils
import CGStreamerShims

/// What GstDiscoverer learned about one URI without playing it.
public struct DiscoveredMedia: Sendable {
    public let uri: String
    /// Nil when the URI could be read (`error` says why not).
    public let error: String?
    public let tags: StreamTags
    public let durationNanoseconds: Int64?
    public let hasAudio: Bool
    /// The first embedded picture (cover art), when there is one no larger than the limit.
    public let image: EmbeddedImage?

    public init(uri: String, error: String?, tags: StreamTags, durationNanoseconds: Int64?, hasAudio: Bool, image: EmbeddedImage?) {
        self.uri = uri
        self.error = error
        self.tags = tags
        self.durationNanoseconds = durationNanoseconds
        self.hasAudio = hasAudio
        self.image = image
    }
}

/// An embedded picture's bytes and media type (e.g. "image/jpeg").
public struct EmbeddedImage: Sendable {
    public let bytes: [UInt8]
    public let mediaType: String

    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }
}

/// Reads tags, duration and embedded pictures of one URI at a time on GStreamer's threads, reporting
/// on the main loop (the thread-default GLib context at ``start()``).
public final class Discoverer {
    private let discoverer: UnsafeMutablePointer<GstDiscoverer>
    private let imageLimit: Int
    /// Called on the main loop once for every URI given to ``discover(_:)``.
    public var onDiscovered: ((DiscoveredMedia) -> Void)?

    /// - Parameters:
    ///   - timeoutSeconds: how long one URI may take before it is reported as failed.
    ///   - imageLimit: embedded pictures larger than this many bytes are ignored.
    public init?(timeoutSeconds: UInt64, imageLimit: Int) {
        var error: UnsafeMutablePointer<GError>? = nil
        guard let discoverer = gst_discoverer_new(GstClockTime(timeoutSeconds * 1_000_000_000), &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        self.discoverer = discoverer
        self.imageLimit = imageLimit
        let handler: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<GError>?,
                                     UnsafeMutableRawPointer?) -> Void = { _, info, error, userdata in
            guard let info, let userdata else { return }
            let owner = Unmanaged<Discoverer>.fromOpaque(userdata).takeUnretainedValue()
            owner.onDiscovered?(owner.describe(info, error: error))
        }
        g_signal_connect_data(UnsafeMutableRawPointer(discoverer), "discovered", unsafeBitCast(handler, to: GCallback.self),
                              Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
    }

    deinit {
        gst_discoverer_stop(discoverer)
        g_object_unref(UnsafeMutableRawPointer(discoverer))
    }

    public func start() { gst_discoverer_start(discoverer) }

    /// Queues `uri`; false when the discoverer refused it at once.
    public func discover(_ uri: String) -> Bool { gst_discoverer_discover_uri_async(discoverer, uri) != 0 }

    /// Reads `uri` now, on the calling thread (a discoverer that was never started; for a worker thread).
    public func discoverNow(_ uri: String) -> DiscoveredMedia? {
        var error: UnsafeMutablePointer<GError>?
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        defer { if let error { g_error_free(error) } }
        guard let info else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return describe(info, error: error)
    }

    private func describe(_ info: OpaquePointer, error: UnsafeMutablePointer<GError>?) -> DiscoveredMedia {
        let uri = gst_discoverer_info_get_uri(info).map { String(cString: $0) } ?? ""
        let result = gst_discoverer_info_get_result(info)
        var failure: String?
        switch result {
        case GST_DISCOVERER_OK: failure = nil
        case GST_DISCOVERER_TIMEOUT: failure = "timed out reading the file"
        case GST_DISCOVERER_MISSING_PLUGINS: failure = "no decoder for this format"
        case GST_DISCOVERER_URI_INVALID: failure = "invalid URI"
        default: failure = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "cannot be read"
        }
        let audioStreams = gst_discoverer_info_get_audio_streams(info)
        let hasAudio = audioStreams != nil
        gst_discoverer_stream_info_list_free(audioStreams)
        var tags = StreamTags()
        var image: EmbeddedImage?
        if failure == nil, let list = gst_discoverer_info_get_tags(info) {
            let mutable = UnsafeMutablePointer(mutating: list)
            tags = StreamTags(mutable)
            image = Self.firstImage(in: mutable, limit: imageLimit)
        }
        let duration = gst_discoverer_info_get_duration(info)
        let known = failure == nil && duration != UInt64.max && duration > 0 && duration < UInt64(Int64.max)
        return DiscoveredMedia(uri: uri, error: failure, tags: tags, durationNanoseconds: known ? Int64(duration) : nil,
                               hasAudio: hasAudio, image: image)
    }

    private static func firstImage(in list: UnsafeMutablePointer<GstTagList>, limit: Int) -> EmbeddedImage? {
        for tag in ["image", "preview-image"] {
            var sample: OpaquePointer? = nil
            guard gst_tag_list_get_sample_index(list, tag, 0, &sample) != 0, let sample else { continue }
            defer { gst_sample_unref(sample) }
            guard let buffer = gst_sample_get_buffer(sample), gst_buffer_get_size(buffer) <= limit else { continue }
            var mediaType = "image/jpeg"
            if let caps = gst_sample_get_caps(sample), let structure = gst_caps_get_structure(caps, 0),
               let name = gst_structure_get_name(structure) {
                mediaType = String(cString: name)
            }
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { continue }
            defer { gst_buffer_unmap(buffer, &map) }
            guard let data = map.data, map.size > 0 else { continue }
            return EmbeddedImage(bytes: Array(UnsafeBufferPointer(start: data, count: Int(map.size))), mediaType: mediaType)
        }
        return nil
    }
}

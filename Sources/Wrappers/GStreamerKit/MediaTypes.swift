import CGStreamer
import CGStreamerShims

extension GStreamer {
    /// Whether an installed demuxer accepts media of the caps `caps` (a caps string such as "application/ogg").
    public static func demuxerAccepts(_ caps: String) -> Bool { rp_element_accepts(caps, 1) != 0 }

    /// Whether an installed decoder accepts a stream of the caps `caps` (e.g. "audio/x-vorbis").
    public static func decoderAccepts(_ caps: String) -> Bool { rp_element_accepts(caps, 0) != 0 }
}

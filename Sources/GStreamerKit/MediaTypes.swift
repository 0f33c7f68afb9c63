import CGStreamer
import CShims

extension GStreamer {
    /// MIME types of files the installed GStreamer plugins can play, including the names desktops
    /// use for them (e.g. `audio/flac` beside GStreamer's `audio/x-flac`). Sorted.
    public static func decodableMimeTypes() -> [String] {
        var types = Set<String>()
        if let list = rp_decodable_media_types() {
            var index = 0
            while let item = list[index] {
                types.insert(String(cString: item))
                index += 1
            }
            g_strfreev(list)
        }
        let aliases: [String: [String]] = [
            "application/ogg": ["audio/ogg", "audio/x-vorbis+ogg", "audio/x-flac+ogg", "audio/x-speex+ogg"],
            "audio/x-flac": ["audio/flac"],
            "audio/x-wav": ["audio/wav", "audio/x-wav"],
            "audio/x-opus": ["audio/x-opus+ogg", "audio/opus"],
            "audio/mpeg": ["audio/mp3", "audio/x-mp3", "audio/x-mpeg"],
            "video/quicktime": ["audio/mp4", "audio/x-m4a"],
            "video/x-matroska": ["audio/x-matroska"],
            "video/webm": ["audio/webm"],
        ]
        for (type, names) in aliases where types.contains(type) { types.formUnion(names) }
        return types.sorted()
    }
}

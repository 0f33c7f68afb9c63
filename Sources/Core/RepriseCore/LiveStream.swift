/// Live streams (internet radio): a network URI whose stream has no length. Their title updates (Shoutcast/Icecast
/// `StreamTitle`) carry title and artist together as one text, usually "Artist - Title".
public enum LiveStream {
    /// Schemes of streams that may be live.
    static let networkSchemes: Set<String> = ["http", "https", "icy", "icyx", "mms", "mmsh", "rtsp", "rtmp", "rtp",
                                              "udp", "srt"]

    /// Whether the entry at `uri` with this length plays as a live stream (no length, not seekable to an end).
    public static func isLive(uri: String, lengthMicroseconds: Int64?) -> Bool {
        guard lengthMicroseconds == nil, let scheme = MediaURI(uri)?.scheme.lowercased() else { return false }
        return networkSchemes.contains(scheme)
    }

    /// "Artist - Title" split at its first " - " when both sides have text; otherwise the whole text is the title.
    public static func splitTitle(_ text: String) -> (artist: String?, title: String) {
        let characters = Array(text)
        guard let at = characters.indices.dropLast(2).first(where: {
            characters[$0] == " " && characters[$0 + 1] == "-" && characters[$0 + 2] == " "
        }) else { return (nil, text) }
        let artist = String(characters[..<at]).trimmingWhitespace()
        let title = String(characters[(at + 3)...]).trimmingWhitespace()
        guard !artist.isEmpty, !title.isEmpty else { return (nil, text) }
        return (artist, title)
    }

    /// `current` tags after a stream title: title and artists replaced together (a title without an artist
    /// leaves none from the last song).
    public static func merge(streamTitle text: String, into current: TrackTags) -> TrackTags {
        var result = current
        let (artist, title) = splitTitle(text)
        result.title = title
        result.artists = artist.map { [$0] } ?? []
        return result
    }
}

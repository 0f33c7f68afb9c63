/// How a file says its names sort (ARTISTSORT, ALBUMARTISTSORT, ALBUMSORT: "Beatles, The"), as the index keeps them
/// for MPD clients (`ArtistSort`, `AlbumArtistSort`, `AlbumSort`); each cut as a tag's text is.
public struct SortNames: Sendable, Hashable {
    public var artist: String?
    public var albumArtist: String?
    public var album: String?

    public init(artist: String? = nil, albumArtist: String? = nil, album: String? = nil) {
        self.artist = artist
        self.albumArtist = albumArtist
        self.album = album
    }

    /// Within a tag's limits: empty names dropped, long ones cut (``TrackTags/maximumTextLength``).
    public func sanitized() -> SortNames {
        func text(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            guard value.utf8.count > TrackTags.maximumTextLength, value.count > TrackTags.maximumTextLength else { return value }
            return String(value.prefix(TrackTags.maximumTextLength - 1)) + "…"
        }
        return SortNames(artist: text(artist), albumArtist: text(albumArtist), album: text(album))
    }
}

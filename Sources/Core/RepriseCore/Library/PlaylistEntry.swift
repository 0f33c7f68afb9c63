/// One entry of a playlist as the library sees it: what the playlist points at and, when the index knows that
/// file, its track (title, artist, album, length).
public struct PlaylistEntry: Sendable, Equatable {
    public var uri: String
    public var track: LibraryTrack?

    public init(uri: String, track: LibraryTrack? = nil) {
        self.uri = uri
        self.track = track
    }

    /// The track's title, else the file name without its extension (or the URI when it is not a file).
    public var displayTitle: String { track?.displayTitle ?? TrackInfo.fallbackTitle(for: uri) }

    /// The entries of the playlist file at `playlist`'s path, each file looked up with `lookUp` (a path → the
    /// index's track); an unreadable file has none.
    public static func entries(of playlist: PlaylistInfo, fileSystem: FileSystem,
                               lookUp: (String) -> LibraryTrack?) -> [PlaylistEntry] {
        guard let file = try? MediaLocation.readPlaylist(at: playlist.path, format: playlist.format, in: fileSystem) else { return [] }
        return file.uris.map { uri in
            let parsed = MediaURI(uri)
            let path = parsed?.scheme == "file" ? parsed?.path : nil
            return PlaylistEntry(uri: uri, track: path.flatMap(lookUp))
        }
    }
}

/// The order of files expanded from a directory once their tags are known: album, disc, track number, then
/// path in natural order. Files without an album tag group by their folder.
struct AlbumOrderKey: Comparable {
    private let album: NaturalSortKey
    private let disc: Int
    private let track: Int
    private let path: NaturalSortKey

    init(_ entry: QueueEntry) {
        let path = MediaURI(entry.uri)?.path ?? entry.uri
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        album = NaturalSortKey(entry.tags.album ?? folder)
        disc = entry.tags.discNumber ?? 0
        track = entry.tags.trackNumber ?? 0
        self.path = NaturalSortKey(path)
    }

    static func < (a: AlbumOrderKey, b: AlbumOrderKey) -> Bool {
        if a.album != b.album { return a.album < b.album }
        if a.disc != b.disc { return a.disc < b.disc }
        if a.track != b.track { return a.track < b.track }
        return a.path < b.path
    }

    static func == (a: AlbumOrderKey, b: AlbumOrderKey) -> Bool {
        a.album == b.album && a.disc == b.disc && a.track == b.track && a.path == b.path
    }
}

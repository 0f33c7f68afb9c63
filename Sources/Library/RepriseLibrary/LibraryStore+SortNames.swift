import RepriseCore
import SQLiteKit

/// How each track's artist, album artist and album sort (MPD clients list and sort by `ArtistSort`, `AlbumSort`,
/// `AlbumArtistSort`).
extension LibraryStore {
    /// Version 5: the sort names. Rows from before are read again at the next pass (``tagsVersion`` 3).
    static func migrateToVersion5(_ database: Database) throws(SQLiteError) {
        try addColumns(["artist_sort TEXT", "album_artist_sort TEXT", "album_sort TEXT"], to: database, version: 5)
    }

    /// The values stored for `names`, in the columns' order.
    static func values(_ names: SortNames) -> [Statement.Value] {
        [names.artist, names.albumArtist, names.album].map { $0.map { .text($0) } ?? .null }
    }
}

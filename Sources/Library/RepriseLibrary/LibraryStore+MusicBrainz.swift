import RepriseCore
import SQLiteKit

/// MusicBrainz ids kept with each track (MPD clients list and find by them; MPRIS and listens carry them).
extension LibraryStore {
    /// Version 4: the recording's, release's, release track's, artists' and album artists' MusicBrainz ids (lists
    /// joined by ";"), and which version of the tag reading stored the row: rows from before are read again at the
    /// next pass, their measured loudness kept (the file is the same).
    static func migrateToVersion4(_ database: Database) throws(SQLiteError) {
        try addColumns(["mb_recording TEXT", "mb_release TEXT", "mb_release_track TEXT", "mb_artists TEXT",
                        "mb_album_artists TEXT", "tags_version INTEGER NOT NULL DEFAULT 0"], to: database, version: 4)
    }

    /// The version of what a row's tags hold: a row stored by an earlier one is read again even when its file did
    /// not change. 1: MusicBrainz ids. 2: every genre (joined by U+001F), not the first alone. 3: the sort names.
    /// 4: the encoding. 5: the further tags. 6: the tags' order. 7: an MP3's in mpd's order, its TIT1 and TPE4 as
    /// mpd names them. 8: the date as the file has it, and the later values of the one-valued tags. 9: an MP4's in
    /// mpd's order. 10: a Vorbis comment's values where the comment has them (one tag's between another's), every
    /// other format's tags as mpd's reader for it gives them. 11: a plain AIFF file's text chunks (NAME, AUTH, ANNO).
    static let tagsVersion = 11

    /// The values stored for `ids`, in the columns' order.
    static func values(_ ids: MusicBrainzIDs) -> [Statement.Value] {
        func text(_ value: String?) -> Statement.Value { value.map { .text($0) } ?? .null }
        func list(_ values: [String]) -> Statement.Value { values.isEmpty ? .null : .text(values.joined(separator: ";")) }
        return [text(ids.recording), text(ids.release), text(ids.releaseTrack), list(ids.artists), list(ids.albumArtists)]
    }

    /// The ids read back from the five columns from `first` (checked again: the index is a file like any other).
    static func musicBrainzIDs(_ statement: Statement, from first: Int32) -> MusicBrainzIDs {
        func one(_ column: Int32) -> String? { statement.text(column).flatMap { MusicBrainzIDs.id(in: [$0]) } }
        func list(_ column: Int32) -> [String] { statement.text(column).map { MusicBrainzIDs.ids(in: $0) } ?? [] }
        return MusicBrainzIDs(recording: one(first), release: one(first + 1), releaseTrack: one(first + 2),
                              artists: list(first + 3), albumArtists: list(first + 4))
    }
}

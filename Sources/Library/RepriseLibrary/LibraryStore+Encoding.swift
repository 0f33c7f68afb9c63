import RepriseCore
import SQLiteKit

/// How each track's audio is encoded (MPD clients see it as a song's `Format`), its further tags and their order,
/// its date as the file has it and the later values of its one-valued tags.
extension LibraryStore {
    /// Version 9: the DATE tag as the file has it, and the values past the first of title, album, date… (MPD lists
    /// them: ``FurtherValues/storedText``). Rows from before are read again at the next pass (``tagsVersion`` 8).
    static func migrateToVersion9(_ database: Database) throws(SQLiteError) {
        try addColumns(["date TEXT", "further_values TEXT"], to: database, version: 9)
    }

    /// Version 8: the order the file has its tags in (``TagOrder/storedText``). Rows from before are read again at the
    /// next pass (``tagsVersion`` 6).
    static func migrateToVersion8(_ database: Database) throws(SQLiteError) {
        try addColumns(["tag_order TEXT"], to: database, version: 8)
    }

    /// Version 7: the further tags (``MoreTags/storedText``). Rows from before are read again at the next pass
    /// (``tagsVersion`` 5).
    static func migrateToVersion7(_ database: Database) throws(SQLiteError) {
        try addColumns(["more_tags TEXT"], to: database, version: 7)
    }

    /// Version 6: the encoding (``AudioEncoding/storedText``). Rows from before are read again at the next pass
    /// (``tagsVersion`` 4).
    static func migrateToVersion6(_ database: Database) throws(SQLiteError) {
        try addColumns(["encoding TEXT"], to: database, version: 6)
    }

    /// What a row's `modified` (nanoseconds since 1970) and `encoding` tell; a value that is not one Reprise stored
    /// is left out (the database is input like any file).
    static func fileFacts(modified: Int64?, encoding: String?) -> FileFacts {
        FileFacts(modifiedSeconds: modified.flatMap { $0 >= 0 ? $0 / 1_000_000_000 : nil },
                  encoding: encoding.flatMap(AudioEncoding.init(storedText:)))
    }
}

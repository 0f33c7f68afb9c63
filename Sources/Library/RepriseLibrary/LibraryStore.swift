import Glibc
import RepriseCore
import SQLiteKit

/// The library's SQLite database (`$XDG_DATA_HOME/reprise/library.db`, WAL): one row per music file with its tags,
/// file identity and modification time, and a full-text index (FTS5, unicode61 without diacritics) over title,
/// artist, album artist, album, genre and year. The schema is versioned (`PRAGMA user_version`) and migrated; a
/// file that is not a database, is damaged, or comes from a newer Reprise is moved aside and rebuilt.
/// Used on the library's worker thread only.
public final class LibraryStore {
    public static let schemaVersion = 10
    let database: Database
    public let path: String

    /// What the store knows of a file, to tell whether it changed.
    public struct FileState: Sendable, Equatable {
        public var size: Int64
        public var modified: Int64
        public var available: Bool
        /// False when the row was stored by an earlier version of the tag reading (``tagsVersion``).
        public var tagsCurrent = true

        /// True when the file of `size` and `modified` needs no reading: the row is of that file, there, and whole.
        public func isCurrent(size: Int64, modified: Int64) -> Bool {
            self.size == size && self.modified == modified && available && tagsCurrent
        }
    }

    /// Opens the index; only a file that is damaged, not a database, or from a newer Reprise is moved aside and
    /// rebuilt. Any other error (busy, locked by another process, a full or read-only disk, a symbolic link) is
    /// thrown with the file left as it is: the caller tries again later.
    public init(path: String, log: (String) -> Void) throws(SQLiteError) {
        self.path = path
        do {
            database = try Self.open(path)
        } catch where error.isCorruption {
            log("library: \(path) is unusable (\(error)); moving it aside and building the library again")
            for suffix in ["", "-wal", "-shm"] { _ = rename(path + suffix, path + ".broken" + suffix) }
            database = try Self.open(path)
        }
    }

    private static func open(_ path: String) throws(SQLiteError) -> Database {
        // Private like the rest of what Reprise writes (SQLite gives its WAL and shared-memory files the database's mode).
        // Never through a symbolic link: a link there is refused, not followed to create or open its target.
        // Anything else that is not a regular file (a FIFO, a device, a socket, a folder) is no database: set aside.
        var found = stat()
        if RawPath.withCString(path, { lstat($0, &found) }) == 0 {
            switch found.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: throw SQLiteError.cannotOpen("\(path) is a symbolic link; not followed")
            default: throw SQLiteError.notADatabase("\(path) is not a regular file")
            }
        }
        let descriptor = RawPath.withCString(path) { Glibc.open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
        if descriptor >= 0 {
            var info = stat()
            let regular = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            if regular { fchmod(descriptor, 0o600) }
            close(descriptor)
            guard regular else { throw SQLiteError.cannotOpen("\(path) is not a regular file") }
        } else if errno == ELOOP {
            throw SQLiteError.cannotOpen("\(path) is a symbolic link; not followed")
        }
        let database = try Database(path: path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        // Reading the schema proves the file is a database at all.
        _ = try database.prepare("SELECT count(*) FROM sqlite_master").firstInt()
        let version = database.userVersion
        guard version <= schemaVersion else {
            throw SQLiteError(code: 26, message: "schema \(version) is newer than this Reprise's \(schemaVersion)")
        }
        if version < 1 { try migrateToVersion1(database) }
        if version < 2 { try migrateToVersion2(database) }
        if version < 3 { try migrateToVersion3(database) }
        if version < 4 { try migrateToVersion4(database) }
        if version < 5 { try migrateToVersion5(database) }
        if version < 6 { try migrateToVersion6(database) }
        if version < 7 { try migrateToVersion7(database) }
        if version < 8 { try migrateToVersion8(database) }
        if version < 9 { try migrateToVersion9(database) }
        if version < 10 { try migrateToVersion10(database) }
        _ = try database.prepare("SELECT count(*) FROM tracks").firstInt() // its own error: damaged, or busy
        if try !hasTextTriggers(database) { try rebuildTextIndex(database) } // a pass that ended with the process
        return database
    }

    private static func hasTextTriggers(_ database: Database) throws(SQLiteError) -> Bool {
        try database.prepare("""
            SELECT count(*) FROM sqlite_master WHERE type = 'trigger'
            AND name IN ('tracks_added', 'tracks_removed', 'tracks_changed')
            """).firstInt() == 3
    }

    private static func rebuildTextIndex(_ database: Database) throws(SQLiteError) {
        try database.execute("""
            BEGIN IMMEDIATE;
            INSERT INTO tracks_text(tracks_text) VALUES ('rebuild');
            \(textTriggers)
            COMMIT;
            """)
    }

    // MARK: The full-text index during a large pass

    /// True between ``suspendTextIndexing()`` and ``rebuildTextIndex()``.
    public private(set) var textIndexingSuspended = false

    /// Stops keeping the full-text index row by row, for a pass that writes thousands of rows: it rebuilds the index
    /// once at its end (``rebuildTextIndex()``), a quarter of the work (10,000 rows: 0.36 s of CPU row by row, 0.09 s
    /// rebuilt at once). Meanwhile searches do not find the rows written (none run: the pass holds the worker); a
    /// process that ends in between has the index rebuilt when it next opens it.
    public func suspendTextIndexing() throws(SQLiteError) {
        try database.execute("DROP TRIGGER IF EXISTS tracks_added; DROP TRIGGER IF EXISTS tracks_removed; "
                             + "DROP TRIGGER IF EXISTS tracks_changed")
        textIndexingSuspended = true
    }

    /// Builds the full-text index again from every row and goes back to keeping it row by row.
    public func rebuildTextIndex() throws(SQLiteError) {
        try Self.rebuildTextIndex(database)
        textIndexingSuspended = false
    }

    /// The triggers that keep the full-text index in step with `tracks`, row by row.
    static let textTriggers = """
        CREATE TRIGGER IF NOT EXISTS tracks_added AFTER INSERT ON tracks BEGIN
            INSERT INTO tracks_text(rowid, title, artist, album_artist, album, genre, year)
            VALUES (new.id, new.title, new.artist, new.album_artist, new.album, new.genre, new.year);
        END;
        CREATE TRIGGER IF NOT EXISTS tracks_removed AFTER DELETE ON tracks BEGIN
            INSERT INTO tracks_text(tracks_text, rowid, title, artist, album_artist, album, genre, year)
            VALUES ('delete', old.id, old.title, old.artist, old.album_artist, old.album, old.genre, old.year);
        END;
        CREATE TRIGGER IF NOT EXISTS tracks_changed AFTER UPDATE ON tracks BEGIN
            INSERT INTO tracks_text(tracks_text, rowid, title, artist, album_artist, album, genre, year)
            VALUES ('delete', old.id, old.title, old.artist, old.album_artist, old.album, old.genre, old.year);
            INSERT INTO tracks_text(rowid, title, artist, album_artist, album, genre, year)
            VALUES (new.id, new.title, new.artist, new.album_artist, new.album, new.genre, new.year);
        END;
        """

    private static func migrateToVersion1(_ database: Database) throws(SQLiteError) {
        try database.execute("""
            BEGIN;
            CREATE TABLE IF NOT EXISTS tracks(
                id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, folder TEXT NOT NULL, root TEXT NOT NULL,
                size INTEGER NOT NULL, modified INTEGER NOT NULL, title TEXT, artist TEXT, album TEXT, album_artist TEXT,
                genre TEXT, year INTEGER, disc INTEGER, track INTEGER, length INTEGER, cover TEXT,
                available INTEGER NOT NULL DEFAULT 1);
            CREATE INDEX IF NOT EXISTS tracks_folder ON tracks(folder);
            CREATE INDEX IF NOT EXISTS tracks_root ON tracks(root);
            CREATE INDEX IF NOT EXISTS tracks_album ON tracks(album COLLATE NOCASE);
            CREATE VIRTUAL TABLE IF NOT EXISTS tracks_text USING fts5(
                title, artist, album_artist, album, genre, year, content='tracks', content_rowid='id',
                tokenize='unicode61 remove_diacritics 2');
            \(textTriggers)
            PRAGMA user_version = 1;
            COMMIT;
            """)
    }

    /// Version 2: what TagLib reads in the same pass — lyrics and ReplayGain (or R128) gains and peaks. Files indexed
    /// before get them at their next change (or a rebuild).
    private static func migrateToVersion2(_ database: Database) throws(SQLiteError) {
        try addColumns(["lyrics TEXT", "track_gain REAL", "album_gain REAL", "track_peak REAL", "album_peak REAL"],
                       to: database, version: 2)
    }

    /// Version 10: no index on `root` or `folder`. A pass reads or marks a root's rows all at once, and a folder's
    /// tracks are found by a prefix no index serves (a scan either way; the outline's count by folder sorts 10,000
    /// rows in ~1 ms more); each index cost every row written a B-tree insert of a long path (10,000 rows: ~12 ms of
    /// a first index's CPU each).
    private static func migrateToVersion10(_ database: Database) throws(SQLiteError) {
        try database.execute("BEGIN; DROP INDEX IF EXISTS tracks_root; DROP INDEX IF EXISTS tracks_folder; PRAGMA user_version = 10; COMMIT;")
    }

    /// Adds `columns` (each "name TYPE [constraints]") to `tracks` and sets the schema's `version`, in one transaction.
    static func addColumns(_ columns: [String], to database: Database, version: Int) throws(SQLiteError) {
        let added = columns.map { "ALTER TABLE tracks ADD COLUMN \($0);" }.joined(separator: "\n")
        try database.execute("BEGIN;\n\(added)\nPRAGMA user_version = \(version);\nCOMMIT;")
    }

    // MARK: Writing (the scanner)

    /// Runs `body` in one transaction.
    public func batch(_ body: () throws -> Void) throws { try database.transaction(body) }

    // MARK: Checkpoints during a pass

    /// WAL pages a pass may write before a commit copies them into the database (SQLite's default is 1,000): a first
    /// index of 10,000 files writes about 3,000, so the copying and its syncs wait until the pass is over
    /// (``checkpoint()``), off the path to a searchable library; a pass larger still checkpoints as it goes.
    static let pagesBeforeCheckpointInPass = 16_384
    /// SQLite's own figure, outside a pass.
    static let pagesBeforeCheckpoint = 1000

    /// Holds SQLite's automatic checkpoints back to ``pagesBeforeCheckpointInPass`` (true), or back to its default.
    public func holdCheckpoints(_ hold: Bool) {
        try? database.execute("PRAGMA wal_autocheckpoint = \(hold ? Self.pagesBeforeCheckpointInPass : Self.pagesBeforeCheckpoint)")
    }

    /// Copies what the WAL holds into the database, as far as no reader needs it (a passive checkpoint).
    public func checkpoint() throws(SQLiteError) {
        try database.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// Adds or replaces the row of `track` (found under `root`, with the file's size and modification time).
    public func store(_ track: LibraryTrack, root: String, size: Int64, modified: Int64) throws(SQLiteError) {
        let folder = track.path.folder.escaped
        if storeStatement == nil {
            storeStatement = try database.prepare("""
                INSERT INTO tracks(path, folder, root, size, modified, title, artist, album, album_artist, genre, year, disc,
                                   track, length, cover, available, lyrics, track_gain, album_gain, track_peak, album_peak,
                                   mb_recording, mb_release, mb_release_track, mb_artists, mb_album_artists, tags_version,
                                   artist_sort, album_artist_sort, album_sort, encoding, more_tags, tag_order, date, further_values)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, 1, ?16, ?17, ?18, ?19, ?20,
                        ?21, ?22, ?23, ?24, ?25, \(Self.tagsVersion), ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33)
                ON CONFLICT(path) DO UPDATE SET folder = ?2, root = ?3, size = ?4, modified = ?5, title = ?6, artist = ?7,
                    album = ?8, album_artist = ?9, genre = ?10, year = ?11, disc = ?12, track = ?13, length = ?14,
                    cover = ?15, available = 1, lyrics = ?16, track_gain = ?17, album_gain = ?18, track_peak = ?19,
                    album_peak = ?20, mb_recording = ?21, mb_release = ?22, mb_release_track = ?23, mb_artists = ?24,
                    mb_album_artists = ?25, tags_version = \(Self.tagsVersion), artist_sort = ?26, album_artist_sort = ?27,
                    album_sort = ?28, encoding = ?29, more_tags = ?30, tag_order = ?31, date = ?32, further_values = ?33,
                    -- The same file read again (its tags' reading changed): what was measured of it still holds.
                    measured = CASE WHEN size = ?4 AND modified = ?5 THEN measured ELSE 0 END,
                    measured_lufs = CASE WHEN size = ?4 AND modified = ?5 THEN measured_lufs END,
                    measured_peak = CASE WHEN size = ?4 AND modified = ?5 THEN measured_peak END
                """)
        }
        func text(_ value: String?) -> Statement.Value { value.map { .text($0) } ?? .null }
        func number(_ value: Int?) -> Statement.Value { value.map { .integer(Int64($0)) } ?? .null }
        func real(_ value: Double?) -> Statement.Value { value.map { .real($0) } ?? .null }
        try storeStatement?.run([
            .text(track.path.escaped), .text(folder), .text(root), .integer(size), .integer(modified),
            text(track.title), text(track.artist), text(track.album), text(track.albumArtist),
            text(track.genresText), number(track.year), number(track.disc), number(track.track),
            track.lengthMicroseconds.map { .integer($0) } ?? .null, text(track.cover), text(track.lyrics),
            real(track.loudness.trackGain), real(track.loudness.albumGain), real(track.loudness.trackPeak),
            real(track.loudness.albumPeak)] + Self.values(track.musicBrainz) + Self.values(track.sortNames)
            + [text(track.fileFacts.encoding?.storedText), text(track.moreTags.storedText), text(tagOrderText(track.tagOrder)),
               text(track.date), text(track.furtherValues.storedText)])
    }

    /// The insert, prepared once (a pass stores thousands of rows).
    private var storeStatement: Statement?

    /// The last tag order stored and its text: most files of a library have the order of the one before.
    private var lastTagOrder: (order: TagOrder, text: String?)?

    private func tagOrderText(_ order: TagOrder) -> String? {
        if let lastTagOrder, lastTagOrder.order == order { return lastTagOrder.text }
        let text = order.storedText
        lastTagOrder = (order, text)
        return text
    }

    /// Forgets the file at `path`, or every file under the folder `path`.
    /// - Returns: how many rows went.
    @discardableResult
    public func remove(path: String) throws(SQLiteError) -> Int {
        try database.prepare("DELETE FROM tracks WHERE path = ?1 OR path >= ?2 AND path < ?3")
            .run([.text(path), .text(path + "/"), .text(path + "0")]) // "0" follows "/" in byte order
        return database.changes
    }

    /// Marks every file under `root` (un)available: a disk that is not there keeps its entries.
    /// - Returns: how many rows changed.
    @discardableResult
    public func setAvailable(_ available: Bool, root: String) throws(SQLiteError) -> Int {
        try database.prepare("UPDATE tracks SET available = ?1 WHERE root = ?2 AND available != ?1")
            .run([.integer(available ? 1 : 0), .text(root)])
        return database.changes
    }

    /// What the index knows of the file at `path`, or nil when it has no row for it.
    public func fileState(path: String) throws(SQLiteError) -> FileState? {
        let statement = try database.prepare(
            "SELECT size, modified, available, tags_version = \(Self.tagsVersion) FROM tracks WHERE path = ?1")
        try statement.bind([.text(path)])
        guard try statement.step() else { return nil }
        return FileState(size: statement.int(0) ?? -1, modified: statement.int(1) ?? -1, available: statement.int(2) == 1,
                         tagsCurrent: statement.int(3) == 1)
    }

    /// Size, modification time and availability of every file known under `root`, by path.
    public func fileStates(root: String) throws(SQLiteError) -> [String: FileState] {
        let statement = try database.prepare(
            "SELECT path, size, modified, available, tags_version = \(Self.tagsVersion) FROM tracks WHERE root = ?1")
        try statement.bind([.text(root)])
        var states: [String: FileState] = [:]
        while try statement.step() {
            guard let path = statement.text(0) else { continue }
            states[path] = FileState(size: statement.int(1) ?? -1, modified: statement.int(2) ?? -1, available: statement.int(3) == 1,
                                     tagsCurrent: statement.int(4) == 1)
        }
        return states
    }

    /// Forgets files whose root is no longer one of `roots` (the user changed the configuration).
    /// - Returns: how many rows were forgotten.
    @discardableResult
    public func keepOnly(roots: [String]) throws(SQLiteError) -> Int {
        let placeholders = roots.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        try database.prepare(roots.isEmpty ? "DELETE FROM tracks" : "DELETE FROM tracks WHERE root NOT IN (\(placeholders))")
            .run(roots.map { .text($0) })
        return database.changes
    }

    // MARK: Reading

    static let columns = "path, title, artist, album, album_artist, genre, year, disc, track, length, cover, available, id, "
        + "track_gain, album_gain, track_peak, album_peak, mb_recording, mb_release, mb_release_track, mb_artists, mb_album_artists, "
        + "artist_sort, album_artist_sort, album_sort, modified, encoding, more_tags, tag_order, date, further_values"

    private func tracks(_ statement: Statement) throws(SQLiteError) -> [LibraryTrack] {
        var result: [LibraryTrack] = []
        while try statement.step() {
            guard let path = statement.text(0) else { continue }
            var track = LibraryTrack(path: FilePath(escaped: path), title: statement.text(1), artist: statement.text(2),
                                     album: statement.text(3), albumArtist: statement.text(4),
                                     year: statement.int(6).map(Int.init), disc: statement.int(7).map(Int.init),
                                     track: statement.int(8).map(Int.init), lengthMicroseconds: statement.int(9),
                                     cover: statement.text(10), available: statement.int(11) == 1, id: statement.int(12))
            track.genresText = statement.text(5)
            track.loudness = LoudnessTags(trackGain: statement.double(13), albumGain: statement.double(14),
                                          trackPeak: statement.double(15), albumPeak: statement.double(16))
            track.musicBrainz = Self.musicBrainzIDs(statement, from: 17)
            track.sortNames = SortNames(artist: statement.text(22), albumArtist: statement.text(23), album: statement.text(24)).sanitized()
            track.fileFacts = Self.fileFacts(modified: statement.int(25), encoding: statement.text(26))
            track.moreTags = statement.text(27).map(MoreTags.init(storedText:)) ?? MoreTags()
            track.tagOrder = statement.text(28).map(TagOrder.init(storedText:)) ?? TagOrder()
            track.date = statement.text(29)
            track.furtherValues = statement.text(30).map(FurtherValues.init(storedText:)) ?? FurtherValues()
            result.append(track)
        }
        return result
    }

    /// More matches than this and a search is not ranked: bm25 costs ~3 µs per match (2,500 matches of a two-word
    /// prefix search over 50,000 tracks took 8 ms ranked, 0.5 ms not), and so broad a search is a first keystroke.
    static let rankedMatches = 300

    /// Available tracks matching `query`, at most `limit`: ranked (title, then artists and album weigh most) when
    /// there are few matches; in library order (folder, album, track, as scanned) when there are many.
    public func search(_ query: LibraryQuery, limit: Int) throws(SQLiteError) -> [LibraryTrack] {
        guard !query.isEmpty else { return [] }
        let expression = Statement.Value.text(query.matchExpression)
        let matches = try database.prepare(
            "SELECT count(*) FROM (SELECT rowid FROM tracks_text WHERE tracks_text MATCH ?1 LIMIT \(Self.rankedMatches + 1))"
        ).firstInt([expression]) ?? 0
        let columns = Self.columns.split(separator: ",").map { "tracks." + $0.trimmingWhitespace() }.joined(separator: ", ")
        let order = matches > Self.rankedMatches ? "tracks_text.rowid"
            : "bm25(tracks_text, 10.0, 5.0, 5.0, 4.0, 1.0, 1.0), tracks.album, tracks.disc, tracks.track"
        let statement = try database.prepare("""
            SELECT \(columns) FROM tracks_text JOIN tracks ON tracks.id = tracks_text.rowid
            WHERE tracks_text MATCH ?1 AND tracks.available = 1 ORDER BY \(order) LIMIT ?2
            """)
        try statement.bind([expression, .integer(Int64(limit))])
        return try tracks(statement)
    }

    /// What a selector picks: tracks of an artist (or album artist), an album, or a genre (names compared without
    /// case), in album, disc and track order; with `query`, narrowed in SQL to those that may match it (a superset:
    /// the caller tests each with ``MediaQuery/matches(_:)``).
    public func tracks(matching selector: LibrarySelector, narrowedBy query: MediaQuery? = nil) throws(SQLiteError) -> [LibraryTrack] {
        let condition: String, value: String
        var second: Statement.Value? // a second parameter (?2), for the selectors that have one
        switch selector {
        case .artist(let name): (condition, value) = ("(artist = ?1 COLLATE NOCASE OR album_artist = ?1 COLLATE NOCASE)", name)
        case .album(let name): (condition, value) = ("album = ?1 COLLATE NOCASE", name)
        case .albumBy(let title, let artist?):
            (condition, value, second) = ("album = ?1 COLLATE NOCASE AND coalesce(album_artist, artist) = ?2 COLLATE NOCASE", title, .text(artist))
        case .albumBy(let title, nil):
            (condition, value) = ("album = ?1 COLLATE NOCASE AND coalesce(album_artist, artist) IS NULL", title)
        case .track(let path): (condition, value) = ("path = ?1", path.escaped)
        case .trackID(let id): (condition, value) = ("id = CAST(?1 AS INTEGER)", String(id))
        // Any of the track's genres (kept joined by U+001F), compared without case as the other names.
        case .genre(let name):
            (condition, value) = ("instr(lower(char(31) || genre || char(31)), lower(char(31) || ?1 || char(31))) > 0", name)
        // Not LIKE: a folder's name may hold % or _.
        case .folder(let path): (condition, value) = ("(folder = ?1 OR substr(folder, 1, length(?1) + 1) = ?1 || '/')", path.escaped)
        case .all: (condition, value) = ("?1 = ?1", "")
        case .search(let query):
            return try search(query, limit: 5000).sorted(by: LibraryTrack.playOrder)
        }
        var values: [Statement.Value] = [.text(value)] + (second.map { [$0] } ?? [])
        let narrowing = query.flatMap { MediaQuerySQL.condition($0, values: &values) }.map { " AND " + $0 } ?? ""
        let statement = try database.prepare("""
            SELECT \(Self.columns) FROM tracks WHERE \(condition) AND available = 1\(narrowing)
            ORDER BY album COLLATE NOCASE, disc, track, path
            """)
        try statement.bind(values)
        return try tracks(statement)
    }

    /// The track indexed at `path` (available or not), or nil.
    /// The track at `path` if the index has it as the file is now (same size and modification time), else nil.
    public func currentTrack(atPath path: String, size: Int64, modified: Int64) throws(SQLiteError) -> LibraryTrack? {
        if currentStatement == nil {
            currentStatement = try database.prepare(
                "SELECT \(Self.columns) FROM tracks WHERE path = ?1 AND size = ?2 AND modified = ?3 AND available = 1")
        }
        guard let statement = currentStatement else { return nil }
        try statement.bind([.text(path), .integer(size), .integer(modified)])
        return try tracks(statement).first
    }

    private var currentStatement: Statement?

    public func track(atPath path: String) throws(SQLiteError) -> LibraryTrack? {
        let statement = try database.prepare("SELECT \(Self.columns) FROM tracks WHERE path = ?1")
        try statement.bind([.text(path)])
        return try tracks(statement).first
    }

    /// Distinct values of a column (artists, albums with their artist, genres), sorted, available tracks only.
    public func names(_ kind: LibraryNameKind) throws(SQLiteError) -> [String] {
        let column: String
        switch kind {
        case .artists: column = "coalesce(album_artist, artist)"
        case .albums: column = "album"
        case .genres: column = "genre"
        }
        let statement = try database.prepare("""
            SELECT DISTINCT \(column) AS name FROM tracks WHERE available = 1 AND name IS NOT NULL ORDER BY name COLLATE NOCASE
            """)
        var names: [String] = []
        while try statement.step() { if let name = statement.text(0) { names.append(name) } }
        guard kind == .genres else { return names }
        // A track's genres are kept as one text: each is a name of its own.
        var seen: Set<String> = []
        var genres: [String] = []
        for joined in names {
            for part in joined.split(separator: Character(LibraryTrack.valueSeparator)) where seen.insert(part.lowercased()).inserted {
                genres.append(String(part))
            }
        }
        return genres.sorted { (a: String, b: String) -> Bool in a.lowercased() < b.lowercased() }
    }

    /// The albums titled `title` (compared without case; empty: every album), each with who it is by, sorted by
    /// title and artist: two artists' albums of one title are two albums.
    public func albums(titled title: String) throws(SQLiteError) -> [LibraryAlbum] {
        let statement = try database.prepare("""
            SELECT album, coalesce(album_artist, artist) AS by, min(cover) FROM tracks
            WHERE available = 1 AND album IS NOT NULL AND (?1 = '' OR album = ?1 COLLATE NOCASE)
            GROUP BY album, by ORDER BY album COLLATE NOCASE, by COLLATE NOCASE
            """)
        try statement.bind([.text(title)])
        var albums: [LibraryAlbum] = []
        while try statement.step() {
            if let album = statement.text(0) { albums.append(LibraryAlbum(title: album, artist: statement.text(1), cover: statement.text(2))) }
        }
        return albums
    }

    /// Names and track counts of available tracks, for browsing.
    public func outline() throws(SQLiteError) -> LibraryOutline {
        let statement = try database.prepare("""
            SELECT coalesce(album_artist, artist), album, genre, count(*) FROM tracks WHERE available = 1 GROUP BY 1, 2, 3
            """)
        try statement.bind([])
        var outline = LibraryOutline()
        while try statement.step() {
            outline.add(artist: statement.text(0), album: statement.text(1), genres: statement.text(2).map(LibraryTrack.genres(fromText:)) ?? [],
                        count: Int(statement.int(3) ?? 0))
        }
        let folders = try database.prepare("SELECT folder, count(*) FROM tracks WHERE available = 1 GROUP BY folder")
        try folders.bind([])
        while try folders.step() {
            if let folder = folders.text(0) { outline.addFolder(folder, tracks: Int(folders.int(1) ?? 0)) }
        }
        return outline
    }

    /// Counts: tracks (available and not), albums, artists.
    public func counts() throws(SQLiteError) -> LibraryCounts {
        let statement = try database.prepare("""
            SELECT count(*), sum(available = 0), count(DISTINCT coalesce(album_artist, artist, '') || char(31) || album),
                   count(DISTINCT coalesce(album_artist, artist))
            FROM tracks
            """)
        try statement.bind([])
        guard try statement.step() else { return LibraryCounts() }
        let counts = LibraryCounts(tracks: Int(statement.int(0) ?? 0), unavailable: Int(statement.int(1) ?? 0),
                                   albums: Int(statement.int(2) ?? 0), artists: Int(statement.int(3) ?? 0))
        while try statement.step() {}
        return counts
    }
}

import CSQLite

/// A failure SQLite reported: its result code and message.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite \(code): \(message)" }
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
    /// The file is not a database, or is damaged: only this justifies setting a database aside. Busy, locked, full,
    /// read-only, I/O and permission errors say nothing of the file's content.
    public var isCorruption: Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
    /// The file cannot be opened (SQLITE_CANTOPEN): not a regular file, a symbolic link, no permission.
    public static func cannotOpen(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_CANTOPEN, message: message) }
    /// What is at the path is no database (SQLITE_NOTADB): a FIFO, a device, a folder where the file should be.
    public static func notADatabase(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_NOTADB, message: message) }
}

/// One SQLite connection, used from one thread at a time (the caller's worker).
public final class Database {
    private var handle: OpaquePointer?

    /// Opens (creating) the database at `path`, with a busy timeout; a symbolic link at `path` is refused
    /// (`SQLITE_CANTOPEN`), never followed. The first one loads SQLite itself (`SQLITE_CANTOPEN` when it cannot be).
    public init(path: String) throws(SQLiteError) {
        guard rp_sqlite_load() else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: rp_sqlite_failure().map { String(cString: $0) } ?? "SQLite is missing")
        }
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, message: message)
        }
        handle = opened
        sqlite3_busy_timeout(opened, 2000)
        sqlite3_extended_result_codes(opened, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements without results.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message)
        }
    }

    /// Rows the last insert, update or delete changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// A prepared statement for `sql`.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, message: lastMessage) }
        return Statement(statement, database: self)
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The schema version kept in the file (`PRAGMA user_version`).
    public var userVersion: Int {
        get { (try? prepare("PRAGMA user_version").firstInt()) ?? 0 }
        set { try? execute("PRAGMA user_version = \(newValue)") }
    }

    /// The rowid of the last insert on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A prepared statement: bind, then step through rows.
public final class Statement {
    private let statement: OpaquePointer
    private let database: Database

    init(_ statement: OpaquePointer, database: Database) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// A value to bind.
    public enum Value: Sendable, Equatable {
        case integer(Int64), real(Double), text(String), null
    }

    /// Resets the statement and binds `values` to its parameters in order.
    @discardableResult
    public func bind(_ values: [Value]) throws(SQLiteError) -> Statement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text): code = rp_sqlite_bind_text(statement, index, text, -1)
            case .null: code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, message: database.lastMessage) }
        }
        return self
    }

    /// Advances to the next row: true while there is one.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw SQLiteError(code: code, message: database.lastMessage) }
        return false
    }

    /// Runs it to its end (an insert, update or delete).
    public func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    public func int(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    public func double(_ column: Int32) -> Double? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
    }

    public func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }

    /// The first column of the first row as an integer.
    public func firstInt(_ values: [Value] = []) throws(SQLiteError) -> Int? {
        try bind(values)
        defer { sqlite3_reset(statement) }
        return try step() ? int(0).map(Int.init) : nil
    }
}

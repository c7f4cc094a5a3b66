import CSQLite
import Foundation

/// One SQLite connection: the thin wrapper the library index and the note history need (open, execute, prepared
/// statements, transactions) and nothing more. Opened in serialized mode, so it may be used
/// from more than one queue; statements belong to one queue at a time.
final class SQLiteDatabase {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        /// Our own code: the file's schema version is not the one we write.
        static let wrongSchema: Int32 = 1000
        var description: String { "SQLite error \(code): \(message)" }
    }

    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
        case null
    }

    private let handle: OpaquePointer
    /// Opened on ":memory:": no other connection sees its data.
    let isInMemory: Bool

    /// Opens (creating) the database file at `path`, or a private in-memory one for ":memory:".
    init(path: String, readOnly: Bool = false) throws {
        var connection: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_FULLMUTEX
        isInMemory = path == ":memory:"
        let result = sqlite3_open_v2(path, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw Failure(code: result, message: message)
        }
        handle = connection
        sqlite3_busy_timeout(handle, 2000)  // another Notula's writer (a second library window) holds it briefly
        notula_sqlite_register_rows(handle)  // `notula_rows(rowid)`: see CSQLite's shim.h
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        if result != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw Failure(code: result, message: message)
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw Failure(code: result, message: lastMessage) }
        return Statement(statement, database: self)
    }

    /// Runs `body` in one transaction: all of it is written, or none.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The first column of the first row of `sql` as an integer (PRAGMA user_version …).
    func integer(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(0) : nil
    }

    /// Stops the statement running on this connection (from any thread): its `step` throws
    /// SQLITE_INTERRUPT. A superseded search gives way to the newest at once.
    func interrupt() { sqlite3_interrupt(handle) }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A prepared statement: bind, step through rows, read columns; reset before reuse.
    final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Resets the statement and binds `values` to its parameters, in order.
        @discardableResult
        func bind(_ values: [Value]) throws -> Statement {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let result: Int32
                switch value {
                case .integer(let number): result = sqlite3_bind_int64(statement, index, number)
                case .real(let number): result = sqlite3_bind_double(statement, index, number)
                case .null: result = sqlite3_bind_null(statement, index)
                case .text(let text):
                    result = text.utf8CString.withUnsafeBufferPointer {
                        notula_sqlite_bind_text(statement, index, $0.baseAddress, Int32($0.count - 1))
                    }
                case .blob(let data):
                    result = data.withUnsafeBytes { notula_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) }
                }
                guard result == SQLITE_OK else { throw Failure(code: result, message: database.lastMessage) }
            }
            return self
        }

        /// The next row: true while there is one.
        func step() throws -> Bool {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code: throw Failure(code: code, message: database.lastMessage)
            }
        }

        /// Runs a statement that returns no rows.
        func run(_ values: [Value] = []) throws {
            try bind(values)
            while try step() {}
        }

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func text(_ column: Int32) -> String {
            guard let bytes = sqlite3_column_text(statement, column) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }
        func data(_ column: Int32) -> Data {
            guard let bytes = sqlite3_column_blob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, column)))
        }
    }
}

import CSQLite
import Foundation
import Synchronization

/// One SQLite connection: the thin wrapper the library index and the note history need
/// (`SQLiteStore` opens them). Opened in serialized mode, so it may be used from more than one
/// queue; statements belong to one queue at a time.
///
/// Statements are reset after every use by construction: `run`, `first`, `forEach` and `all`
/// step and reset before they return, so no statement is left busy. A busy statement keeps its
/// connection in a read transaction, and then every WAL checkpoint is refused and the WAL grows
/// for the whole session (wave 2 found 65 MB in 2 minutes of typing). `transaction` checks at
/// COMMIT, in debug builds, that no statement of the connection is still busy.
///
/// `@unchecked Sendable`: SQLite serializes the connection itself (FULLMUTEX), and this
/// object's own state (the handle, the statement cache) is behind `lock`.
final class SQLiteDatabase: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        /// Our own code: the file's schema version is not one we can read.
        static let wrongSchema: Int32 = -1000
        /// Our own code: a statement was still stepping at COMMIT (debug builds).
        static let statementLeftBusy: Int32 = -1001
        var description: String { "SQLite error \(code): \(message)" }
        /// SQLite's primary result code (extended codes carry it in their low byte); ours are negative.
        var primaryCode: Int32 { code < 0 ? code : code & 0xff }
    }

    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
        case null
    }

    /// The connection; nil once closed. Every use of it holds `lock`, so a close from another
    /// queue (a store swapped while a search runs) never frees it under a call.
    private var handle: OpaquePointer?
    private let lock = NSLock()
    /// This connection's statements by SQL (`cached`), finalized at `close`.
    private var statements: [String: Statement] = [:]
    /// Every statement made here and not finalized yet (FTS5 keeps statements of its own on
    /// the connection, which `busyStatements` leaves out). A lock of its own: a statement is
    /// finalized wherever its last reference goes, `lock` held or not.
    private let ownStatements = Mutex(Set<Int>())  // their addresses
    /// What `stoppable` runs now; the progress handler (set at the first, under `lock`:
    /// `checksStops`) asks it.
    private let stoppables = StoppableOperations()
    private var checksStops = false
    let path: String

    /// Opens (creating unless `readOnly`) the database at `path`: a file, or a URI
    /// ("file:/name?vfs=memdb") when `isURI`.
    init(path: String, readOnly: Bool = false, isURI: Bool = false) throws {
        var connection: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_FULLMUTEX
        if isURI { flags |= SQLITE_OPEN_URI }
        self.path = path
        let result = sqlite3_open_v2(path, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw Failure(code: result, message: message)
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, 2000)  // the other connection of the store holds it briefly
        notula_sqlite_register_rows(connection)  // `notula_rows(rowid)`: see CSQLite's shim.h
    }

    deinit { try? close() }

    /// Frees the pages of the connection's cache that no statement holds now
    /// (`sqlite3_db_release_memory`); they are read again from the file when next needed.
    func releaseMemory() {
        lock.withLock {
            if let handle { _ = sqlite3_db_release_memory(handle) }
        }
    }

    /// Finalizes this connection's cached statements and closes it. The last connection of a
    /// store in WAL mode checkpoints and removes the WAL as it closes. Throws when a statement
    /// made with `prepare` is still alive (the connection then closes once it is finalized).
    func close() throws {
        try lock.withLock {
            statements = [:]
            guard let handle else { return }
            self.handle = nil
            let result = sqlite3_close(handle)
            if result != SQLITE_OK {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_close_v2(handle)
                throw Failure(code: result, message: message)
            }
        }
    }

    var isOpen: Bool { lock.withLock { handle != nil } }

    /// Runs `body` with the open connection, under `lock`.
    private func withConnection<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        try lock.withLock {
            guard let handle else { throw Failure(code: SQLITE_MISUSE, message: "the database \(path) is closed") }
            return try body(handle)
        }
    }

    func execute(_ sql: String) throws {
        try withConnection { handle in
            var error: UnsafeMutablePointer<CChar>?
            let result = sqlite3_exec(handle, sql, nil, nil, &error)
            if result != SQLITE_OK {
                let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
                sqlite3_free(error)
                throw Failure(code: result, message: message)
            }
        }
    }

    /// A statement of its own (finalized when it goes).
    func prepare(_ sql: String) throws -> Statement {
        try withConnection { handle in
            var statement: OpaquePointer?
            let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard result == SQLITE_OK, let statement else { throw Failure(code: result, message: String(cString: sqlite3_errmsg(handle))) }
            ownStatements.withLock { _ = $0.insert(Int(bitPattern: statement)) }
            return Statement(statement, database: self)
        }
    }

    /// The statement for `sql`, prepared once per connection (on the queue that uses it).
    func cached(_ sql: String) throws -> Statement {
        if let statement = lock.withLock({ statements[sql] }) { return statement }
        let statement = try prepare(sql)
        lock.withLock { statements[sql] = statement }
        return statement
    }

    /// Runs `body` in one transaction: all of it is written, or none.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let value = try body()
            try commit()
            return value
        } catch {
            rollBack()
            throw error
        }
    }

    /// Starts a write transaction (`transaction` does all three for a body).
    func begin() throws { try execute("BEGIN IMMEDIATE") }

    /// Commits; in debug builds, first checks that no statement is still busy (one would keep
    /// a read transaction open after the commit, and no checkpoint could then complete).
    func commit() throws {
        #if DEBUG
        if let busy = busyStatements.first {
            throw Failure(code: Failure.statementLeftBusy, message: "a statement is still busy at COMMIT: \(busy)")
        }
        #endif
        try execute("COMMIT")
    }

    func rollBack() { try? execute("ROLLBACK") }

    /// The SQL of every statement of this connection that has stepped and not been reset.
    var busyStatements: [String] {
        (try? withConnection { handle in
            ownStatements.withLock { Array($0) }.compactMap(OpaquePointer.init(bitPattern:)).filter { sqlite3_stmt_busy($0) != 0 }
                .map { sqlite3_sql($0).map { String(cString: $0) } ?? "?" }
        }) ?? []
    }

    /// The first column of the first row of `sql` as an integer (PRAGMA user_version …).
    func integer(_ sql: String, _ values: [Value] = []) throws -> Int64? {
        try prepare(sql).first(values) { $0.integer(0) }
    }

    /// The first column of the first row of `sql` as text (PRAGMA journal_mode …).
    func text(_ sql: String) throws -> String? {
        try prepare(sql).first { $0.text(0) }
    }

    /// Runs `body`, whose statements step on this thread, so that `stopStoppable` can stop it:
    /// its next step throws SQLITE_INTERRUPT. Only it: sqlite3_interrupt stops every statement
    /// of the connection, and every one begun on it until all have ended — a search typed
    /// while the list was read on the same connection stopped that reading (read again after
    /// a pause) and was itself stopped and lost, so the list never showed its result.
    func stoppable<T>(_ body: () throws -> T) throws -> T {
        try withConnection { handle in
            guard !checksStops else { return }
            checksStops = true
            let operations = Unmanaged.passUnretained(stoppables).toOpaque()
            sqlite3_progress_handler(handle, 1000, { context in
                guard let context else { return 0 }
                return Unmanaged<StoppableOperations>.fromOpaque(context).takeUnretainedValue().shouldStop(on: pthread_self()) ? 1 : 0
            }, operations)
        }
        let thread = pthread_self()
        stoppables.begin(on: thread)
        defer { stoppables.end(on: thread) }
        return try body()
    }

    /// Stops what `stoppable` runs on this connection now (from any thread); nothing begun later.
    func stopStoppable() {
        stoppables.stopAll()
    }

    fileprivate func forget(_ statement: OpaquePointer) {
        _ = ownStatements.withLock { $0.remove(Int(bitPattern: statement)) }
    }

    var lastInsertedRow: Int64 { (try? withConnection { sqlite3_last_insert_rowid($0) }) ?? 0 }

    /// A prepared statement. Each use binds its values, steps and resets before it returns.
    final class Statement {
        private let statement: OpaquePointer
        /// Told when this statement is finalized (weak: a statement may outlive its connection).
        private weak var database: SQLiteDatabase?

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        private var lastMessage: String { String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))) }

        deinit {
            database?.forget(statement)
            sqlite3_finalize(statement)
        }

        /// Runs a statement that returns no rows (or whose rows do not matter).
        func run(_ values: [Value] = []) throws {
            try forEach(values) { _ in }
        }

        /// The first row, read by `read`; nil when there is none.
        func first<T>(_ values: [Value] = [], _ read: (Row) throws -> T) throws -> T? {
            try bind(values)
            defer { sqlite3_reset(statement) }
            return try step() ? read(Row(statement: statement)) : nil
        }

        /// Every row, in order.
        func forEach(_ values: [Value] = [], _ body: (Row) throws -> Void) throws {
            try bind(values)
            defer { sqlite3_reset(statement) }
            while try step() { try body(Row(statement: statement)) }
        }

        /// Every row, each read by `read`.
        func all<T>(_ values: [Value] = [], _ read: (Row) throws -> T) throws -> [T] {
            var found: [T] = []
            try forEach(values) { found.append(try read($0)) }
            return found
        }

        private func bind(_ values: [Value]) throws {
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
                guard result == SQLITE_OK else { throw Failure(code: result, message: lastMessage) }
            }
        }

        private func step() throws -> Bool {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code: throw Failure(code: code, message: lastMessage)
            }
        }
    }

    /// The row a statement is on: valid only inside the closure it is handed to.
    struct Row {
        fileprivate let statement: OpaquePointer

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

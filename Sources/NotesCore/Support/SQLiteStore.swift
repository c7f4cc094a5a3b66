import CSQLite
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One SQLite store — the library index or the note history — kept like a database: opened
/// with its pragmas in the order SQLite needs them, its schema brought up by `user_version`,
/// its failures sorted by one policy (`Trouble`), its write-ahead log folded back while it
/// runs and gone after `close`.
///
/// - Order: `auto_vacuum` is ignored once the file has its first page, and switching to WAL
///   writes one; so it is set first, and a store made without it is converted once (VACUUM).
/// - WAL: checkpoints succeed because no statement is left busy (`SQLiteDatabase`);
///   `journal_size_limit` truncates the log at each reset; closing the last connection
///   checkpoints and removes it.
/// - In memory (`inMemory`): a file in a RAM-backed folder (`$XDG_RUNTIME_DIR`, else
///   `/dev/shm`) removed at `close`, so a reader and a writer can work at once as on disk; when
///   neither can be written, SQLite's `memdb` shared by two connections (readers then wait
///   for a write to end).
///
/// Not thread-safe itself: each connection is used from one queue at a time.
final class SQLiteStore {
    /// Pragmas a store wants.
    struct Settings: Sendable {
        /// Freed pages can be given back to the file system (`erase`). Set before the first page.
        var incrementalVacuum = false
        var synchronous = "NORMAL"
        /// "ON": deleted content is overwritten with zeros; "FAST": where that costs no extra I/O.
        var secureDelete = "FAST"
        /// Pages in the WAL before a commit folds it back (SQLite's default is 1,000).
        var walAutocheckpoint = 1000
        /// What the WAL file is truncated to when it is reset.
        var journalSizeLimit = 4 << 20
        /// A second connection for reading only (search, while the writer indexes).
        var hasReader = false
    }

    /// The tables of a store and how an older one is brought up.
    struct Schema: Sendable {
        let version: Int64
        /// Makes the tables in an empty store (inside a transaction that then sets the version).
        let create: @Sendable (SQLiteDatabase) throws -> Void
        /// Brings a store of an older version up; throws `wrongSchema` for one it cannot.
        var upgrade: @Sendable (_ from: Int64, SQLiteDatabase) throws -> Void = { version, _ in
            throw SQLiteDatabase.Failure(code: SQLiteDatabase.Failure.wrongSchema, message: "schema \(version) cannot be upgraded")
        }
        /// A cheap read of the store's own tables: a file that fails it is damaged.
        let probe: String
    }

    /// How a failure is met — the same for every store.
    enum Trouble: Equatable {
        /// Busy, locked, a passing I/O error: tried again after a pause (`retrying`).
        case transient
        /// Corrupt, not a database, a schema we cannot read: set aside and made again.
        case damaged
        /// Read-only, no permission, disk full, cannot be opened: left alone; this run goes on
        /// without it (the index in memory, the history off).
        case unwritable
    }

    /// `atOpen`: the store was being opened, so a plain error (a table missing, SQLITE_ERROR;
    /// a schema that changed under it) says the file is not what it should be: damaged.
    static func trouble(of error: Error, atOpen: Bool = false) -> Trouble {
        guard let failure = error as? SQLiteDatabase.Failure else { return .unwritable }  // a folder that cannot be made
        if atOpen, failure.primaryCode == SQLITE_ERROR || failure.primaryCode == SQLITE_SCHEMA { return .damaged }
        switch failure.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_PROTOCOL, SQLITE_NOMEM, SQLITE_INTERRUPT: return .transient
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_FORMAT, SQLiteDatabase.Failure.wrongSchema: return .damaged
        default: return .unwritable
        }
    }

    /// Pauses before each new try of a transient failure (2.4 s in all, on the store's queue).
    static let retryPauses: [TimeInterval] = [0.05, 0.3, 2]

    /// Runs `body`, again after a pause while it fails with a transient error; rethrows the
    /// last error (transient ones that persist too: the caller then treats them as unwritable).
    static func retrying<T>(_ body: () throws -> T) throws -> T {
        var pauses = retryPauses[...]
        while true {
            do {
                return try body()
            } catch where trouble(of: error) == .transient && !pauses.isEmpty {
                log("\(error); trying again")
                Thread.sleep(forTimeInterval: pauses.removeFirst())
            }
        }
    }

    let writer: SQLiteDatabase
    /// The reading connection (`Settings.hasReader`), else the writer.
    let reader: SQLiteDatabase
    /// The store's file; nil in memory.
    let fileURL: URL?
    /// The file in a RAM-backed folder that holds a store "in memory" (removed at `close`).
    let memoryFile: String?
    /// The schema version the store had when it was opened (0: made now).
    let foundVersion: Int64
    private let settings: Settings

    private init(writer: SQLiteDatabase, reader: SQLiteDatabase?, fileURL: URL?, memoryFile: String?, foundVersion: Int64, settings: Settings) {
        self.writer = writer
        self.reader = reader ?? writer
        self.fileURL = fileURL
        self.memoryFile = memoryFile
        self.foundVersion = foundVersion
        self.settings = settings
    }

    deinit { close() }

    /// Opens (making it, 0600) the store at `url`; what it throws tells by `trouble(of:)` what
    /// to do. (Not tried again: a lock held by another program was already waited for 2 s.)
    static func open(_ url: URL, schema: Schema, settings: Settings) throws -> SQLiteStore {
        let (writer, version) = try openWriter(url.path, schema: schema, settings: settings)
        return SQLiteStore(writer: writer, reader: settings.hasReader ? try openReader(url.path, settings: settings) : nil,
                           fileURL: url, memoryFile: nil, foundVersion: version, settings: settings)
    }

    /// A private store for this run only, empty. `folders`: where a RAM-backed file may go
    /// (nil: `$XDG_RUNTIME_DIR`, then `/dev/shm`; none: SQLite's memdb).
    static func inMemory(schema: Schema, settings: Settings, folders: [String]? = nil) throws -> SQLiteStore {
        var memory = settings
        memory.synchronous = "OFF"  // nothing to keep after a crash
        memory.incrementalVacuum = false
        if let path = newMemoryFile(in: folders ?? ramFolders) {
            do {
                let (writer, version) = try openWriter(path, schema: schema, settings: memory)
                return SQLiteStore(writer: writer, reader: settings.hasReader ? try openReader(path, settings: memory) : nil,
                                   fileURL: nil, memoryFile: path, foundVersion: version, settings: memory)
            } catch {
                removeFiles(of: path)
                log("a store in \(path) could not be made (\(error)); using SQLite's memdb")
            }
        }
        let uri = "file:/notula-\(getpid())-\(nextMemoryStore())?vfs=memdb"
        let writer = try SQLiteDatabase(path: uri, isURI: true)
        try configure(writer, settings: memory)
        try writer.transaction {
            try schema.create(writer)
            try writer.execute("PRAGMA user_version = \(schema.version)")
        }
        let reader = settings.hasReader ? try SQLiteDatabase(path: uri, isURI: true) : nil
        try reader?.execute("PRAGMA query_only = 1")
        return SQLiteStore(writer: writer, reader: reader, fileURL: nil, memoryFile: nil, foundVersion: 0, settings: memory)
    }

    var isInMemory: Bool { fileURL == nil }

    /// Gives freed pages back to the file system and folds the WAL back into the file,
    /// truncating it, so what was deleted is in no file of the store (with `secureDelete` on).
    /// Throws when the WAL could not be folded back entirely (a reader was in the way).
    func erase() throws {
        if settings.incrementalVacuum { try writer.execute("PRAGMA incremental_vacuum") }
        try checkpoint()
    }

    /// Folds the WAL back into the file and truncates it; throws when a reader kept part of it.
    func checkpoint() throws {
        guard !isInMemory || memoryFile != nil else { return }
        let busy = try writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)").first { $0.integer(0) } ?? 0
        if busy != 0 {
            throw SQLiteDatabase.Failure(code: SQLITE_BUSY, message: "the write-ahead log of \(writer.path) is still being read")
        }
    }

    /// Closes both connections (the writer last: it checkpoints and removes the WAL) and
    /// removes a store in memory. Later uses fail (SQLITE_MISUSE).
    func close() {
        for connection in reader === writer ? [writer] : [reader, writer] {
            do { try connection.close() } catch { Self.log("closing \(connection.path): \(error)") }
        }
        if let memoryFile { Self.removeFiles(of: memoryFile) }
    }

    static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("notula: \(message)\n".utf8))
    }

    // MARK: Opening

    private static func openWriter(_ path: String, schema: Schema, settings: Settings) throws -> (SQLiteDatabase, Int64) {
        // Made 0600 before SQLite opens it; its -wal and -shm files take the same mode.
        let descriptor = NotesCore.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { Glibc.close(descriptor) }
        chmod(path, 0o600)
        let writer = try SQLiteDatabase(path: path)
        // Before WAL: the first page written fixes auto_vacuum.
        let wanted: Int64 = settings.incrementalVacuum ? 2 : 0
        try writer.execute("PRAGMA auto_vacuum = \(wanted)")
        try configure(writer, settings: settings)
        // One opener at a time reads the version and makes or upgrades the tables (a second
        // connection opening a new store waits, then finds it made).
        let version = try writer.transaction { () -> Int64 in
            let version = try writer.integer("PRAGMA user_version") ?? 0
            switch version {
            case 0:
                // A file with tables but no version is not ours.
                if try writer.integer("SELECT count(*) FROM sqlite_master") ?? 0 > 0 {
                    throw SQLiteDatabase.Failure(code: SQLiteDatabase.Failure.wrongSchema, message: "tables without a schema version")
                }
                try schema.create(writer)
                try writer.execute("PRAGMA user_version = \(schema.version)")
            case schema.version:
                _ = try writer.integer(schema.probe)  // readable at all?
            case ..<schema.version:
                try schema.upgrade(version, writer)
            default:
                throw SQLiteDatabase.Failure(code: SQLiteDatabase.Failure.wrongSchema, message: "schema \(version), not \(schema.version)")
            }
            return version
        }
        // A store made before auto_vacuum was set first: converted once. VACUUM needs about the
        // store's size again in free space: without it, the store is used as it is this time.
        if try writer.integer("PRAGMA auto_vacuum") != wanted {
            log("\(path): converting to auto_vacuum \(wanted)")
            do { try writer.execute("VACUUM") } catch { log("\(path) was not converted (\(error)); next time") }
        }
        return (writer, version)
    }

    private static func openReader(_ path: String, settings: Settings) throws -> SQLiteDatabase {
        let reader = try SQLiteDatabase(path: path)
        try reader.execute("PRAGMA query_only = 1")  // interrupting it can never stop a write
        return reader
    }

    private static func configure(_ connection: SQLiteDatabase, settings: Settings) throws {
        if try connection.text("PRAGMA journal_mode = WAL") != "wal", !connection.path.hasPrefix("file:") {
            log("\(connection.path) cannot use a write-ahead log")
        }
        try connection.execute("""
            PRAGMA synchronous = \(settings.synchronous); PRAGMA secure_delete = \(settings.secureDelete);
            PRAGMA journal_size_limit = \(settings.journalSizeLimit); PRAGMA wal_autocheckpoint = \(settings.walAutocheckpoint)
            """)
    }

    /// RAM-backed folders of this user's: the session's runtime folder, then `/dev/shm`.
    private static var ramFolders: [String] {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        return [runtime, "/dev/shm"].compactMap { $0 }
    }

    /// A new file name in the first of `folders` that can be written, or nil; files left
    /// there by processes that are gone are removed.
    private static func newMemoryFile(in folders: [String]) -> String? {
        for folder in folders where access(folder, W_OK | X_OK) == 0 {
            removeLeftovers(in: folder)
            let path = "\(folder)/notula-memory-\(getpid())-\(nextMemoryStore()).sqlite"
            removeFiles(of: path)
            return path
        }
        return nil
    }

    /// `notula-memory-PID-…` files of processes that no longer run.
    private static func removeLeftovers(in folder: String) {
        let names = (try? FolderEntries.read(folder) { $0.starts(with: "notula-memory-".utf8) }) ?? []
        for entry in names {
            let parts = entry.name.split(separator: "-")
            guard parts.count >= 4, let pid = pid_t(parts[2]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("\(folder)/\(entry.name)")
        }
    }

    /// Stores made in memory in this run (each gets its own name).
    private static let memoryStores = Mutex(0)

    private static func nextMemoryStore() -> Int {
        memoryStores.withLock { count in
            count += 1
            return count
        }
    }
}

import CSQLite
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The library's persistent index (issue #13): per note its file identity, what the list shows
/// (title, preview, dates, flags, conflict copies) and its folded text for search: an FTS5
/// trigram table and a word index with short-word tokens (`LibraryIndex+Search`). A cache in
/// `$XDG_CACHE_HOME/notula/`, one per library folder: deleting it loses nothing. The list starts from it at once; `reconcile` (readdir + lstat, reading only new or
/// changed files) and `refresh` (the watcher's events) keep it equal to the disk, each change
/// in one transaction with its identity, so a SIGKILL leaves rows that are right or absent.
///
/// A damaged, future-schema or foreign file is replaced; when the cache cannot be written at
/// all (read-only, locked by another program) the index lives in memory for this run.
/// Writes (`reconcile`, `refresh`) come from one queue; `matches` may run on another
/// (a second connection reads the last committed state — WAL — so search works during indexing).
///
/// `@unchecked Sendable`: the writing connection and its statements are used on the one
/// writing queue only, and `reader` is taken and swapped under `readLock`.
public final class LibraryIndex: @unchecked Sendable {
    public static let schemaVersion: Int64 = 7
    /// Text beyond this is not indexed (a 50 MB log file stays findable by its beginning).
    static let indexedBytes = 8 << 20

    public let library: NoteLibrary
    /// The library folder's path (paths of notes are made from it by concatenation).
    let libraryPath: String
    /// The cache file, or nil when the index is in memory.
    public private(set) var fileURL: URL?
    /// Why the cache file is not used (logged once), or nil.
    public private(set) var fallbackReason: String?
    var writer: SQLiteDatabase
    private var reader: SQLiteDatabase
    private let readLock = NSLock()
    var statements: [String: SQLiteDatabase.Statement] = [:]
    /// Set when the index was started again empty: the next `refresh` reconciles first.
    var needsFullReconcile = false
    /// False while an index from an older Notula lacks the word index (`completeSearchTables`):
    /// words are then looked for in the texts and trigrams, and writes leave the word tables
    /// alone (`matchingRows` runs on another queue).
    let searchTablesComplete = Mutex(true)
    /// Terms surely in the vocabulary (the writing queue only).
    var knownTerms = KnownTerms()
    /// The id the next new note gets (the writing queue only): ids only grow in a run, even
    /// across `fallBackToMemory`, since the list and a search name notes by them — a reused
    /// id would name, until the list hears of the change, a note that is gone for a new one.
    var nextRowID: Int64 = 1
    /// Each word's rows in the last searches (`matchingRows`, any thread).
    let wordRows = Mutex(WordRowsCache())
    /// `summaries()` failed: the list shows nothing of the index, so the next `reconcile`
    /// starts again in memory and hands over every note.
    let listingFailed = Mutex(false)
    public var couldNotBeListed: Bool { listingFailed.withLock { $0 } }

    /// Opens the index of `library` in `cacheFolder` (made 0700 if missing), or in memory
    /// when `cacheFolder` is nil or its file cannot be used. Throws only when not even an
    /// in-memory index can be made (no memory, or a SQLite without FTS5's trigram tokenizer).
    public init(library: NoteLibrary, cacheFolder: URL?) throws {
        self.library = library
        libraryPath = library.folder.path
        guard let cacheFolder else {
            (writer, reader) = try Self.inMemory()
            return
        }
        let url = Self.cacheURL(for: library.folder, in: cacheFolder)
        var opened: (SQLiteDatabase, SQLiteDatabase, searchTablesComplete: Bool)?
        do {
            try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            opened = try Self.openFile(url)
        } catch let failure as SQLiteDatabase.Failure where Self.isDamage(failure) {
            // Damaged, not ours, or from a future version: start again (it is a cache).
            Self.log("the library index at \(url.path) is rebuilt (\(failure))")
            Self.removeFiles(of: url)
            do { opened = try Self.openFile(url) } catch { fallbackReason = "\(error)" }
        } catch {
            // Read-only, no permission, locked by another program: leave the file alone.
            fallbackReason = "\(error)"
        }
        if let opened {
            (writer, reader) = (opened.0, opened.1)
            searchTablesComplete.withLock { $0 = opened.searchTablesComplete }
            nextRowID = ((try? writer.integer("SELECT ifnull(max(id), 0) FROM notes")) ?? 0) + 1
            fileURL = url
        } else {
            (writer, reader) = try Self.inMemory()
            Self.log("the library index at \(url.path) cannot be used (\(fallbackReason ?? "")); indexing in memory")
        }
    }

    /// Whether a failure means the file's content is bad (rebuild it) rather than that it
    /// cannot be reached now (use memory, leave it alone).
    private static func isDamage(_ failure: SQLiteDatabase.Failure) -> Bool {
        failure.code == SQLiteDatabase.Failure.wrongSchema || [SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_SCHEMA, SQLITE_ERROR].contains(failure.code & 0xff)
    }

    /// A private in-memory index for this run.
    private static func inMemory() throws -> (SQLiteDatabase, SQLiteDatabase) {
        let memory = try SQLiteDatabase(path: ":memory:")
        try createSchema(memory)
        return (memory, memory)
    }

    /// `notes-<name>-<hash of the path>.sqlite`: readable, and distinct for two libraries of
    /// the same name.
    public static func cacheURL(for library: URL, in cacheFolder: URL) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in library.standardizedFileURL.path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let name = String(library.standardizedFileURL.lastPathComponent.filter { $0.isLetter || $0.isNumber }.prefix(40))
        return cacheFolder.appendingPathComponent("index-\(name)-\(String(hash, radix: 16)).sqlite")
    }

    private static func openFile(_ url: URL) throws -> (SQLiteDatabase, SQLiteDatabase, searchTablesComplete: Bool) {
        let writer = try SQLiteDatabase(path: url.path)
        chmod(url.path, 0o600)
        try writer.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
        let version = try writer.integer("PRAGMA user_version") ?? 0
        switch version {
        case 0: try createSchema(writer)
        case 4, 5, 6:
            // Filled later (`completeSearchTables`). Word tables left by a fill cut short start
            // empty again; short-word signatures (schema 5's table, none in 6) are tokens now.
            try writer.execute("DROP TABLE IF EXISTS grams; DROP TABLE IF EXISTS words; DROP TABLE IF EXISTS termgrams; DROP TABLE IF EXISTS vocabulary; DROP TABLE IF EXISTS longruns;" + wordTables)
        case schemaVersion: _ = try writer.integer("SELECT count(*) FROM notes WHERE rowid = 1")  // readable at all?
        case let other: throw SQLiteDatabase.Failure(code: SQLiteDatabase.Failure.wrongSchema, message: "schema \(other), not \(schemaVersion)")
        }
        return (writer, try SQLiteDatabase(path: url.path), version == 0 || version == schemaVersion)
    }

    private static func createSchema(_ database: SQLiteDatabase) throws {
        try database.transaction {
            try database.execute("""
                CREATE TABLE IF NOT EXISTS notes(
                    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,
                    device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,
                    title TEXT NOT NULL, preview TEXT NOT NULL, created REAL NOT NULL, modified REAL NOT NULL,
                    valid INTEGER NOT NULL, large INTEGER NOT NULL, unreadable TEXT, conflicts TEXT NOT NULL);
                CREATE VIRTUAL TABLE IF NOT EXISTS bodies USING fts5(text, tokenize = 'trigram');
                \(wordTables)
                PRAGMA user_version = \(schemaVersion);
                """)
        }
    }

    static func removeFiles(of url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("notula: \(message)\n".utf8))
    }

    /// A cached statement of the writer (the writing queue only).
    func statement(_ sql: String) throws -> SQLiteDatabase.Statement {
        if let statement = statements[sql] { return statement }
        let statement = try writer.prepare(sql)
        statements[sql] = statement
        return statement
    }

    // MARK: Reading

    /// The search's connection, taken under the lock, not held by it: `interruptSearch` must
    /// reach it while a search runs (the connection itself is serialized by SQLite).
    func readingConnection() -> SQLiteDatabase {
        readLock.lock()
        defer { readLock.unlock() }
        return reader
    }

    /// Every indexed note, as the list shows it (in no order: the list sorts), as last
    /// committed. Any thread: it reads with the search's connection, so the start lists the
    /// index while `reconcile` already lists the folder. On failure it is empty and
    /// `couldNotBeListed` is set (the next reconcile hands over every note).
    public func summaries() -> [NoteSummary] {
        let connection = readingConnection()
        do {
            let rows = try connection.prepare("SELECT \(Self.summaryColumns) FROM notes")
            try rows.bind([])
            var notes: [NoteSummary] = []
            while try rows.step() { notes.append(Self.summary(from: rows, library: library)) }
            return notes
        } catch {
            Self.log("listing the library index failed: \(error)")
            listingFailed.withLock { $0 = true }
            return []
        }
    }

    /// What `summary(from:)` reads, in order.
    static let summaryColumns = "id, path, title, preview, created, modified, valid, large, unreadable, conflicts"

    /// A row of `SELECT \(summaryColumns)`.
    static func summary(from rows: SQLiteDatabase.Statement, library: NoteLibrary) -> NoteSummary {
        var note = NoteSummary(id: rows.text(1), library: library.folder, title: rows.text(2), preview: rows.text(3),
                               modified: Date(timeIntervalSince1970: rows.real(5)),
                               created: Date(timeIntervalSince1970: rows.real(4)), isValidText: rows.integer(6) != 0)
        note.mightBeLarge = rows.integer(7) != 0
        note.unreadableReason = rows.isNull(8) ? nil : rows.text(8)
        let copies = rows.text(9)
        note.conflictCopies = copies.isEmpty ? [] : copies.components(separatedBy: "\n")
        note.indexRow = rows.integer(0)
        return note
    }

    /// The cache failed in use (damaged, disk full): this run goes on with an empty index in
    /// memory, filled again by the next reconcile; the file is removed (the next start makes a
    /// new one).
    func fallBackToMemory(because error: Error) {
        let memory: (SQLiteDatabase, SQLiteDatabase)
        do {
            memory = try Self.inMemory()
        } catch {
            // Not even memory: keep the failing index; each use fails and is reported again.
            Self.log("the library index failed (\(error)) and cannot be kept in memory either")
            return
        }
        Self.log("the library index failed (\(error)); indexing in memory")
        statements = [:]
        knownTerms.forgetAll()
        searchTablesComplete.withLock { $0 = true }
        readLock.lock()
        (writer, reader) = memory
        readLock.unlock()
        if let fileURL { Self.removeFiles(of: fileURL) }
        fileURL = nil
        fallbackReason = "\(error)"
        needsFullReconcile = true
    }
}

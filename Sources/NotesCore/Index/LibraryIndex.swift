import CSQLite
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The library's persistent index (issue #13): per note its file identity, what the list shows
/// (title, preview, dates, flags, conflict copies) and its folded text for search: an FTS5
/// trigram table and a word index with short-word tokens (`LibraryIndex+Search`). A cache in
/// `$XDG_CACHE_HOME/notula/`, one per library folder: deleting it loses nothing. The list
/// starts from it at once; `reconcile` (readdir + lstat, reading only new or changed files)
/// and `refresh` (the watcher's events) keep it equal to the disk, each change in one
/// transaction with its identity, so a SIGKILL leaves rows that are right or absent.
///
/// The file is a `SQLiteStore`, and its failure policy is the store's: a transient failure
/// (busy, a passing I/O error) is tried again; a damaged file (or one from another schema) is
/// removed and made again; one that cannot be written (read-only, locked by another program,
/// disk full) is left alone and this run is indexed in memory — with a reader and a writer
/// of its own, as on disk. After starting over, the next write reconciles the whole library
/// and hands the list every note (`Changes.everyNote`), so nothing deleted meanwhile stays listed.
/// Writes (`reconcile`, `refresh`) come from one queue; `matchingRows` and `summaries` read on
/// another connection (the last committed state — WAL — so search works during indexing).
///
/// `@unchecked Sendable`: the writing connection and its statements are used on the one
/// writing queue only, and `store` is read and swapped under `storeLock`.
public final class LibraryIndex: @unchecked Sendable {
    public static let schemaVersion: Int64 = 9
    /// Text beyond this is not indexed (a 50 MB log file stays findable by its beginning).
    static let indexedBytes = 8 << 20

    public let library: NoteLibrary
    /// The library folder's path (paths of notes are made from it by concatenation).
    let libraryPath: String
    /// The cache file, or nil when the index is in memory.
    public private(set) var fileURL: URL?
    /// Why the cache file is not used (logged once), or nil.
    public private(set) var fallbackReason: String?
    private var store: SQLiteStore
    private let storeLock = NSLock()
    /// Set when the index was started again empty: the next write reconciles first and hands
    /// over every note.
    var needsFullReconcile = false
    /// `close` was called: writes do nothing (a late event after a quit or a library switch).
    var isClosed = false
    /// `stop` was called (any thread): a reconcile under way ends at its next note, and no
    /// write starts any more.
    private let stopRequested = Mutex(false)
    var isStopped: Bool { stopRequested.withLock { $0 } }
    /// The index started over during this reconcile: its last batch hands over every note.
    var startedOver = false
    /// While a reconcile runs: the notes `refreshBetweenBatches` looked at (the writing queue).
    var refreshedWhileReconciling: Set<String>?
    /// How often this index started over (tests).
    private(set) var startOvers = 0
    /// False while an index from an older Notula lacks the word index (`completeSearchTables`):
    /// words are then looked for in the texts and trigrams, and writes leave the word tables
    /// alone (`matchingRows` runs on another queue).
    let searchTablesComplete = Mutex(true)
    /// Terms surely in the vocabulary, once this transaction commits (the writing queue only).
    var knownTerms = KnownTerms()
    /// Terms of this transaction the vocabulary may lack (`addNewTerms` writes them).
    var newTerms: [String] = []
    /// The id the next new note gets (the writing queue only): ids only grow in a run, even
    /// across `startOver`, since the list and a search name notes by them — a reused
    /// id would name, until the list hears of the change, a note that is gone for a new one.
    var nextRowID: Int64 = 1
    /// The time now, for the racy-clean rule.
    let clock: @Sendable () -> Date
    /// Each word's rows in the last searches (`matchingRows`, any thread).
    let wordRows = Mutex(WordRowsCache())
    /// The titles' keys for `[[` completion (`titles(matching:)`, any thread).
    let titleKeysCache = Mutex<TitleKeysCache?>(nil)
    /// Why `summaries()` failed (the list shows nothing of the index): the next `reconcile`
    /// starts over and hands over every note.
    let listingFailure = Mutex<SQLiteDatabase.Failure?>(nil)
    public var couldNotBeListed: Bool { listingFailure.withLock { $0 != nil } }

    /// Opens the index of `library` in `cacheFolder` (made 0700 if missing), or in memory
    /// when `cacheFolder` is nil or its file cannot be used. Throws only when not even an
    /// in-memory index can be made (no memory, or a SQLite without FTS5's trigram tokenizer).
    /// `clock` tells the time for the racy-clean rule (`Identity.settled(at:)`); tests set
    /// it ahead instead of waiting for files to settle.
    public init(library: NoteLibrary, cacheFolder: URL?, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.library = library
        self.clock = clock
        libraryPath = library.folder.path
        guard let cacheFolder else {
            store = try Self.memoryStore()
            return
        }
        let url = Self.cacheURL(for: library.folder, in: cacheFolder)
        var opened: SQLiteStore?
        do {
            try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            opened = try SQLiteStore.open(url, schema: Self.schema, settings: Self.settings)
        } catch where SQLiteStore.trouble(of: error, atOpen: true) == .damaged {
            // Damaged, not ours, or from a future version: start again (it is a cache).
            Self.log("the library index at \(url.path) is rebuilt (\(error))")
            SQLiteStore.removeFiles(of: url.path)
            do { opened = try SQLiteStore.open(url, schema: Self.schema, settings: Self.settings) } catch { fallbackReason = "\(error)" }
        } catch {
            // Read-only, no permission, locked by another program: leave the file alone.
            fallbackReason = "\(error)"
        }
        if let opened {
            store = opened
            searchTablesComplete.withLock { $0 = opened.foundVersion == 0 || opened.foundVersion >= 7 }
            nextRowID = ((try? opened.writer.integer("SELECT ifnull(max(id), 0) FROM notes")) ?? 0) + 1
            fileURL = url
        } else {
            store = try Self.memoryStore()
            Self.log("the library index at \(url.path) cannot be used (\(fallbackReason ?? "")); indexing in memory")
        }
    }

    /// The tables (schema 9: 8 and links, tags and titles' keys; 8: 7 and `unindexed`). An
    /// index of schema 8 gains the link tables (`addLinkTables`), one of 7 also `unindexed`;
    /// one of schema 4, 5 or 6 keeps its notes and texts, and its word tables are filled later
    /// (`completeSearchTables`).
    static let schema = SQLiteStore.Schema(version: schemaVersion, create: { database in
        try database.execute("""
            CREATE TABLE notes(
                id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,
                device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,
                title TEXT NOT NULL, preview TEXT NOT NULL, created REAL NOT NULL, modified REAL NOT NULL,
                valid INTEGER NOT NULL, large INTEGER NOT NULL, unreadable TEXT, conflicts TEXT NOT NULL,
                folded TEXT NOT NULL DEFAULT '');
            CREATE VIRTUAL TABLE bodies USING fts5(text, tokenize = 'trigram');
            \(bodiesMerging)
            \(wordTables)
            \(unindexedTable)
            \(linkTables)
            """)
    }, upgrade: { version, database in
        switch version {
        case 8:
            break
        case 7:
            try database.execute(unindexedTable)
        case 4...6:
            // Filled later (`completeSearchTables`). Word tables left by a fill cut short start
            // empty again; short-word signatures (schema 5's table, none in 6) are tokens now.
            try database.execute("DROP TABLE IF EXISTS grams; DROP TABLE IF EXISTS words; DROP TABLE IF EXISTS termgrams; DROP TABLE IF EXISTS vocabulary; DROP TABLE IF EXISTS longruns;" + wordTables + unindexedTable)
        default:
            throw SQLiteDatabase.Failure(code: SQLiteDatabase.Failure.wrongSchema, message: "schema \(version), not \(schemaVersion)")
        }
        try addLinkTables(to: database)
        // Schema 4–6: the version is written once the word tables are filled.
        if version >= 7 { try database.execute("PRAGMA user_version = \(schemaVersion);") }
    }, probe: "SELECT count(*) FROM notes WHERE rowid = 1")

    /// FTS5 merges a table's segments once 16 of a level are there, not 4: a first start's
    /// 100,000 texts then take the writer 17 s instead of 22 (measured outside the app with
    /// Debian's SQLite), and a search over the few more segments is as fast (27–57 ms for
    /// common words either way). The setting is stored in the table.
    static let bodiesMerging = "INSERT INTO bodies(bodies, rank) VALUES ('automerge', 16);"

    /// A cache: not synced to disk at each commit (a power cut may lose the last changes,
    /// which the next reconcile reads again); deleted texts zeroed where that costs nothing.
    static let settings = SQLiteStore.Settings(synchronous: "NORMAL", secureDelete: "FAST", walAutocheckpoint: 1000,
                                               journalSizeLimit: 4 << 20, hasReader: true)

    private static func memoryStore() throws -> SQLiteStore {
        try SQLiteStore.inMemory(schema: schema, settings: settings)
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

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("notula: \(message)\n".utf8))
    }

    /// The writing connection (the writing queue only).
    var writer: SQLiteDatabase { storeLock.withLock { store.writer } }

    /// A cached statement of the writer (the writing queue only).
    func statement(_ sql: String) throws -> SQLiteDatabase.Statement {
        try writer.cached(sql)
    }

    /// A reconcile was stopped (`stop`): the folder is being left, or Notula quits.
    public struct Stopped: Error {}

    /// Asks a reconcile under way to end at its next note, and every later write to do nothing
    /// (any thread): this folder is being left, or Notula quits.
    public func stop() {
        stopRequested.withLock { $0 = true }
    }

    /// Closes the index (the writing queue; at quit, or once another library is listed): its
    /// WAL is folded back and removed. Later writes do nothing.
    public func close() {
        isClosed = true
        storeLock.withLock { store }.close()
    }

    // MARK: Reading

    /// The search's connection, taken under the lock, not held by it: `interruptSearch` must
    /// reach it while a search runs (the connection itself is serialized by SQLite). It only
    /// reads (`query_only`), so an interrupt never stops a write.
    func readingConnection() -> SQLiteDatabase {
        storeLock.withLock { store.reader }
    }

    /// Every indexed note, as the list shows it (in no order: the list sorts), as last
    /// committed. Any thread: it reads with the search's connection, so the start lists the
    /// index while `reconcile` already lists the folder. On failure it is empty and
    /// `couldNotBeListed` is set (the next reconcile starts over and hands over every note).
    public func summaries() -> [NoteSummary] {
        do {
            return try SQLiteStore.retrying { try Self.summaries(on: readingConnection(), library: library) }
        } catch {
            Self.log("listing the library index failed: \(error)")
            listingFailure.withLock { $0 = error as? SQLiteDatabase.Failure ?? SQLiteDatabase.Failure(code: SQLITE_ERROR, message: "\(error)") }
            return []
        }
    }

    private static func summaries(on connection: SQLiteDatabase, library: NoteLibrary) throws -> [NoteSummary] {
        try connection.prepare("SELECT \(summaryColumns) FROM notes").all { summary(from: $0, library: library) }
    }

    /// What `summary(from:)` reads, in order.
    static let summaryColumns = "id, path, title, preview, created, modified, valid, large, unreadable, conflicts"

    /// A row of `SELECT \(summaryColumns)`.
    static func summary(from rows: SQLiteDatabase.Row, library: NoteLibrary) -> NoteSummary {
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

    /// A write failed, and trying again did not help. A damaged file is removed and made
    /// again; otherwise (read-only, disk full, locked) this run goes on in memory, and the file
    /// is left for the next start — but on a full disk it is removed, giving back its space
    /// (it is only a cache). Either way the index is empty now: the next write reconciles the
    /// library and hands over every note (`needsFullReconcile`).
    func startOver(because error: Error) {
        startOvers += 1
        var replacement: SQLiteStore?
        let trouble = SQLiteStore.trouble(of: error)
        let diskIsFull = (error as? SQLiteDatabase.Failure)?.primaryCode == SQLITE_FULL
        if trouble == .damaged || diskIsFull, let fileURL {
            storeLock.withLock { store }.close()
            SQLiteStore.removeFiles(of: fileURL.path)
            if trouble == .damaged {
                Self.log("the library index failed (\(error)); it is made again")
                replacement = try? SQLiteStore.open(fileURL, schema: Self.schema, settings: Self.settings)
            }
        }
        if replacement == nil {
            do {
                replacement = try Self.memoryStore()
            } catch {
                // Not even memory: keep the failing index; each use fails and is logged again.
                Self.log("the library index failed (\(error)) and cannot be kept in memory either")
                return
            }
            Self.log("the library index failed (\(error)); indexing in memory")
            fileURL = nil
            fallbackReason = "\(error)"
        }
        guard let replacement else { return }
        forgetTerms()
        searchTablesComplete.withLock { $0 = true }
        // A search running on the old reader finishes on it; the old store closes outside the
        // lock (its checkpoint may wait on the failing disk, and searches take the lock).
        let old = storeLock.withLock { () -> SQLiteStore in
            defer { store = replacement }
            return store
        }
        old.close()
        wordRows.withLock { $0 = WordRowsCache() }
        needsFullReconcile = true
    }
}

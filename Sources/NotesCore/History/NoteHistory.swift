import CSQLite
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every note's past, kept on this computer (never in the library, so it never syncs):
/// `$XDG_DATA_HOME/notula/History/history.sqlite` (folder 0700, files 0600). One SQLite file
/// holds which notes have a history (by path, so Notula's own renames, notebook moves, Trash
/// and moves of the whole library carry it along with `moved`), their versions, and the texts
/// themselves, content-addressed (identical texts stored once) and deflated. Each change is
/// one transaction, synced to disk: a SIGKILL or power loss leaves the store as it was before
/// or after, never half.
///
/// Threading: everything runs on the history's own serial queue. `record` returns at once (the
/// caller's only cost is handing over the text); the other calls wait for the queue, so call
/// them off the main thread. When the store cannot be opened (an unwritable folder), the
/// history is off for this run and `unavailableReason` says why; nothing else fails.
///
/// The store is a `SQLiteStore` (pragmas, schema version, the failure policy): transient
/// failures are tried again, a damaged file is set aside (renamed, never deleted), an
/// unwritable one leaves the history off for the run. Deleting versions erases them:
/// `secure_delete` zeroes their pages, and every removal ends with `erase` (freed pages given
/// back, the WAL folded back and truncated), so Clear History leaves no readable trace in any
/// file of the store.
///
/// `@unchecked Sendable`: the SQLite store and its statements (`opened`) are touched on
/// `queue` only, as SQLite's serialized use of one connection asks.
public final class NoteHistory: @unchecked Sendable {
    public static let schemaVersion: Int64 = 1
    /// Larger notes (a log file in the library) get no history: it would crowd out the rest.
    static let largestKeptText = 32 << 20

    public let folder: URL
    public let policy: HistoryPolicy
    /// The user's choice (Preferences): when false, only versions set aside by conflict
    /// resolution are kept (they were promised never to be lost).
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }
    private let enabled = Mutex(true)
    let clock: @Sendable () -> Date
    let queue = DispatchQueue(label: "notula.history", qos: .utility)
    /// Opened on first use (on `queue`); closed by `close`.
    private var opened: Result<SQLiteStore, Error>?

    public init(folder: URL, policy: HistoryPolicy = HistoryPolicy(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder
        self.policy = policy
        self.clock = clock
    }

    /// The history of this user's notes.
    public static let standard = NoteHistory(folder: XDGDirectories().dataHome.appendingPathComponent("notula/History", isDirectory: true))

    public var fileURL: URL { folder.appendingPathComponent("history.sqlite") }

    /// Why the history cannot be kept (the store cannot be opened), or nil.
    public var unavailableReason: String? {
        queue.sync {
            if case .failure(let error) = open() { return "\(error)" }
            return nil
        }
    }

    // MARK: Recording

    /// Keeps `contents` (read on the history's queue, so the caller pays nothing for a large
    /// note) as a version of the note at `note`, unless the policy says not: the same text as
    /// its newest version is not kept twice, `.edited` versions come at most every
    /// `editingInterval` (the first at once), a new note opened empty has none. Failures are
    /// logged, never shown: the history is a safety net.
    public func record(of note: URL, origin: HistoryVersion.Origin, contents: @escaping @Sendable () -> Data?) {
        guard isEnabled || origin.isSetAside else { return }
        let path = Self.key(note)
        queue.async {
            // A note opened or left just as it went (to the Trash, a notebook) has its history
            // elsewhere now: a version filed under the old path would start an orphan history.
            if origin == .opened || origin == .closed, access(path, F_OK) != 0 { return }
            guard let data = contents() else { return }
            if origin == .opened && data.isEmpty { return }  // a new note: no past worth keeping
            do {
                try SQLiteStore.retrying { try self.insert(data, path: path, origin: origin) }
            } catch {
                Self.log("a version of \(path) was not kept (\(error))")
            }
        }
    }

    /// Keeps `data` now and returns once it is on disk (before a conflict resolution removes
    /// the version it sets aside); throws when it could not be kept.
    public func keep(_ data: Data, of note: URL, origin: HistoryVersion.Origin) throws {
        let path = Self.key(note)
        try queue.sync { try SQLiteStore.retrying { try self.insert(data, path: path, origin: origin, force: true) } }
    }

    /// Returns once everything handed to `record` is in the store (tests, quitting).
    public func waitUntilIdle() { queue.sync {} }

    // MARK: Following the note

    /// The note (or notebook folder, with all notes in it) at `old` is now at `new`: its
    /// history goes along. A history already at `new` (a note deleted earlier) is detached.
    public func moved(from old: URL, to new: URL) {
        moved([(old, new)])
    }

    public func moved(_ moves: [(from: URL, to: URL)]) {
        moved(paths: moves.map { (Self.key($0.from), Self.key($0.to)) })
    }

    /// Many notes moved at once (all notes to the other library folder), by their absolute,
    /// standardized paths (cheap to make for 100,000 notes, unlike URLs): one transaction.
    public func moved(paths moves: [(from: String, to: String)]) {
        let keys = moves.filter { $0.from != $0.to }
        guard !keys.isEmpty else { return }
        queue.async {
            do {
                try SQLiteStore.retrying {
                    try self.database().transaction {
                        for (from, to) in keys {
                            try self.detach(under: to)
                            try self.statement("""
                                UPDATE notes SET path = ?2 || substr(path, length(?1) + 1)
                                WHERE \(Self.atOrUnder)
                                """).run([.text(from), .text(to)])
                        }
                    }
                }
            } catch {
                Self.log("the history of \(keys.count) moved notes did not follow them (\(error))")
            }
        }
    }

    /// The note (or a notebook's folder of notes) at `note` was deleted for good: its history
    /// goes too, or stays (without a note; `notes()` still lists it) when `keepHistory`.
    public func noteDeleted(_ note: URL, keepHistory: Bool) {
        let path = Self.key(note)
        queue.async {
            do {
                try SQLiteStore.retrying {
                    try self.database().transaction {
                        if keepHistory { return try self.detach(under: path) }
                        try self.statement("""
                            DELETE FROM versions WHERE note IN (SELECT id FROM notes WHERE \(Self.atOrUnder))
                            """).run([.text(path)])
                        try self.removeUnusedTexts()
                    }
                    if !keepHistory { try self.store().erase() }
                }
            } catch {
                Self.log("the history of \(path) was not updated (\(error))")
            }
        }
    }

    /// Removes every version of every note (Preferences ▸ Clear History) and erases them from
    /// every file of the store; throws when that could not be done entirely. The library is
    /// not touched.
    public func clear() throws {
        try queue.sync {
            try SQLiteStore.retrying {
                let database = try self.database()
                try database.transaction { try database.execute("DELETE FROM versions; DELETE FROM notes; DELETE FROM texts") }
                try self.store().erase()
            }
        }
    }

    /// Closes the store (at quit, after what was handed over is written): its WAL is folded
    /// back and removed. Later calls open it again.
    public func close() {
        queue.sync {
            if case .success(let store) = opened { store.close() }
            opened = nil
        }
    }

    // MARK: Reading

    /// The versions of the note at `note`, newest first.
    public func versions(of note: URL) throws -> [HistoryVersion] {
        let path = Self.key(note)
        return try queue.sync {
            guard let id = try self.historyID(path: path) else { return [] }
            return try self.versionsOnQueue(ofHistory: id)
        }
    }

    /// The versions of the history `id`, newest first.
    public func versions(ofHistory id: Int64) throws -> [HistoryVersion] {
        try queue.sync { try self.versionsOnQueue(ofHistory: id) }
    }

    /// The bytes of `version`.
    public func contents(of version: HistoryVersion) throws -> Data {
        try queue.sync {
            guard let (size, data) = try self.statement("SELECT size, data FROM texts WHERE key = ?1")
                .first([.text(version.key)], { (Int($0.integer(0)), $0.data(1)) }) else {
                throw SQLiteDatabase.Failure(code: SQLITE_NOTFOUND, message: "no text for version \(version.id)")
            }
            return try Deflate.decompress(data, size: size)
        }
    }

    /// Every note with a history, the most recently changed first (those deleted for good
    /// with their history kept have no path).
    public func notes() throws -> [HistoryNote] {
        try queue.sync {
            try self.statement("""
                SELECT notes.id, notes.path, notes.title, max(versions.date), count(*) FROM notes JOIN versions ON versions.note = notes.id
                GROUP BY notes.id ORDER BY max(versions.date) DESC
                """).all {
                HistoryNote(id: $0.integer(0), path: $0.isNull(1) ? nil : $0.text(1), title: $0.text(2),
                            newest: Date(timeIntervalSince1970: $0.real(3)), count: Int($0.integer(4)))
            }
        }
    }

    /// What the stored texts take (compressed), in bytes.
    public func storedBytes() throws -> Int64 {
        try queue.sync { try self.storedBytesOnQueue() }
    }

    // MARK: On the queue

    /// Where a note's history is filed: its absolute path.
    static func key(_ note: URL) -> String { note.standardizedFileURL.path }

    func database() throws -> SQLiteDatabase {
        try store().writer
    }

    func store() throws -> SQLiteStore {
        try open().get()
    }

    private func open() -> Result<SQLiteStore, Error> {
        if let opened { return opened }
        let result = Result { try openStore() }
        if case .failure(let error) = result { Self.log("the note history at \(fileURL.path) cannot be used (\(error)); no versions are kept this time") }
        opened = result
        return result
    }

    static let schema = SQLiteStore.Schema(version: schemaVersion, create: { database in
        try database.execute("""
            CREATE TABLE notes(id INTEGER PRIMARY KEY, path TEXT UNIQUE, title TEXT NOT NULL DEFAULT '');
            CREATE TABLE texts(key TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL);
            CREATE TABLE versions(id INTEGER PRIMARY KEY, note INTEGER NOT NULL, date REAL NOT NULL, key TEXT NOT NULL, origin TEXT NOT NULL);
            CREATE INDEX versions_by_note ON versions(note, date);
            CREATE INDEX versions_by_key ON versions(key);
            """)
    }, probe: "SELECT count(*) FROM notes WHERE id = 1")

    /// Each version synced to disk; deleted texts overwritten; the WAL folded back often and
    /// kept short, so the store on disk stays close to what its texts take.
    static let settings = SQLiteStore.Settings(incrementalVacuum: true, synchronous: "FULL", secureDelete: "ON",
                                               walAutocheckpoint: 128, journalSizeLimit: 512 << 10)

    /// Opens the store; a damaged file, or one from a future Notula, is set aside (renamed,
    /// never deleted: it holds the user's past) and a new one started.
    private func openStore() throws -> SQLiteStore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
        do {
            return try SQLiteStore.open(fileURL, schema: Self.schema, settings: Self.settings)
        } catch where SQLiteStore.trouble(of: error, atOpen: true) == .damaged {
            let aside = fileURL.path + ".damaged-\(Int(clock().timeIntervalSince1970))"
            Self.log("the note history at \(fileURL.path) cannot be read (\(error)); it is kept as \(aside) and a new one started")
            for suffix in ["", "-wal", "-shm"] { rename(fileURL.path + suffix, aside + suffix) }
            return try SQLiteStore.open(fileURL, schema: Self.schema, settings: Self.settings)
        }
    }

    func statement(_ sql: String) throws -> SQLiteDatabase.Statement {
        try database().cached(sql)
    }

    /// Adds a version (one transaction), then thins the note's history and keeps the cap.
    func insert(_ data: Data, path: String, origin: HistoryVersion.Origin, force: Bool = false, date: Date? = nil) throws {
        guard data.count <= Self.largestKeptText else { return Self.log("\(path) is too large to keep in its history") }
        let database = try self.database()
        let now = date ?? clock()
        let key = Self.contentKey(data)
        let added = try database.transaction { () -> Int64? in
            let existing = try historyID(path: path)
            if let existing, !force, let newest = try newestVersion(ofHistory: existing) {
                if newest.key == key { return nil }
                // While editing, one version every `editingInterval`: the first save of the
                // writing gets one at once (counted from the last `.edited`, not from opening).
                if origin == .edited, let lastEdited = try newestVersion(ofHistory: existing, origin: .edited),
                   now.timeIntervalSince(lastEdited.date) < policy.editingInterval { return nil }
            }
            let note = try existing ?? newHistory(path: path)
            // Compressed only when this text is not stored yet (most "new" versions are not new).
            if try statement("SELECT 1 FROM texts WHERE key = ?1").first([.text(key)], { _ in true }) == nil {
                try statement("INSERT INTO texts(key, size, data) VALUES (?1, ?2, ?3)")
                    .run([.text(key), .integer(Int64(data.count)), .blob(try Deflate.compress(data))])
            }
            try statement("INSERT INTO versions(note, date, key, origin) VALUES (?1, ?2, ?3, ?4)")
                .run([.integer(note), .real(now.timeIntervalSince1970), .text(key), .text(origin.rawValue)])
            try statement("UPDATE notes SET title = ?2 WHERE id = ?1").run([.integer(note), .text(Self.title(of: data))])
            return note
        }
        guard let added else { return }
        try thin(history: added, now: now)
        try keepWithinCap()
    }

    /// The history of the note at `path`, if it has one.
    private func historyID(path: String) throws -> Int64? {
        try statement("SELECT id FROM notes WHERE path = ?1").first([.text(path)]) { $0.integer(0) }
    }

    private func newHistory(path: String) throws -> Int64 {
        try statement("INSERT INTO notes(path) VALUES (?1)").run([.text(path)])
        return try database().lastInsertedRow
    }

    /// Histories at `path` or below it lose their path (their notes are gone).
    /// The note at ?1 and those under it when it is a folder ("?1/…"), as a range the path
    /// index answers: "?1/…" sorts between "?1/" and "?1" + "0" ('0' follows '/'). A moved
    /// library of 100,000 notes is one look-up per note, not a scan of every history per note.
    static let atOrUnder = "(path = ?1 OR (path > ?1 || '/' AND path < ?1 || '0'))"

    func detach(under path: String) throws {
        try statement("UPDATE notes SET path = NULL WHERE \(Self.atOrUnder)").run([.text(path)])
    }

    func versionsOnQueue(ofHistory id: Int64) throws -> [HistoryVersion] {
        try statement("""
            SELECT versions.id, versions.date, texts.size, versions.origin, versions.key FROM versions JOIN texts ON texts.key = versions.key
            WHERE versions.note = ?1 ORDER BY versions.date DESC, versions.id DESC
            """).all([.integer(id)]) {
            HistoryVersion(id: $0.integer(0), history: id, date: Date(timeIntervalSince1970: $0.real(1)), size: Int($0.integer(2)),
                           origin: HistoryVersion.Origin(rawValue: $0.text(3)) ?? .edited, key: $0.text(4))
        }
    }

    private func newestVersion(ofHistory id: Int64, origin: HistoryVersion.Origin? = nil) throws -> (key: String, date: Date)? {
        let read = { (row: SQLiteDatabase.Row) in (key: row.text(0), date: Date(timeIntervalSince1970: row.real(1))) }
        guard let origin else {
            return try statement("SELECT key, date FROM versions WHERE note = ?1 ORDER BY date DESC, id DESC LIMIT 1").first([.integer(id)], read)
        }
        return try statement("SELECT key, date FROM versions WHERE note = ?1 AND origin = ?2 ORDER BY date DESC, id DESC LIMIT 1")
            .first([.integer(id), .text(origin.rawValue)], read)
    }

    /// A key no two different texts share in practice: 64-bit FNV-1a, CRC-32 and the length.
    static func contentKey(_ data: Data) -> String {
        String(format: "%016llx%08x-%d", ContentHash.of(data), Deflate.checksum(data), data.count)
    }

    /// The title a version gives its note in lists: its first line.
    static func title(of data: Data) -> String {
        NoteText.title(of: String(decoding: data.prefix(1024), as: UTF8.self))
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("notula: \(message)\n".utf8))
    }
}

import CSQLite
import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The one SQLite store type the index and the history share: pragmas in the order SQLite
/// needs them, statements that are never left busy, the failure policy, a WAL folded back and
/// gone after `close`, and stores in memory with a reader beside the writer.
final class SQLiteStoreTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUp() {
        folder = TemporaryFolder()
    }

    private let schema = SQLiteStore.Schema(version: 1, create: { database in
        try database.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    }, probe: "SELECT count(*) FROM items")

    private var url: URL { folder.file("store.sqlite") }

    private func size(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    func testAStatementLeftBusyAtCommitFailsTheDebugCheck() throws {
        let store = try SQLiteStore.open(url, schema: schema, settings: .init())
        let writer = store.writer
        try writer.transaction {
            for number in 0..<3 { try writer.cached("INSERT INTO items(text) VALUES (?)").run([.text("item \(number)")]) }
        }
        // Committing while a statement of ours is still on a row: the check stops the commit.
        try writer.begin()
        XCTAssertThrowsError(try writer.prepare("SELECT id FROM items").forEach { _ in try writer.commit() }) { error in
            XCTAssertEqual((error as? SQLiteDatabase.Failure)?.code, SQLiteDatabase.Failure.statementLeftBusy)
        }
        XCTAssertEqual(writer.busyStatements, [], "forEach resets its statement even when the body throws")
        try writer.commit()
        // Every way of reading leaves nothing busy, so a checkpoint can fold the whole WAL back.
        _ = try writer.cached("SELECT text FROM items ORDER BY id").first { $0.text(0) }
        _ = try store.reader.prepare("SELECT text FROM items").all { $0.text(0) }
        XCTAssertEqual(try writer.integer("SELECT count(*) FROM items"), 3)
        XCTAssertEqual(writer.busyStatements, [])
        XCTAssertNoThrow(try store.checkpoint())
        XCTAssertEqual(size(url.path + "-wal"), 0, "truncated")
    }

    func testAutoVacuumIsSetBeforeTheWALAndAnOlderStoreIsConverted() throws {
        let settings = SQLiteStore.Settings(incrementalVacuum: true)
        do {
            let store = try SQLiteStore.open(url, schema: schema, settings: settings)
            XCTAssertEqual(try store.writer.integer("PRAGMA auto_vacuum"), 2, "incremental")
            XCTAssertEqual(try store.writer.text("PRAGMA journal_mode"), "wal")
        }
        // A store made the old way: WAL first, so auto_vacuum was silently ignored.
        let old = folder.file("old.sqlite")
        do {
            let database = try SQLiteDatabase(path: old.path)
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA auto_vacuum = INCREMENTAL")
            try database.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, text TEXT NOT NULL); PRAGMA user_version = 1")
            try database.execute("INSERT INTO items(text) VALUES ('kept')")
            XCTAssertEqual(try database.integer("PRAGMA auto_vacuum"), 0, "the mistake this store type prevents")
        }
        let store = try SQLiteStore.open(old, schema: schema, settings: settings)
        XCTAssertEqual(try store.writer.integer("PRAGMA auto_vacuum"), 2, "converted")
        XCTAssertEqual(try store.writer.text("SELECT text FROM items"), "kept")
        // Incremental vacuum now gives pages back.
        try store.writer.transaction {
            for _ in 0..<200 { try store.writer.cached("INSERT INTO items(text) VALUES (?)").run([.text(String(repeating: "x", count: 4000))]) }
        }
        try store.checkpoint()
        let full = size(old.path) ?? 0
        try store.writer.execute("DELETE FROM items")
        try store.erase()
        XCTAssertLessThan(size(old.path) ?? .max, full / 4, "the file shrank")
    }

    func testAStoreOfAnotherSchemaOrNotADatabaseIsDamagedAndALockedOneIsNot() throws {
        try Data(repeating: 7, count: 8192).write(to: url)
        XCTAssertThrowsError(try SQLiteStore.open(url, schema: schema, settings: .init())) { error in
            XCTAssertEqual(SQLiteStore.trouble(of: error), .damaged)
        }
        unlink(url.path)
        do {
            let database = try SQLiteDatabase(path: url.path)
            try database.execute("CREATE TABLE other(x); PRAGMA user_version = 9")
        }
        XCTAssertThrowsError(try SQLiteStore.open(url, schema: schema, settings: .init())) { error in
            XCTAssertEqual(SQLiteStore.trouble(of: error), .damaged, "a future schema")
        }
        unlink(url.path)
        _ = try SQLiteStore.open(url, schema: schema, settings: .init())
        let holder = try SQLiteDatabase(path: url.path)
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO items(text) VALUES ('held')")
        XCTAssertThrowsError(try SQLiteStore.open(url, schema: schema, settings: .init())) { error in
            XCTAssertNotEqual(SQLiteStore.trouble(of: error), .damaged, "locked is not damaged: the file is left alone")
        }
        try holder.execute("COMMIT")
    }

    func testTransientFailuresAreTriedAgainAndOthersAreNot() throws {
        var attempts = 0
        let value = try SQLiteStore.retrying { () -> Int in
            attempts += 1
            if attempts < 3 { throw SQLiteDatabase.Failure(code: SQLITE_BUSY, message: "busy") }
            return 42
        }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(attempts, 3)
        attempts = 0
        XCTAssertThrowsError(try SQLiteStore.retrying { () -> Int in
            attempts += 1
            throw SQLiteDatabase.Failure(code: SQLITE_CORRUPT, message: "corrupt")
        })
        XCTAssertEqual(attempts, 1, "damage is not tried again")
        XCTAssertEqual(SQLiteStore.trouble(of: SQLiteDatabase.Failure(code: SQLITE_IOERR | (13 << 8), message: "")), .transient, "extended codes too")
        XCTAssertEqual(SQLiteStore.trouble(of: SQLiteDatabase.Failure(code: SQLITE_FULL, message: "")), .unwritable)
        XCTAssertEqual(SQLiteStore.trouble(of: SQLiteDatabase.Failure(code: SQLITE_READONLY, message: "")), .unwritable)
        XCTAssertEqual(SQLiteStore.trouble(of: SQLiteDatabase.Failure(code: SQLITE_NOTADB, message: "")), .damaged)
    }

    func testTheWALIsFoldedBackAndRemovedAtClose() throws {
        let store = try SQLiteStore.open(url, schema: schema, settings: .init(hasReader: true))
        try store.writer.transaction {
            for _ in 0..<100 { try store.writer.cached("INSERT INTO items(text) VALUES (?)").run([.text(String(repeating: "y", count: 3000))]) }
        }
        _ = try store.reader.prepare("SELECT count(*) FROM items").first { $0.integer(0) }
        XCTAssertGreaterThan(size(url.path + "-wal") ?? 0, 0)
        store.close()
        XCTAssertNil(size(url.path + "-wal"), "no WAL after a clean close")
        XCTAssertNil(size(url.path + "-shm"))
        XCTAssertThrowsError(try store.writer.execute("SELECT 1"), "closed")
        let again = try SQLiteStore.open(url, schema: schema, settings: .init())
        XCTAssertEqual(try again.writer.integer("SELECT count(*) FROM items"), 100)
    }

    /// In memory the reader works while the writer is inside a transaction (a search during
    /// indexing).
    func testAStoreInMemoryReadsBesideItsWriterAndGoesAtClose() throws {
        for folders in [nil, [String]()] {  // a RAM-backed folder, and none (SQLite's memdb)
            let store = try SQLiteStore.inMemory(schema: schema, settings: .init(hasReader: true), folders: folders)
            XCTAssertNil(store.fileURL)
            try store.writer.transaction { try store.writer.cached("INSERT INTO items(text) VALUES ('one')").run() }
            try store.writer.begin()
            try store.writer.cached("INSERT INTO items(text) VALUES ('two')").run()
            if folders == nil {
                XCTAssertEqual(try store.reader.integer("SELECT count(*) FROM items"), 1, "the last committed state, at once")
            }
            try store.writer.commit()
            XCTAssertEqual(try store.reader.integer("SELECT count(*) FROM items"), 2)
            XCTAssertThrowsError(try store.reader.execute("INSERT INTO items(text) VALUES ('no')"), "the reader never writes")
            let file = store.memoryFile
            XCTAssertEqual(file != nil, folders == nil, "a file in a RAM-backed folder, or memdb")
            if let file { XCTAssertNotNil(size(file)) }
            store.close()
            if let file { XCTAssertNil(size(file), "removed at close") }
        }
    }

    /// A search stopped for a newer keystroke stops alone: the list's reading on the same
    /// connection, on another thread, reads on, and a search begun while that reading runs is
    /// answered. (With sqlite3_interrupt both were stopped: a search typed while the list
    /// loaded was lost, and the list showed every note under "Window" typed in the field.)
    func testStoppingASearchStopsOnlyIt() throws {
        let store = try SQLiteStore.open(url, schema: schema, settings: .init(hasReader: true))
        try store.writer.execute("""
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000)
            INSERT INTO items(text) SELECT 'item ' || x FROM n
            """)
        let reader = store.reader
        let listing = HeldRead(of: reader, stoppable: false)  // the list's reading
        let search = HeldRead(of: reader, stoppable: true)
        reader.stopStoppable()
        guard case .failure(let error as SQLiteDatabase.Failure) = search.finish() else { return XCTFail("the search was not stopped") }
        XCTAssertEqual(error.primaryCode, SQLITE_INTERRUPT)
        XCTAssertEqual(try reader.stoppable { try reader.integer("SELECT count(*) FROM items") }, 20000,
                       "a search begun while the listing still runs is answered")
        XCTAssertEqual(try listing.finish().get(), 20000, "the listing read every row")
        store.close()
    }
}

/// A read of every row of `items` on another thread, held at its first row (its statement
/// running) until `finish`, which returns how many rows it read.
private final class HeldRead: Sendable {
    private let started = DispatchSemaphore(value: 0), goOn = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
    private let outcome = Shared<Result<Int, Error>?>(nil)

    init(of connection: SQLiteDatabase, stoppable: Bool) {
        DispatchQueue.global().async { [started, goOn, done, outcome] in
            let read = {
                var rows = 0
                try connection.prepare("SELECT text FROM items").forEach { _ in
                    if rows == 0 { started.signal(); goOn.wait() }
                    rows += 1
                }
                return rows
            }
            outcome.value = Result { try stoppable ? connection.stoppable(read) : read() }
            done.signal()
        }
        started.wait()
    }

    func finish() -> Result<Int, Error> {
        goOn.signal()
        done.wait()
        return outcome.value ?? .failure(CancellationError())
    }
}

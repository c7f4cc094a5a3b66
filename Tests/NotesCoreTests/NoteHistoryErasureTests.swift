import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Erasing means erased: after Clear History, Empty Trash and History, thinning and the cap,
/// no byte sequence of a removed text — as typed or as stored (deflated) — is in any file of
/// the store; the store is small again; its WAL is gone after `close`; and the store made by
/// an earlier Notula (auto_vacuum silently off) is converted once.
final class NoteHistoryErasureTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let clock = TestClock()

    override func setUp() {
        folder = TemporaryFolder()
    }

    private func makeHistory(_ policy: HistoryPolicy = HistoryPolicy(editingInterval: 0)) -> NoteHistory {
        let clock = self.clock
        return NoteHistory(folder: folder.url.appendingPathComponent("History"), policy: policy, clock: { clock.now })
    }

    private func note(_ name: String) -> URL { folder.url.appendingPathComponent("Library/\(name)") }

    /// A text of its own: a unique secret line among random words (deflates to its own bytes).
    private func secretText(_ tag: String, random: inout SeededRandom) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let words = (0..<3000).map { _ in String((0..<(3 + random.next(upTo: 6))).map { _ in letters[random.next(upTo: letters.count)] }) }
        return "Note \(tag)\npassword: hunter-\(tag)-\(random.next(upTo: 1_000_000))\n" + words.joined(separator: " ")
    }

    private func keep(_ history: NoteHistory, _ text: String, of url: URL, _ origin: HistoryVersion.Origin = .edited) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
        history.record(of: url, origin: origin) { Data(text.utf8) }
        history.waitUntilIdle()
    }

    /// Byte sequences that give `text` away: its secret line as typed, and 48-byte stretches of
    /// its deflated form (as the store keeps it) from the start, middle and end.
    private func traces(of text: String) throws -> [(String, Data)] {
        let secret = text.split(separator: "\n")[1]
        let deflated = try Deflate.compress(Data(text.utf8))
        let stretch = 48
        return [("the secret as typed", Data(secret.utf8))] + [0, deflated.count / 2, deflated.count - stretch].map {
            ("deflated bytes at \($0)", deflated.subdata(in: $0..<($0 + stretch)))
        }
    }

    /// Every file of the store, and which of `texts` any of them still gives away.
    private func tracesLeft(of texts: [String], in history: NoteHistory) throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: history.folder.path)
        var found: [String] = []
        for name in files {
            let bytes = try Data(contentsOf: history.folder.appendingPathComponent(name))
            for (index, text) in texts.enumerated() {
                for (what, trace) in try traces(of: text) where bytes.range(of: trace) != nil {
                    found.append("text \(index): \(what) in \(name)")
                }
            }
        }
        return found
    }

    private func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    func testClearHistoryLeavesNoTraceOfAnyTextInAnyFileAndSaysItSucceeded() throws {
        var random = SeededRandom(seed: 28)
        let history = makeHistory()
        var texts: [String] = []
        for number in 0..<6 {
            for edit in 0..<4 {
                let text = secretText("\(number)-\(edit)", random: &random)
                texts.append(text)
                keep(history, text, of: note("n\(number).md"))
                clock.advance(30)
            }
        }
        for text in texts { XCTAssertFalse(try tracesLeft(of: [text], in: history).isEmpty, "found before: the check can fail") }
        let before = size(of: history.fileURL.path) + size(of: history.fileURL.path + "-wal")
        XCTAssertNoThrow(try history.clear(), "no failure is shown when every row is gone")
        XCTAssertEqual(try tracesLeft(of: texts, in: history), [])
        XCTAssertEqual(try history.notes(), [])
        let after = size(of: history.fileURL.path) + size(of: history.fileURL.path + "-wal")
        XCTAssertLessThan(after, before / 4, "the store gave its space back (\(before) → \(after) bytes)")
        history.close()
        XCTAssertEqual(try tracesLeft(of: texts, in: history), [], "nor after quitting")
        XCTAssertFalse(FileManager.default.fileExists(atPath: history.fileURL.path + "-wal"), "no WAL after close")
        // The store works on after it was cleared and closed.
        keep(history, "after\n", of: note("n0.md"))
        XCTAssertEqual(try history.versions(of: note("n0.md")).count, 1)
    }

    func testEmptyTrashAndHistoryErasesThoseNotesOnly() throws {
        var random = SeededRandom(seed: 29)
        let history = makeHistory()
        let gone = (0..<3).map { secretText("gone\($0)", random: &random) }
        let kept = secretText("kept", random: &random)
        for text in gone {
            keep(history, text, of: note(".notula/Trash/deleted.md"))
            clock.advance(60)
        }
        keep(history, kept, of: note("kept.md"))
        history.noteDeleted(note(".notula/Trash/deleted.md"), keepHistory: false)
        history.waitUntilIdle()
        XCTAssertEqual(try tracesLeft(of: gone, in: history), [])
        XCTAssertFalse(try tracesLeft(of: [kept], in: history).isEmpty, "the other note's version is still there")
        XCTAssertEqual(try history.versions(of: note("kept.md")).count, 1)
    }

    func testThinningAndTheCapEraseTheVersionsTheyRemove() throws {
        var random = SeededRandom(seed: 30)
        let history = makeHistory()
        // Three versions within one hour, two days ago: thinning keeps the newest of the hour.
        let old = (0..<3).map { secretText("hour\($0)", random: &random) }
        for text in old {
            keep(history, text, of: note("a.md"))
            clock.advance(600)
        }
        clock.advance(2 * 24 * 3600)
        keep(history, secretText("now", random: &random), of: note("a.md"))
        XCTAssertEqual(try tracesLeft(of: Array(old.prefix(2)), in: history), [], "thinned away, and erased")
        XCTAssertFalse(try tracesLeft(of: [old[2]], in: history).isEmpty, "the newest of the hour stays")

        // The cap removes the oldest versions of another store: erased too.
        let capped = NoteHistory(folder: folder.url.appendingPathComponent("Capped"), policy: HistoryPolicy(editingInterval: 0, capBytes: 40_000),
                                 clock: { [clock] in clock.now })
        var texts: [String] = []
        for number in 0..<8 {
            let text = secretText("cap\(number)", random: &random)
            texts.append(text)
            keep(capped, text, of: note("b\(number).md"))
            clock.advance(60)
        }
        let left = try tracesLeft(of: texts, in: capped)
        for (number, text) in texts.enumerated() where try capped.versions(of: note("b\(number).md")).isEmpty {
            XCTAssertEqual(try tracesLeft(of: [text], in: capped), [], "capped away: b\(number).md")
        }
        XCTAssertFalse(left.isEmpty, "some versions are within the cap")
    }

    func testAnEarlierStoreIsConvertedToIncrementalVacuumOnce() throws {
        let store = folder.url.appendingPathComponent("History", isDirectory: true)
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        do {
            // As Notula 0.x made it: WAL first, so auto_vacuum was ignored.
            let database = try SQLiteDatabase(path: store.appendingPathComponent("history.sqlite").path)
            try database.execute("""
                PRAGMA journal_mode=WAL; PRAGMA auto_vacuum = INCREMENTAL;
                CREATE TABLE notes(id INTEGER PRIMARY KEY, path TEXT UNIQUE, title TEXT NOT NULL DEFAULT '');
                CREATE TABLE texts(key TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL);
                CREATE TABLE versions(id INTEGER PRIMARY KEY, note INTEGER NOT NULL, date REAL NOT NULL, key TEXT NOT NULL, origin TEXT NOT NULL);
                PRAGMA user_version = 1;
                """)
            XCTAssertEqual(try database.integer("PRAGMA auto_vacuum"), 0)
        }
        let history = makeHistory()
        keep(history, "first\n", of: note("a.md"))
        XCTAssertEqual(try history.database().integer("PRAGMA auto_vacuum"), 2)
        XCTAssertEqual(try history.versions(of: note("a.md")).count, 1)
    }
}

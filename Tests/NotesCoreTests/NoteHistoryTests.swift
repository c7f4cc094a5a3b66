import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The note history on real files with an injected clock: which versions are kept, thinning,
/// the size cap, identical texts stored once, the history following its note through
/// Notula's own renames, notebook moves, Trash and restore and a move of the whole library,
/// and stores that are damaged or cannot be written.
final class NoteHistoryTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let clock = TestClock()

    override func setUp() {
        folder = TemporaryFolder()
    }

    private func makeHistory(_ policy: HistoryPolicy = HistoryPolicy(), in url: URL? = nil) -> NoteHistory {
        let clock = self.clock
        return NoteHistory(folder: url ?? folder.url.appendingPathComponent("History"), policy: policy, clock: { clock.now })
    }

    /// The note's file holds `text` (versions of notes not on disk are not kept), and a
    /// version of it is kept, as a document would.
    private func record(_ history: NoteHistory, _ text: String, of note: URL, _ origin: HistoryVersion.Origin = .closed) {
        try? FileManager.default.createDirectory(at: note.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: note)
        history.record(of: note, origin: origin) { Data(text.utf8) }
        history.waitUntilIdle()
    }

    private func texts(_ history: NoteHistory, of note: URL) throws -> [String] {
        history.waitUntilIdle()
        return try history.versions(of: note).map { String(decoding: try history.contents(of: $0), as: UTF8.self) }
    }

    private var note: URL { folder.url.appendingPathComponent("Library/note.md") }

    // MARK: Which versions

    func testEditingKeepsAtMostOneVersionPerIntervalAndNeverTheSameTextTwice() throws {
        let history = makeHistory(HistoryPolicy(editingInterval: 300))
        record(history, "one", of: note, .opened)
        clock.advance(2)
        record(history, "one two", of: note, .edited)  // the first save of the writing: kept at once
        clock.advance(60)
        record(history, "one two three", of: note, .edited)  // 1 min after the last one kept while editing: not kept
        record(history, "one two", of: note, .closed)  // the same text as the newest: not kept
        clock.advance(300)
        record(history, "one two three four", of: note, .edited)  // 6 min: kept
        clock.advance(10)
        record(history, "one two three four five", of: note, .closed)  // leaving: kept whatever the interval
        XCTAssertEqual(try texts(history, of: note), ["one two three four five", "one two three four", "one two", "one"])
        XCTAssertEqual(try history.versions(of: note).map(\.origin), [.closed, .edited, .edited, .opened])
    }

    func testANewEmptyNoteHasNoVersionUntilItHasText() throws {
        let history = makeHistory()
        record(history, "", of: note, .opened)
        XCTAssertEqual(try texts(history, of: note), [])
        record(history, "Groceries", of: note, .edited)
        XCTAssertEqual(try texts(history, of: note), ["Groceries"])
    }

    func testIdenticalTextsAreStoredOnceAndCompressed() throws {
        let history = makeHistory()
        let text = String(repeating: "The same paragraph, written again and again.\n", count: 2000)  // 92 KB
        for index in 0..<5 {
            record(history, text, of: folder.url.appendingPathComponent("Library/\(index).md"))
            record(history, "other \(index)", of: folder.url.appendingPathComponent("Library/\(index).md"))
            clock.advance(60)
            record(history, text, of: folder.url.appendingPathComponent("Library/\(index).md"))
        }
        let stored = try history.storedBytes()
        XCTAssertLessThan(stored, 10_000, "15 versions of 92 KB texts, one of them stored, compressed")
        XCTAssertEqual(try history.notes().count, 5)
        XCTAssertEqual(try texts(history, of: folder.url.appendingPathComponent("Library/3.md")), [text, "other 3", text])
    }

    // MARK: Thinning and the cap

    func testThinningKeepsTheLastDayAllThenHourlyDailyWeekly() throws {
        // A version every 10 minutes for 120 days (17,280 versions), from the past to now.
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var versions: [HistoryVersion] = []
        for step in 0..<(120 * 144) {
            versions.append(HistoryVersion(id: Int64(step), history: 1, date: now.addingTimeInterval(-Double(step) * 600), size: 1,
                                           origin: step == 10_000 ? .otherVersion : .edited, key: "\(step)"))
        }
        let removed = Set(HistoryPolicy.thinning(versions, now: now).map(\.id))
        let kept = versions.filter { !removed.contains($0.id) }
        func count(_ range: Range<Double>) -> Int {
            kept.filter { range.contains(now.timeIntervalSince($0.date) / 86_400) }.count
        }
        XCTAssertEqual(count(0..<1), 144, "the last day: every version")
        XCTAssertEqual(count(1..<7), 6 * 24, accuracy: 2, "a week: one an hour")
        XCTAssertEqual(count(7..<90), 83 + 1, accuracy: 2, "three months: one a day (and the version set aside)")
        XCTAssertEqual(count(90..<121), 5, accuracy: 1, "after: one a week")
        XCTAssertTrue(kept.contains { $0.id == 10_000 }, "versions set aside by a conflict are never thinned")
    }

    func testMaintainThinsTheStoreAndRemovesUnusedTexts() throws {
        let history = makeHistory(HistoryPolicy(editingInterval: 0))
        for index in 0..<48 {  // one every half hour for a day, ten days ago
            record(history, "text \(index)", of: note, .edited)
            clock.advance(1800)
        }
        XCTAssertEqual(try history.versions(of: note).count, 48, "all from the last day")
        let before = try history.storedBytes()
        clock.advance(10 * 86_400)
        history.maintain()
        history.waitUntilIdle()
        let kept = try history.versions(of: note)
        XCTAssertLessThanOrEqual(kept.count, 2, "ten days later: one per day (the day boundary may split them)")
        XCTAssertEqual(try texts(history, of: note).first, "text 47", "the newest stays")
        XCTAssertLessThan(try history.storedBytes(), before, "the texts of removed versions are gone")
    }

    func testTheCapRemovesTheOldestButNeverANotesNewestVersion() throws {
        let history = makeHistory(HistoryPolicy(editingInterval: 0, capBytes: 30_000))
        var random = SeededRandom(seed: 7)
        func randomText() -> String { String((0..<20_000).map { _ in Character(UnicodeScalar(UInt8(97 + random.next(upTo: 26)))) }) }
        let other = folder.url.appendingPathComponent("Library/other.md")
        let otherText = randomText()
        record(history, otherText, of: other)
        for _ in 0..<8 {
            clock.advance(60)
            record(history, randomText(), of: note, .edited)
        }
        XCTAssertLessThanOrEqual(try history.storedBytes(), 30_000)
        XCTAssertEqual(try texts(history, of: other), [otherText], "the oldest version, but its note's newest: kept")
        XCTAssertEqual(try history.versions(of: note).count, 1, "random letters compress to ~60 %: beside the other note, only the newest fits")
    }

    // MARK: Following the note

    func testHistoryFollowsRenamesNotebookMovesTrashRestoreAndMoveAll() throws {
        let library = folder.url.appendingPathComponent("Library", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let history = makeHistory()
        var url = library.appendingPathComponent("Trip.md")
        try Data("Trip\npassport\n".utf8).write(to: url)
        record(history, "Trip\n", of: url)
        record(history, "Trip\npassport\n", of: url)
        let past = try texts(history, of: url)

        let notebooks = Notebooks(library: library, history: history)
        try notebooks.create("Travel")
        url = library.appendingPathComponent(try notebooks.move(note: "Trip.md", to: "Travel"))
        XCTAssertEqual(try texts(history, of: url), past, "moved to a notebook")
        url = library.appendingPathComponent(try notebooks.rename("Travel", to: "Journeys") + "/Trip.md")
        XCTAssertEqual(try texts(history, of: url), past, "its notebook renamed")

        let trash = LibraryTrash(library: library, history: history)
        let item = try trash.trash(relativePath: "Journeys/Trip.md")
        XCTAssertEqual(try texts(history, of: item.url), past, "in the Trash (the same text is not kept again)")
        url = library.appendingPathComponent(try trash.restore(item))
        XCTAssertEqual(try texts(history, of: url), past, "restored")

        let synced = folder.url.appendingPathComponent("Synced/Notes", isDirectory: true)
        try FileManager.default.createDirectory(at: synced, withIntermediateDirectories: true)
        let mover = LibraryMover(source: library, destination: synced, stateFolder: folder.url.appendingPathComponent("state"), history: history)
        try mover.run(try mover.preflight())
        let moved = synced.appendingPathComponent("Journeys/Trip.md")
        XCTAssertTrue(FileManager.default.fileExists(atPath: moved.path))
        XCTAssertEqual(try texts(history, of: moved), past, "moved with all notes to the synced folder")
        XCTAssertEqual(try texts(history, of: url), [], "nothing left at the old place")
    }

    /// A notebook's move takes the histories of the notes inside it and only those: not a
    /// sibling whose name begins the same ("Travel0", "Travel.md", "Travel 2/…").
    func testANotebooksMoveTakesOnlyTheHistoriesInsideIt() throws {
        let library = folder.url.appendingPathComponent("Library", isDirectory: true)
        let history = makeHistory()
        let names = ["Travel/a.md", "Travel/Deep/b.md", "Travel0/c.md", "Travel.md", "Travel 2/d.md", "Trave/e.md"]
        var past: [String: [String]] = [:]
        for name in names {
            let url = library.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("\(name)\n".utf8).write(to: url)
            record(history, "\(name)\n", of: url)
            past[name] = try texts(history, of: url)
        }
        history.moved(from: library.appendingPathComponent("Travel"), to: library.appendingPathComponent("Journeys"))
        history.waitUntilIdle()
        for name in names {
            let moved = name.hasPrefix("Travel/") ? "Journeys/" + name.dropFirst("Travel/".count) : name
            XCTAssertEqual(try texts(history, of: library.appendingPathComponent(moved)), past[name], "\(name) → \(moved)")
        }
        XCTAssertEqual(try texts(history, of: library.appendingPathComponent("Travel/a.md")), [], "nothing left at the old place")
    }

    func testANoteMadeWhereADeletedOneWasStartsAFreshHistory() throws {
        let library = folder.url.appendingPathComponent("Library", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let history = makeHistory()
        let trash = LibraryTrash(library: library, history: history)
        for (name, keep) in [("kept.md", true), ("gone.md", false)] {
            let url = library.appendingPathComponent(name)
            try Data("old \(name)\n".utf8).write(to: url)
            record(history, "old \(name)\n", of: url)
            try trash.trash(relativePath: name)
            try trash.delete(try XCTUnwrap(trash.items().first), keepHistory: keep)
            history.waitUntilIdle()
            XCTAssertEqual(try texts(history, of: url), [], "\(name): a new note there has no past")
        }
        let notes = try history.notes()
        XCTAssertEqual(notes.map(\.title), ["old kept.md"], "the history kept stays, without a note")
        XCTAssertNil(notes.first?.path)
        XCTAssertEqual(try history.versions(ofHistory: notes[0].id).count, 1)
    }

    func testClearRemovesEveryVersionAndNeverTouchesTheLibrary() throws {
        let history = makeHistory()
        _ = try folder.write("note.md", "keep me\n")
        record(history, "keep me\n", of: folder.url.appendingPathComponent("note.md"))
        try history.clear()
        XCTAssertEqual(try history.notes(), [])
        XCTAssertEqual(try history.storedBytes(), 0)
        XCTAssertEqual(try String(contentsOf: folder.url.appendingPathComponent("note.md"), encoding: .utf8), "keep me\n")
    }

    // MARK: Bad stores

    func testTheStoreIsPrivate() throws {
        let history = makeHistory()
        record(history, "secret", of: note)
        XCTAssertEqual(try mode(of: history.folder), 0o700)
        XCTAssertEqual(try mode(of: history.fileURL), 0o600)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: history.fileURL.path + suffix) {
            XCTAssertEqual(try mode(of: URL(fileURLWithPath: history.fileURL.path + suffix)), 0o600, suffix)
        }
    }

    func testADamagedStoreIsSetAsideAndANewOneStarted() throws {
        let store = folder.url.appendingPathComponent("History", isDirectory: true)
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: store.appendingPathComponent("history.sqlite"))
        let history = makeHistory(in: store)
        record(history, "after", of: note)
        XCTAssertEqual(try texts(history, of: note), ["after"])
        let aside = try FileManager.default.contentsOfDirectory(atPath: store.path).filter { $0.hasPrefix("history.sqlite.damaged-") }
        XCTAssertEqual(aside.count, 1, "the damaged file is kept, not deleted")
        XCTAssertEqual(try Data(contentsOf: store.appendingPathComponent(aside[0])), garbage)
    }

    func testAFutureStoreIsSetAsideToo() throws {
        let store = folder.url.appendingPathComponent("History", isDirectory: true)
        record(makeHistory(in: store), "old", of: note)
        let database = try SQLiteDatabase(path: store.appendingPathComponent("history.sqlite").path)
        try database.execute("PRAGMA user_version = 99")
        let history = makeHistory(in: store)
        XCTAssertEqual(try texts(history, of: note), [])
        record(history, "new", of: note)
        XCTAssertEqual(try texts(history, of: note), ["new"])
    }

    func testAnUnwritableFolderMeansNoHistoryAndNoFailureElsewhere() throws {
        // Root ignores permissions: act as `nobody` (effective ids only, so root comes back).
        guard getuid() == 0 else { throw cannotRun("needs root to act as an unprivileged user") }
        chmod(folder.url.path, 0o755)
        let parent = folder.url.appendingPathComponent("locked", isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        chmod(parent.path, 0o555)
        let history = makeHistory(in: parent.appendingPathComponent("History"))
        guard setegid(65534) == 0, seteuid(65534) == 0 else { throw cannotRun("cannot switch the effective user") }
        defer {
            seteuid(0)
            setegid(0)
        }
        record(history, "lost?", of: note)  // logged, not thrown
        XCTAssertNotNil(history.unavailableReason)
        XCTAssertThrowsError(try history.keep(Data("set aside".utf8), of: note, origin: .otherVersion),
                             "a version a conflict resolution must keep cannot be kept: the resolution fails instead")
        XCTAssertEqual((try? history.notes()) ?? [], [])
    }

    func testANoteLeftJustAsItMovedAwayStartsNoOrphanHistory() throws {
        let history = makeHistory()
        let gone = folder.url.appendingPathComponent("Library/gone.md")
        history.record(of: gone, origin: .closed) { Data("left as it went to the Trash".utf8) }
        history.waitUntilIdle()
        XCTAssertEqual(try history.notes(), [], "no file there: nothing filed under that path")
    }

    func testTurnedOffKeepsOnlyVersionsSetAsideByConflicts() throws {
        let history = makeHistory()
        history.isEnabled = false
        record(history, "ordinary", of: note)
        try history.keep(Data("the other side".utf8), of: note, origin: .otherVersion)
        XCTAssertEqual(try texts(history, of: note), ["the other side"])
    }

    // MARK: Discarded Versions

    func testDiscardedVersionsOfAnEarlierNotulaBecomeHistoryEntries() throws {
        let library = folder.url.appendingPathComponent("Library", isDirectory: true)
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Work"), withIntermediateDirectories: true)
        try Data("Plan\nnow\n".utf8).write(to: library.appendingPathComponent("Work/Plan.md"))
        let old = folder.url.appendingPathComponent("state/versions", isDirectory: true)
        for stem in ["Plan", "Gone"] { try FileManager.default.createDirectory(at: old.appendingPathComponent(stem), withIntermediateDirectories: true) }
        _ = try folder.write("state/versions/Plan/2026-01-02 030405 other version.md", "Plan\nthen\n")
        _ = try folder.write("state/versions/Gone/2026-01-03 030405 replaced version.md", "Gone note\n")
        let history = makeHistory()
        history.importDiscardedVersions(from: old, library: library)
        history.waitUntilIdle()
        let versions = try history.versions(of: library.appendingPathComponent("Work/Plan.md"))
        XCTAssertEqual(versions.map(\.origin), [.discarded])
        XCTAssertEqual(String(decoding: try history.contents(of: versions[0]), as: UTF8.self), "Plan\nthen\n")
        let calendar = Calendar.current
        XCTAssertEqual(calendar.component(.year, from: versions[0].date), 2026)
        XCTAssertEqual(calendar.component(.day, from: versions[0].date), 2)
        XCTAssertTrue(try history.notes().contains { $0.path == nil && $0.title == "Gone note" }, "a note no longer there: a history of its own")
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path), "the old files go once imported")
    }

    private func mode(of url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? 0) & 0o777
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date = Shared(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { date.value }
    func advance(_ seconds: TimeInterval) { date.update { $0 += seconds } }
}


import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Rows first, texts after (issue #29): a reconcile lists every note from the first few KB of
/// its file, the full texts follow in steps; a quit halfway resumes at the next start with
/// nothing lost; the result equals an index built note by note with its texts; an index of
/// schema 7 is kept.
final class LibraryIndexTextsTests: LibraryIndexTestCase {
    private let words = ["alpha", "beta", "café", "Zürich", "evening", "draft", "日本語", "x", "42", "e-mail", "naïve"]

    /// `count` notes, each with a word of its own ("uniq<n>q") past the first 4 KB, so only
    /// its full text can find it.
    private func writeNotes(_ count: Int, seed: UInt64 = 29) {
        var random = SeededRandom(seed: seed)
        for number in 0..<count {
            let body = (0..<(5 + random.next(upTo: 40))).map { _ in words[random.next(upTo: words.count)] }.joined(separator: " ")
            let filler = String(repeating: "filler words ", count: 350)  // past the summary's 4 KB
            write(number % 5 == 0 ? "Book/n\(number).md" : "n\(number).md", "Note \(number)\n\(body)\n\(filler)\nuniq\(number)q\n")
        }
    }

    private func id(_ number: Int) -> String { number % 5 == 0 ? "Book/n\(number).md" : "n\(number).md" }

    func testRowsAreListedBeforeTextsAndTextsMakeThemSearchable() throws {
        try onDiskAndInMemory {
            writeNotes(600)
            let index = try makeIndex()
            var listed: [NoteSummary] = []
            _ = try index.reconcile { listed += $0.upserted }
            XCTAssertEqual(Set(listed.map(\.id)), Set(try onDisk().keys), "every row listed by the reconcile")
            try assertIndexEqualsDisk(index)
            XCTAssertEqual(index.textProgress(), LibraryIndex.TextProgress(indexed: 0, total: 600), "no text yet")
            XCTAssertEqual(try index.matches("uniq7q"), [], "its text is not in yet")
            var steps: [LibraryIndex.TextProgress] = []
            while true {
                let step = index.indexWaitingTexts(seconds: 0)  // one batch at a time
                XCTAssertEqual(step.changes, LibraryIndex.Changes())
                steps.append(step.progress)
                if step.progress.isComplete { break }
            }
            XCTAssertGreaterThan(steps.count, 1, "in steps: \(steps)")
            XCTAssertEqual(steps.map(\.indexed), steps.map(\.indexed).sorted(), "progress only grows")
            XCTAssertEqual(steps.last, LibraryIndex.TextProgress(indexed: 600, total: 600))
            for number in [0, 7, 299, 599] { XCTAssertEqual(try index.matches("uniq\(number)q"), [id(number)]) }
        }
    }

    /// A quit (close) after some steps: the next start lists from the index, reads no file
    /// again, and indexes only the texts still waiting; every note is then found.
    func testAQuitHalfwayThroughTheTextsResumesAtTheNextStart() throws {
        try onDiskAndInMemory {
            guard !inMemory else { return }  // an index in memory is gone at a quit
            writeNotes(900)
            sleep(2)  // settled: files older than two seconds are trusted by their identity
            do {
                let index = try makeIndex()
                _ = try index.reconcile { _ in }
                _ = index.indexWaitingTexts(seconds: 0)
                _ = index.indexWaitingTexts(seconds: 0)
                let halfway = index.textProgress()
                XCTAssertGreaterThan(halfway.indexed, 0)
                XCTAssertLessThan(halfway.indexed, 900)
                index.close()
            }
            let index = try makeIndex()
            let before = index.textProgress()
            XCTAssertGreaterThan(before.indexed, 0, "what was indexed is kept")
            XCTAssertLessThan(before.indexed, 900, "what was not is remembered")
            XCTAssertEqual(try reconciledRowsOnly(index), LibraryIndex.Changes(), "no file read again")
            index.indexAllWaitingTexts()
            XCTAssertEqual(index.textProgress(), LibraryIndex.TextProgress(indexed: 900, total: 900))
            for number in 0..<900 where number % 7 == 0 {
                XCTAssertEqual(try index.matches("uniq\(number)q"), [id(number)], "note \(number)")
            }
        }
    }

    /// Two phases give the index one text at a time gives: the same rows, the same answers.
    func testTheTwoPhaseIndexEqualsOneBuiltNoteByNote() throws {
        try onDiskAndInMemory {
            writeNotes(300)
            write("short.md", "Short\nzy 42")
            write("Book/accents.md", "Accents\nDéjà vu in Zürich")
            let twoPhase = try makeIndex()
            _ = try reconciled(twoPhase)  // rows, then every text
            let oneByOne = try LibraryIndex(library: library, cacheFolder: inMemory ? nil : root.file("other-cache"))
            _ = oneByOne.refresh(Array(try onDisk().keys))  // a refresh reads each note's text with its row
            XCTAssertEqual(oneByOne.textProgress(), LibraryIndex.TextProgress(indexed: 302, total: 302))
            func rows(_ index: LibraryIndex) -> [String: NoteSummary] {
                Dictionary(uniqueKeysWithValues: index.summaries().map { note in
                    var note = note
                    note.indexRow = nil
                    return (note.id, note)
                })
            }
            XCTAssertEqual(rows(twoPhase), rows(oneByOne))
            for query in ["uniq12q", "alpha", "alp", "cafe", "zurich", "evening draft", "x", "42", "zy", "e-mail", "mail", "日本", "naive",
                          "deja vu", "note 1", "filler", "nothing here"] {
                XCTAssertEqual(try twoPhase.matches(query), try oneByOne.matches(query), "“\(query)”")
            }
        }
    }

    /// A note changed while its text waits keeps its old text searchable until the new one is
    /// in; a note deleted while waiting leaves nothing behind.
    func testChangedAndDeletedNotesWhileTextsWait() throws {
        try onDiskAndInMemory {
            write("a.md", "Alpha\nold words")
            write("b.md", "Beta\ngone soon")
            let index = try makeIndex()
            _ = try reconciled(index)
            write("a.md", "Alpha\nnew words here")
            _ = try index.reconcile { _ in }
            XCTAssertEqual(try index.matches("old"), ["a.md"], "the old text until the new one is in")
            unlink(library.folder.appendingPathComponent("b.md").path)
            write("c.md", "Gamma\nwaiting")
            _ = try index.reconcile { _ in }
            XCTAssertEqual(index.textProgress().total, 2)
            XCTAssertLessThan(index.textProgress().indexed, 2, "texts wait")
            index.indexAllWaitingTexts()
            XCTAssertEqual(try index.matches("old"), [])
            XCTAssertEqual(try index.matches("new words"), ["a.md"])
            XCTAssertEqual(try index.matches("gone"), [])
            XCTAssertEqual(try index.matches("waiting"), ["c.md"])
            XCTAssertEqual(try index.writer.integer("SELECT count(*) FROM unindexed"), 0)
        }
    }

    /// Texts are read and folded on a thread of their own beside the index's writer, and both
    /// run below the window (nice 10): on two cores, reading at the app's own priority took a
    /// third of the CPU from the main thread's frames.
    func testTextsArePreparedBelowTheWindow() throws {
        writeNotes(300)  // more than a batch: the next one is prepared while this one is written
        let index = try makeIndex()
        _ = try reconciled(index)
        index.indexAllWaitingTexts()
        XCTAssertEqual(index.textProgress(), LibraryIndex.TextProgress(indexed: 300, total: 300))
        let preparing = Self.threads().filter { $0.name.hasPrefix("notula.index-pr") }  // 15 characters kept
        XCTAssertFalse(preparing.isEmpty, "texts prepared on a thread of their own: \(Self.threads().map(\.name))")
        for thread in preparing { XCTAssertEqual(thread.nice, 10, thread.name) }
    }

    /// This process's threads: name and nice value (/proc/self/task).
    static func threads() -> [(name: String, nice: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            // After the name: state is field 3, nice field 19.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return (String(stat[stat.index(after: open)..<close]), nice)
        }
    }

    /// An index of schema 7 (before texts were indexed after rows) is kept: no row read
    /// again, it finds what it found, and the texts are read once more only for their links
    /// and tags (schema 9).
    func testAnIndexOfSchema7IsKept() throws {
        writeNotes(50)
        sleep(2)  // settled: files older than two seconds are trusted by their identity
        _ = try reconciled(try makeIndex())
        let url = LibraryIndex.cacheURL(for: library.folder, in: cache)
        do {
            let old = try SQLiteDatabase(path: url.path)
            try old.execute("""
                DROP TABLE unindexed; DROP TABLE links; DROP TABLE tags; DROP INDEX notes_folded;
                ALTER TABLE notes DROP COLUMN folded; PRAGMA user_version = 7
                """)
        }
        let index = try makeIndex()
        XCTAssertEqual(index.fileURL, url, "not made again")
        XCTAssertEqual(try index.writer.integer("PRAGMA user_version"), LibraryIndex.schemaVersion)
        XCTAssertEqual(try reconciledRowsOnly(index), LibraryIndex.Changes(), "nothing read again")
        XCTAssertEqual(try index.matches("uniq20q"), [id(20)], "found before the texts are read again")
        XCTAssertEqual(index.textProgress(), LibraryIndex.TextProgress(indexed: 0, total: 50), "texts wait for their links and tags")
        XCTAssertEqual(index.indexAllWaitingTexts(), LibraryIndex.Changes())
        XCTAssertEqual(index.textProgress(), LibraryIndex.TextProgress(indexed: 50, total: 50))
        XCTAssertEqual(index.notes(titled: TitleKey.of(try onDisk()[id(20)]!.title)).map(\.noteID), [id(20)], "titles keyed")
        XCTAssertEqual(try index.matches("uniq20q"), [id(20)])
        XCTAssertEqual(try index.matches("zurich"), Set(try onDisk().keys.filter { (try? String(contentsOf: library.folder.appendingPathComponent($0), encoding: .utf8))?.contains("Zürich") == true }))
    }

    private func reconciledRowsOnly(_ index: LibraryIndex) throws -> LibraryIndex.Changes {
        var all = LibraryIndex.Changes()
        _ = try index.reconcile { batch in
            all.upserted += batch.upserted
            all.removed += batch.removed
        }
        return all
    }
}

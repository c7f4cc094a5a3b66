import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Sorting, pins kept in the library, and full-text search.
final class OrganizeTests: XCTestCase {
    private func note(_ id: String, _ title: String, modified: TimeInterval, created: TimeInterval? = nil) -> NoteSummary {
        NoteSummary(id: id, url: URL(fileURLWithPath: "/tmp/\(id)"), title: title, preview: "",
                    modified: Date(timeIntervalSince1970: modified), created: created.map { Date(timeIntervalSince1970: $0) }, isValidText: true)
    }

    func testSortOrdersAndPinnedFirst() {
        let notes = [note("a", "banana", modified: 30, created: 10), note("b", "Apple 10", modified: 10, created: 30),
                     note("c", "apple 9", modified: 20, created: 20)]
        XCTAssertEqual(NoteArrangement(sortOrder: .modified).sortedIDs(notes), ["a", "c", "b"])
        XCTAssertEqual(NoteArrangement(sortOrder: .created).sortedIDs(notes), ["b", "c", "a"])
        XCTAssertEqual(NoteArrangement(sortOrder: .title).sortedIDs(notes), ["c", "b", "a"], "numbers by value, case ignored")
        XCTAssertEqual(NoteArrangement(sortOrder: .title, pinned: ["a"]).sortedIDs(notes), ["a", "c", "b"])
        XCTAssertEqual(NoteArrangement(sortOrder: .modified, pinned: ["b", "c"]).sortedIDs(notes), ["c", "b", "a"])
    }

    /// A batch of changes merged into the order before it gives exactly the order a sort of
    /// every note gives (the index's batches at start, 1,000 files changed while closed):
    /// random libraries, batches of every size, ties of time and title, pins, each sort order.
    func testMergingABatchGivesTheSameOrderAsSortingEveryNote() {
        var random = SeededRandom(seed: 13)
        for round in 0..<300 {
            let titles = ["Apple", "apple 9", "Apple 10", "banana", "Zebra", "élan"]
            func randomNote(_ id: String) -> NoteSummary {
                // Few distinct times and titles: many ties, broken by the other keys, then the id.
                note(id, titles[random.next(upTo: titles.count)], modified: TimeInterval(random.next(upTo: 8)),
                     created: TimeInterval(random.next(upTo: 8)))
            }
            var notes: [String: NoteSummary] = [:]
            for index in 0..<random.next(upTo: 60) { notes["n\(index)"] = randomNote("n\(index)") }
            let pinned = Set(notes.keys.filter { _ in random.next(upTo: 6) == 0 })
            let arrangement = NoteArrangement(sortOrder: NoteSortOrder.allCases[round % 3], pinned: pinned)
            let before = arrangement.sortedIDs(notes.values)
            let removed = Set(notes.keys.filter { _ in random.next(upTo: 5) == 0 })
            var changed = notes.keys.filter { _ in random.next(upTo: 4) == 0 }.map(randomNote)
            changed += (0..<random.next(upTo: 5)).map { randomNote("new\($0)") }
            if let twice = changed.first { changed.append(randomNote(twice.id)) }  // the last state wins
            for id in removed { notes[id] = nil }
            for note in changed { notes[note.id] = note }
            let merged = arrangement.merging(changed, removing: removed, into: before) { notes[$0] }
            XCTAssertEqual(merged, arrangement.sortedIDs(notes.values), "round \(round)")
        }
    }

    /// The list's table of summaries behaves as a dictionary by id through random inserts,
    /// updates and removals (the removal that moves the last summary into the hole included).
    func testTheNoteTableIsADictionaryById() {
        var random = SeededRandom(seed: 21)
        let start = (0..<40).map { note("n\($0)", "first \($0)", modified: 1) } + [note("n3", "second n3", modified: 2)]
        var table = NoteTable(start)
        var model: [String: NoteSummary] = Dictionary(start.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(table["n3"]?.title, "first 3", "the first of an id is kept")
        for step in 0..<5_000 {
            let id = "n\(random.next(upTo: 60))"
            if random.next(upTo: 3) == 0 {
                table[id] = nil
                model[id] = nil
            } else {
                let changed = note(id, "step \(step)", modified: TimeInterval(step))
                table[id] = changed
                model[id] = changed
            }
            let probe = "n\(random.next(upTo: 60))"
            XCTAssertEqual(table[probe], model[probe], "step \(step)")
            XCTAssertEqual(table.count, model.count)
        }
        XCTAssertEqual(Set(table.values.map(\.id)), Set(model.keys))
        for (id, value) in model { XCTAssertEqual(table[id], value) }
        XCTAssertEqual(table.isEmpty, model.isEmpty)
    }

    /// The same with thousands of ids: the table grows, and removals move entries back over
    /// the gaps they leave (ids whose hashes collide are found past them).
    func testTheNoteTableKeepsFindingNotesAsItGrowsAndShrinks() {
        var random = SeededRandom(seed: 5)
        var table = NoteTable()
        var model: [String: NoteSummary] = [:]
        for step in 0..<60_000 {
            let id = "Notebook \(random.next(upTo: 7))/n\(random.next(upTo: 4_000)).md"
            // Mostly adds at first, mostly removes at the end.
            if random.next(upTo: 60_000) < step {
                table[id] = nil
                model[id] = nil
            } else {
                let changed = note(id, "step \(step)", modified: TimeInterval(step))
                table[id] = changed
                model[id] = changed
            }
            if step % 997 == 0 {
                for (known, value) in model { XCTAssertEqual(table[known], value, "step \(step)") }
                XCTAssertEqual(table.count, model.count)
            }
            let probe = "Notebook \(random.next(upTo: 7))/n\(random.next(upTo: 4_000)).md"
            XCTAssertEqual(table.contains(probe), model[probe] != nil, "step \(step)")
        }
        XCTAssertEqual(Set(table.values.map(\.id)), Set(model.keys))
        XCTAssertEqual(NoteTable(Array(model.values) + Array(model.values)).count, model.count, "duplicates dropped")
    }

    func testCreationDateComesFromNotulasFileName() throws {
        let name = NoteFileName.make(date: Date(timeIntervalSince1970: 1_763_720_000))
        XCTAssertEqual(NoteFileName.creationDate(of: name), Date(timeIntervalSince1970: 1_763_720_000))
        XCTAssertNil(NoteFileName.creationDate(of: "Groceries.md"))
        XCTAssertEqual(NoteFileName.creationDate(of: "Work/Q1/" + name), Date(timeIntervalSince1970: 1_763_720_000), "a note in a notebook")
        let folder = TemporaryFolder()
        _ = try folder.write(name, "x", modified: Date(timeIntervalSince1970: 1_800_000_000))
        let summary = try NoteLibrary(folder: folder.url).summary(ofFileNamed: name)
        XCTAssertEqual(summary.created, Date(timeIntervalSince1970: 1_763_720_000))
        XCTAssertEqual(summary.modified, Date(timeIntervalSince1970: 1_800_000_000))
    }

    func testPinsArePlainTextInTheLibraryAndSurviveAMove() throws {
        let folder = TemporaryFolder()
        let pins = PinnedNotes(library: folder.url)
        XCTAssertEqual(pins.load(), [])
        try pins.save(["b.md", "a.md"])
        let text = try String(contentsOf: folder.url.appendingPathComponent(".notula/pinned.txt"), encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("a.md\nb.md\n"), text)
        XCTAssertFalse(NoteLibrary.isNoteFileName(".notula"), "never listed as a note")
        // Edited by hand or by another device: comments and blank lines are fine.
        try Data("# mine\n\n  c.md  \n".utf8).write(to: pins.fileURL)
        XCTAssertEqual(pins.load(), ["c.md"])
        XCTAssertFalse(LibraryMover.isSyncMetadata(".notula"), "the pins move with the library")
    }

    /// Pinning changes the pin file as it is now: a pin another device synced in since the
    /// app read the file stays (it was overwritten by the app's whole set before).
    func testPinningKeepsThePinsAnotherDeviceWroteMeanwhile() throws {
        let folder = TemporaryFolder()
        let pins = PinnedNotes(library: folder.url)
        XCTAssertEqual(try pins.change(pinning: ["a.md", "b.md"]), ["a.md", "b.md"], "made when there is none")
        let seen = pins.load()
        // The phone pinned c.md and unpinned b.md; its file arrives by sync.
        try Data("# from the phone\na.md\nc.md\n".utf8).write(to: pins.fileURL)
        XCTAssertEqual(seen, ["a.md", "b.md"])
        XCTAssertEqual(try pins.change(pinning: ["d.md"], unpinning: ["a.md"]), ["c.md", "d.md"])
        XCTAssertEqual(pins.load(), ["c.md", "d.md"])
        let unchanged = try Data(contentsOf: pins.fileURL)
        XCTAssertEqual(try pins.change(pinning: ["d.md"]), ["c.md", "d.md"])
        XCTAssertEqual(try Data(contentsOf: pins.fileURL), unchanged, "nothing to change: not written")
    }

    func testSnippetShowsTheLineWithTheMatch() {
        let text = "Trip\npassport\n" + String(repeating: "x ", count: 60) + "the Café by the river and then a long way home again\n"
        let snippet = SearchSnippet.line(in: text, for: "cafe")
        XCTAssertTrue(snippet?.contains("Café by the river") ?? false, snippet ?? "nil")
        XCTAssertTrue(snippet?.hasPrefix("…") ?? false)
        XCTAssertNil(SearchSnippet.line(in: text, for: "zebra"))
    }
}

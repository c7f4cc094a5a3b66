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

    func testCreationDateComesFromNotulasFileName() throws {
        let name = NoteFileName.make(date: Date(timeIntervalSince1970: 1_763_720_000))
        XCTAssertEqual(NoteFileName.creationDate(of: name), Date(timeIntervalSince1970: 1_763_720_000))
        XCTAssertNil(NoteFileName.creationDate(of: "Groceries.md"))
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

    func testSnippetShowsTheLineWithTheMatch() {
        let text = "Trip\npassport\n" + String(repeating: "x ", count: 60) + "the Café by the river and then a long way home again\n"
        let snippet = SearchSnippet.line(in: text, for: "cafe")
        XCTAssertTrue(snippet?.contains("Café by the river") ?? false, snippet ?? "nil")
        XCTAssertTrue(snippet?.hasPrefix("…") ?? false)
        XCTAssertNil(SearchSnippet.line(in: text, for: "zebra"))
    }
}

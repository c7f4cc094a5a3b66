import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The Trash inside the library: moved in and back out byte for byte, names kept apart,
/// old items emptied, and nothing read from outside the library.
final class LibraryTrashTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var trash: LibraryTrash!

    override func setUp() {
        folder = TemporaryFolder()
        trash = LibraryTrash(library: folder.url)
    }

    private func bytes(_ url: URL) -> Data? { try? Data(contentsOf: url) }

    func testTrashAndRestoreKeepTheExactBytes() throws {
        let original = Data("Groceries\nmilk\r\n\u{FF}not utf8".utf8) + Data([0xFF, 0xFE])
        try original.write(to: folder.file("groceries.md"))
        let item = try trash.trash(relativePath: "groceries.md", now: Date(timeIntervalSince1970: 1_763_720_000))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("groceries.md").path))
        XCTAssertEqual(bytes(item.url), original)
        XCTAssertEqual(try NoteLibrary(folder: folder.url).scan().map(\.id), [], "the Trash is not listed as notes")
        let info = try String(contentsOf: folder.url.appendingPathComponent(".notula/Trash/info/groceries.md.trashinfo"), encoding: .utf8)
        XCTAssertTrue(info.hasPrefix("[Trash Info]\nPath=groceries.md\nDeletionDate=20"), info)
        XCTAssertEqual(trash.items(), [item])
        XCTAssertEqual(try trash.restore(item), "groceries.md")
        XCTAssertEqual(bytes(folder.file("groceries.md")), original)
        XCTAssertEqual(trash.items(), [])
    }

    func testSameNamesStayApartAndRestoreBesideANewNote() throws {
        _ = try folder.write("a.md", "first")
        let first = try trash.trash(relativePath: "a.md", now: Date(timeIntervalSince1970: 100))
        _ = try folder.write("a.md", "second")
        let second = try trash.trash(relativePath: "a.md", now: Date(timeIntervalSince1970: 200))
        XCTAssertNotEqual(first.name, second.name)
        XCTAssertEqual(trash.items().map(\.name), [second.name, first.name], "most recently deleted first")
        _ = try folder.write("a.md", "third, written meanwhile")
        XCTAssertEqual(try trash.restore(first), "a (restored).md")
        XCTAssertEqual(try String(contentsOf: folder.file("a.md"), encoding: .utf8), "third, written meanwhile")
        XCTAssertEqual(try String(contentsOf: folder.file("a (restored).md"), encoding: .utf8), "first")
    }

    func testNotebookNotesGoBackIntoTheirFolderEvenIfItWasRemoved() throws {
        try FileManager.default.createDirectory(at: folder.file("Work plans"), withIntermediateDirectories: true)
        _ = try folder.write("Work plans/Q1 – Café.md", "plan")
        let item = try trash.trash(relativePath: "Work plans/Q1 – Café.md")
        try FileManager.default.removeItem(at: folder.file("Work plans"))
        XCTAssertEqual(trash.items().first?.originalPath, "Work plans/Q1 – Café.md", "spaces and unicode survive the info file")
        XCTAssertEqual(try trash.restore(item), "Work plans/Q1 – Café.md")
        XCTAssertEqual(try String(contentsOf: folder.file("Work plans/Q1 – Café.md"), encoding: .utf8), "plan")
    }

    func testInfoPointingOutsideTheLibraryRestoresInside() throws {
        _ = try folder.write("a.md", "x")
        let item = try trash.trash(relativePath: "a.md")
        try Data("[Trash Info]\nPath=../../etc/evil.md\nDeletionDate=2026-11-21T10:00:00\n".utf8)
            .write(to: folder.url.appendingPathComponent(".notula/Trash/info/a.md.trashinfo"))
        let restored = try trash.restore(trash.items()[0])
        XCTAssertEqual(restored, item.name)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file(item.name).path))
    }

    func testPurgeDeletesOnlyItemsOlderThanTheLimitAndEmptyDeletesAll() throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        _ = try folder.write("old.md", "old")
        _ = try folder.write("new.md", "new")
        try trash.trash(relativePath: "old.md", now: now.addingTimeInterval(-31 * 86_400))
        try trash.trash(relativePath: "new.md", now: now.addingTimeInterval(-29 * 86_400))
        XCTAssertEqual(trash.purge(olderThan: 30, now: now), 1)
        XCTAssertEqual(trash.items().map(\.originalPath), ["new.md"])
        XCTAssertEqual(try trash.empty(), 1)
        XCTAssertEqual(trash.items(), [])
    }

    func testMissingNoteIsAnErrorAndLeavesNoInfoBehind() {
        XCTAssertThrowsError(try trash.trash(relativePath: "gone.md"))
        XCTAssertEqual(trash.items(), [])
    }
}

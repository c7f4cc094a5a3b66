import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Notebooks are folders: listed recursively (as other tools lay them out), created, renamed,
/// notes moved between them and whole notebooks sent to the Trash and back — all renames.
final class NotebooksTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var library: NoteLibrary!
    private var notebooks: Notebooks!

    override func setUp() {
        folder = TemporaryFolder()
        library = NoteLibrary(folder: folder.url)
        notebooks = Notebooks(library: folder.url)
    }

    private func mkdir(_ path: String) throws {
        try FileManager.default.createDirectory(at: folder.file(path), withIntermediateDirectories: true)
    }

    /// What the session restores: a notebook is a folder of the library now — not a note, not a
    /// link out of the library, not gone.
    func testANotebookExistsOnlyAsAFolderInTheLibrary() throws {
        try mkdir("Work/Projects")
        _ = try folder.write("Inbox.md", "Inbox")
        let outside = TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("Elsewhere").path, withDestinationPath: outside.url.path)
        XCTAssertTrue(notebooks.exists("Work"))
        XCTAssertTrue(notebooks.exists("Work/Projects"))
        XCTAssertFalse(notebooks.exists("Inbox.md"), "a note")
        XCTAssertFalse(notebooks.exists("Elsewhere"), "a link out of the library")
        XCTAssertFalse(notebooks.exists("Gone"))
    }

    /// `notula FILE` for a file not there yet makes it empty, as an editor does; one that is
    /// there is left as it is.
    func testAFileNamedOnTheCommandLineIsMadeEmptyOnlyWhenMissing() throws {
        let made = folder.file("new.md").path
        XCTAssertTrue(RegularFile.createEmptyIfMissing(made))
        XCTAssertEqual(try Data(contentsOf: folder.file("new.md")), Data())
        _ = try folder.write("kept.md", "Kept")
        XCTAssertTrue(RegularFile.createEmptyIfMissing(folder.file("kept.md").path))
        XCTAssertEqual(try String(contentsOf: folder.file("kept.md"), encoding: .utf8), "Kept")
        XCTAssertFalse(RegularFile.createEmptyIfMissing(folder.file("no/such/folder.md").path))
    }

    func testNextcloudNotesLayoutIsReadAsNotebooks() throws {
        // Nextcloud Notes keeps categories as subfolders, nested with "/".
        try mkdir("Work/Projects")
        try mkdir("Personal")
        try mkdir(".stversions")
        try mkdir(".notula/Trash/files")
        _ = try folder.write("Inbox.md", "Inbox")
        _ = try folder.write("Work/Standup.md", "Standup")
        _ = try folder.write("Work/Projects/Notula.txt", "Notula")
        _ = try folder.write("Work/Projects/Notula.sync-conflict-20261121-101010-ABCDEF7.txt", "other")
        _ = try folder.write(".stversions/Old.md", "old")
        _ = try folder.write(".notula/Trash/files/Gone.md", "gone")
        XCTAssertEqual(library.notebooks(), ["Personal", "Work", "Work/Projects"])
        let notes = try library.scan()
        XCTAssertEqual(Set(notes.map(\.id)), ["Inbox.md", "Work/Standup.md", "Work/Projects/Notula.txt"])
        let nested = try XCTUnwrap(notes.first { $0.id == "Work/Projects/Notula.txt" })
        XCTAssertEqual(nested.notebook, "Work/Projects")
        XCTAssertEqual(nested.conflictCopies, ["Notula.sync-conflict-20261121-101010-ABCDEF7.txt"])
        XCTAssertEqual(library.conflictCopies(of: "Work/Projects/Notula.txt"), nested.conflictCopies)
    }

    func testSymlinkedFoldersAreNotFollowed() throws {
        try mkdir("Real")
        try FileManager.default.createSymbolicLink(at: folder.file("Link"), withDestinationURL: folder.file("Real"))
        XCTAssertEqual(library.notebooks(), ["Real"])
    }

    func testCreateRenameAndMoveNotesBetweenNotebooks() throws {
        XCTAssertEqual(try notebooks.create("  Work  "), "Work")
        XCTAssertEqual(try notebooks.create("Q1 – Café", in: "Work"), "Work/Q1 – Café")
        XCTAssertThrowsError(try notebooks.create("Work"), "exists")
        XCTAssertThrowsError(try notebooks.create("a/b"))
        XCTAssertThrowsError(try notebooks.create(".hidden"))
        XCTAssertThrowsError(try notebooks.create("   "))
        let note = try library.createNote(in: "Work")
        XCTAssertEqual(note.notebook, "Work")
        let moved = try notebooks.move(note: note.id, to: "Work/Q1 – Café")
        XCTAssertEqual(moved, "Work/Q1 – Café/" + (note.id as NSString).lastPathComponent)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file(moved).path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file(note.id).path))
        XCTAssertEqual(try notebooks.rename("Work", to: "Job"), "Job")
        XCTAssertEqual(try library.scan().map(\.id), ["Job/Q1 – Café/" + (note.id as NSString).lastPathComponent])
        // Same name in the target: this one is numbered, the other keeps its name.
        _ = try folder.write("a.md", "top")
        _ = try folder.write("Job/a.md", "in Job")
        XCTAssertEqual(try notebooks.move(note: "Job/a.md", to: ""), "a 2.md")
        XCTAssertEqual(try String(contentsOf: folder.file("a.md"), encoding: .utf8), "top")
        XCTAssertEqual(try String(contentsOf: folder.file("a 2.md"), encoding: .utf8), "in Job")
    }

    func testANotebookGoesToTheTrashWithItsNotesAndComesBack() throws {
        try mkdir("Work")
        _ = try folder.write("Work/a.md", "A")
        XCTAssertFalse(notebooks.isEmpty("Work"))
        let trash = LibraryTrash(library: folder.url)
        let item = try trash.trash(relativePath: "Work")
        XCTAssertEqual(library.notebooks(), [])
        XCTAssertEqual(try library.scan().map(\.id), [])
        XCTAssertEqual(try trash.restore(item), "Work")
        XCTAssertEqual(try library.scan().map(\.id), ["Work/a.md"])
    }
}

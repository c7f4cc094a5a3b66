import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Drafts of notes whose files are gone (issue #28): their texts become notes of their own,
/// none is lost, and a draft that cannot be placed yet stays.
final class RecoveryDraftsTests: XCTestCase {
    private func draft(_ drafts: RecoveryDrafts, _ text: String, for note: URL) throws {
        try drafts.save(text, for: note, reason: "typing")
    }

    func testDraftsOfGoneNotesBecomeNewNotesWhereTheNoteWas() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("Notes"))
        try library.prepare()
        let drafts = RecoveryDrafts(folder: root.url.appendingPathComponent("drafts"))
        let work = library.folder.appendingPathComponent("Work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
        let present = library.folder.appendingPathComponent("present.md")
        try Data("Present\nsaved text\n".utf8).write(to: present)
        try draft(drafts, "Present\nsaved text\nand more", for: present)  // its note is there: not an orphan
        try draft(drafts, "Shopping list\nmilk", for: library.folder.appendingPathComponent("gone.md"))
        try draft(drafts, "Budget\n12 chairs", for: work.appendingPathComponent("gone.md"))
        try draft(drafts, "Old notebook\nline", for: library.folder.appendingPathComponent("Removed/gone.md"))

        let restored = drafts.restoreOrphans(into: library)

        XCTAssertEqual(Set(restored.map(\.title)), ["Shopping list", "Budget", "Old notebook"])
        for note in restored {
            let text = try String(contentsOf: note.note, encoding: .utf8)
            XCTAssertEqual(NoteText.title(of: text), note.title)
            XCTAssertTrue(NoteFileName.creationDate(of: note.note.lastPathComponent) != nil, note.note.lastPathComponent)
        }
        let byTitle = Dictionary(uniqueKeysWithValues: restored.map { ($0.title, $0.note) })
        XCTAssertEqual(byTitle["Budget"]?.deletingLastPathComponent().path, work.path, "back in its notebook")
        XCTAssertEqual(byTitle["Old notebook"]?.deletingLastPathComponent().path, library.folder.path, "its notebook is gone: the library's top")
        XCTAssertEqual(try String(contentsOf: byTitle["Shopping list"]!, encoding: .utf8), "Shopping list\nmilk")
        XCTAssertEqual(drafts.all().map(\.text), ["Present\nsaved text\nand more"], "only the draft of the note still there is left")
        XCTAssertEqual(try String(contentsOf: present, encoding: .utf8), "Present\nsaved text\n")
        XCTAssertEqual(drafts.restoreOrphans(into: library), [], "nothing twice")
    }

    /// At start the drafts are restored while session restore opens the remembered note, whose
    /// document sets its draft aside (renames it): the restored draft must not stay behind under
    /// the new name, to be offered again in a dialog (found by `make soak`).
    func testADraftSetAsideWhileItIsRestoredIsNotLeftBehind() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("Notes"))
        try library.prepare()
        let drafts = RecoveryDrafts(folder: root.url.appendingPathComponent("drafts"))
        let gone = library.folder.appendingPathComponent("gone.md")
        try draft(drafts, "Shopping list\nmilk", for: gone)
        let entry = try XCTUnwrap(drafts.entries().first)
        drafts.setAside(for: gone)  // what a document opening the note does
        drafts.remove(entry)
        XCTAssertEqual(drafts.all(), [], "the set-aside copy of a restored draft stayed")
    }

    func testTheSameTextInSeveralDraftsMakesOneNote() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("Notes"))
        try library.prepare()
        let drafts = RecoveryDrafts(folder: root.url.appendingPathComponent("drafts"))
        let gone = library.folder.appendingPathComponent("gone.md")
        try draft(drafts, "Same\nwords", for: gone)
        drafts.setAside(for: gone)  // an earlier document's draft, kept under a name of its own
        try draft(drafts, "Same\nwords", for: gone)
        XCTAssertEqual(drafts.all().count, 2)
        XCTAssertEqual(drafts.restoreOrphans(into: library).count, 1)
        XCTAssertTrue(drafts.all().isEmpty)
        XCTAssertEqual(try library.scan().map(\.title), ["Same"])
    }

    /// The library folder itself is missing (its disk not connected): nothing is written
    /// anywhere, and the draft waits for the next start.
    func testADraftStaysWhenTheLibraryIsMissing() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("Unplugged/Notes"))
        let drafts = RecoveryDrafts(folder: root.url.appendingPathComponent("drafts"))
        try draft(drafts, "Words\nonly here", for: library.folder.appendingPathComponent("note.md"))
        XCTAssertEqual(drafts.restoreOrphans(into: library), [])
        XCTAssertEqual(drafts.all().map(\.text), ["Words\nonly here"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.folder.path), "no folder made in its place")
    }

    /// A kept text goes back in its note's own line endings and byte-order mark (a Windows note
    /// stays CRLF), whether written back to its place (Save Again) or made a new note.
    func testKeptTextGoesBackWithItsNotesLineEndings() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("Notes"))
        try library.prepare()
        let drafts = RecoveryDrafts(folder: root.url.appendingPathComponent("drafts"))
        let windows = NoteEncoding(lineEnding: .crlf, hasByteOrderMark: true)
        let note = library.folder.appendingPathComponent("windows.md")
        try drafts.save("Windows note\nsecond line", for: note, reason: "file missing", encoding: windows)
        XCTAssertEqual(drafts.writeBack(of: note, into: library), note)
        XCTAssertEqual(RegularFile.contents(of: note, followLinks: false), Data([0xEF, 0xBB, 0xBF] + Array("Windows note\r\nsecond line".utf8)))
        let gone = library.folder.appendingPathComponent("Gone/other.md")
        try drafts.save("Other\nline", for: gone, reason: "typing", encoding: NoteEncoding(lineEnding: .crlf))
        let restored = try XCTUnwrap(drafts.restoreOrphans(into: library).first)
        XCTAssertEqual(RegularFile.contents(of: restored.note, followLinks: false), Data("Other\r\nline".utf8))
    }

    /// A draft left for a note that Notula itself moved since (into another notebook, into the
    /// Trash) is stale when that note still holds its text: dropped, never a duplicate note.
    func testADraftOfANoteMovedElsewhereThatHoldsItsTextIsNotRestored() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("Notes"))
        try library.prepare()
        let drafts = RecoveryDrafts(folder: root.url.appendingPathComponent("drafts"))
        let moved = library.folder.appendingPathComponent("moved.md")
        try Data("Moved\r\nkept words".utf8).write(to: moved)
        try drafts.save("Moved\nkept words", for: moved, reason: "typing", encoding: NoteEncoding(lineEnding: .crlf))
        _ = try Notebooks(library: library.folder).create("Work")
        _ = try Notebooks(library: library.folder).move(note: "moved.md", to: "Work")
        let trashed = library.folder.appendingPathComponent("trashed.md")
        try Data("Trashed\nwords".utf8).write(to: trashed)
        try drafts.save("Trashed\nwords", for: trashed, reason: "typing")
        try LibraryTrash(library: library.folder).trash(relativePath: "trashed.md")
        try drafts.save("Unsaved\nonly here", for: library.folder.appendingPathComponent("gone.md"), reason: "typing")

        let restored = drafts.restoreOrphans(into: library)
        XCTAssertEqual(restored.map(\.title), ["Unsaved"], "only the text that is nowhere else")
        XCTAssertEqual(drafts.all(), [], "the stale drafts went")
    }
}

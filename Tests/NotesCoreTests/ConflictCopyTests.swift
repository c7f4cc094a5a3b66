import XCTest
@testable import NotesCore
import TestSupport

/// Conflict copy names as the clients make them, with odd names: spaces, unicode, several dots.
final class ConflictCopyTests: XCTestCase {
    func testSyncthing() {
        let copy = ConflictCopy.parse("Groceries.sync-conflict-20261121-143005-ABCDEF7.md")
        XCTAssertEqual(copy?.client, .syncthing)
        XCTAssertEqual(copy?.originalName, "Groceries.md")
        XCTAssertEqual(copy?.detail, "device ABCDEF7, 20261121-143005")
        XCTAssertEqual(ConflictCopy.parse("Meeting notes 2026.v2.sync-conflict-20261121-143005-Z2Y3X4W.md")?.originalName, "Meeting notes 2026.v2.md")
        XCTAssertEqual(ConflictCopy.parse("Über uns – Café.sync-conflict-20260101-000000-AAAAAAA.md")?.originalName, "Über uns – Café.md")
        XCTAssertEqual(ConflictCopy.parse("README.sync-conflict-20260101-000000-AAAAAAA")?.originalName, "README", "no extension")
        XCTAssertNil(ConflictCopy.parse("Groceries.sync-conflict-2026-AAAAAAA.md"), "not the pattern")
    }

    func testNextcloudAndOwnCloud() {
        let copy = ConflictCopy.parse("mydata (conflicted copy 2018-04-10 093612).txt")
        XCTAssertEqual(copy?.client, .nextcloud)
        XCTAssertEqual(copy?.originalName, "mydata.txt")
        XCTAssertEqual(copy?.detail, "conflicted copy 2018-04-10 093612")
        XCTAssertEqual(ConflictCopy.parse("Work (2026) plans.v3 (conflicted copy 2026-11-21 101010).md")?.originalName, "Work (2026) plans.v3.md")
    }

    func testDropbox() {
        let copy = ConflictCopy.parse("Groceries (Ann Smith's conflicted copy 2026-11-21).md")
        XCTAssertEqual(copy?.client, .dropbox)
        XCTAssertEqual(copy?.originalName, "Groceries.md")
        XCTAssertEqual(ConflictCopy.parse("Groceries (Ann's conflicted copy 2026-11-21 (1)).md")?.originalName, "Groceries.md")
        XCTAssertEqual(ConflictCopy.parse("Ideen für 2027 (MacBook's conflicted copy 2026-11-21).md")?.originalName, "Ideen für 2027.md")
    }

    func testOrdinaryNamesAreNotCopies() {
        for name in ["Groceries.md", "Groceries (2).md", "copy of notes.md", "sync-conflict.md", "a.sync-conflict.md"] {
            XCTAssertNil(ConflictCopy.parse(name), name)
        }
    }
}

final class ConflictCopyListingTests: XCTestCase {
    func testCopiesAttachToTheirNoteAndAreNotListedAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-conflicts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in [("Groceries.md", "Groceries\nmilk"),
                             ("Groceries.sync-conflict-20261121-143005-ABCDEF7.md", "Groceries\nmilk, eggs"),
                             ("Groceries (conflicted copy 2026-11-21 101010).md", "Groceries\nbread"),
                             ("Plans (Ann's conflicted copy 2026-11-21).md", "Plans whose note is gone")] {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        let library = NoteLibrary(folder: folder)
        let notes = try library.scan()
        XCTAssertEqual(Set(notes.map(\.id)), ["Groceries.md", "Plans (Ann's conflicted copy 2026-11-21).md"],
                       "copies are not notes of their own; a copy without its note is still listed (nothing hidden)")
        let groceries = notes.first { $0.id == "Groceries.md" }
        XCTAssertEqual(groceries?.conflictCopies, ["Groceries (conflicted copy 2026-11-21 101010).md",
                                                   "Groceries.sync-conflict-20261121-143005-ABCDEF7.md"])
        XCTAssertEqual(library.conflictCopies(of: "Groceries.md").count, 2)
    }
}

/// The scan for conflict copies beside a note (once per note opened): only names containing
/// "conflict" become strings, and a folder's scan is reused while its time says it is unchanged.
final class ConflictCopyScanTests: XCTestCase {
    /// A minute ago, to the second (the same value each time).
    private let aMinuteAgo = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded())

    private func setModified(_ folder: URL) {
        try? FileManager.default.setAttributes([.modificationDate: aMinuteAgo], ofItemAtPath: folder.path)
    }

    func testOnlyNamesThatMayBeConflictCopiesAreReturnedSorted() throws {
        let folder = TemporaryFolder()
        for name in ["note.md", "b.sync-conflict-20260101-120000-ABCDEFG.md", "a (conflicted copy 2026-01-01 120000).md", "Conflict.md"] {
            try Data("x".utf8).write(to: folder.url.appendingPathComponent(name))
        }
        XCTAssertEqual(ConflictCopyScan().candidates(in: folder.url),
                       ["a (conflicted copy 2026-01-01 120000).md", "b.sync-conflict-20260101-120000-ABCDEFG.md"])
        XCTAssertFalse(ConflictCopy.mightBe("note.md"))
        XCTAssertEqual(ConflictCopyScan().candidates(in: folder.url.appendingPathComponent("missing")), [])
    }

    func testACopyThatArrivesIsSeenAtTheNextScan() throws {
        let folder = TemporaryFolder()
        let scan = ConflictCopyScan()
        setModified(folder.url)
        XCTAssertEqual(scan.candidates(in: folder.url), [])
        let copy = "note.sync-conflict-20260101-120000-ABCDEFG.md"
        try Data("other".utf8).write(to: folder.url.appendingPathComponent(copy))  // the folder's time changes
        XCTAssertEqual(scan.candidates(in: folder.url), [copy])
    }

    func testAScanOfAFolderThatJustChangedIsNotReused() throws {
        let folder = TemporaryFolder()
        let scan = ConflictCopyScan()
        XCTAssertEqual(scan.candidates(in: folder.url), [])  // the folder was made just now
        // A copy arriving within the same timestamp tick would leave the folder's time as it was.
        let modified = try FileManager.default.attributesOfItem(atPath: folder.url.path)[.modificationDate] as! Date
        let copy = "note.sync-conflict-20260101-120000-ABCDEFG.md"
        try Data("other".utf8).write(to: folder.url.appendingPathComponent(copy))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: folder.url.path)
        XCTAssertEqual(scan.candidates(in: folder.url), [copy])
    }

    func testAReusedScanIsDroppedWhenAWatcherSaysTheFolderChanged() throws {
        let folder = TemporaryFolder()
        let scan = ConflictCopyScan()
        setModified(folder.url)
        XCTAssertEqual(scan.candidates(in: folder.url), [])
        // A file system that does not update a folder's time (some FUSE ones).
        let copy = "note.sync-conflict-20260101-120000-ABCDEFG.md"
        try Data("other".utf8).write(to: folder.url.appendingPathComponent(copy))
        setModified(folder.url)
        XCTAssertEqual(scan.candidates(in: folder.url), [], "reused: the folder's time says nothing changed")
        scan.forget(folder.url)
        XCTAssertEqual(scan.candidates(in: folder.url), [copy])
    }
}

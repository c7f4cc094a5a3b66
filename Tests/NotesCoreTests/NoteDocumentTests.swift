import Foundation
import XCTest
@testable import NotesCore

final class NoteDocumentTests: XCTestCase {
    func testReadsTextAndStartsClean() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("a.md", "Hello\nworld")
        let document = try NoteDocument.read(url)
        XCTAssertEqual(document.text, "Hello\nworld")
        XCTAssertFalse(document.hasUnsavedChanges)
        XCTAssertFalse(document.isReadOnly)
    }

    func testEditThenSaveWritesAndClears() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("a.md", "old")
        let document = try NoteDocument.read(url)
        document.edit("new text")
        XCTAssertTrue(document.hasUnsavedChanges)
        let saved = expectation(description: "saved")
        document.save { error in
            XCTAssertNil(error)
            saved.fulfill()
        }
        wait(for: [saved], timeout: 5)
        XCTAssertFalse(document.hasUnsavedChanges)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "new text")
    }

    func testEditDuringABackgroundSaveStaysUnsaved() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("a.md", "v0")
        let document = try NoteDocument.read(url)
        document.edit("v1")
        let saved = expectation(description: "saved")
        document.save { _ in saved.fulfill() }
        // The save's completion is queued on the main queue: this edit lands before it.
        document.edit("v2")
        wait(for: [saved], timeout: 5)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "v1", "the save wrote its snapshot")
        XCTAssertTrue(document.hasUnsavedChanges, "v2 was typed during the write and is not on disk")
        try document.saveAndWait()
        XCTAssertFalse(document.hasUnsavedChanges)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "v2")
    }

    func testAutosaveWritesShortlyAfterTyping() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("a.md", "")
        let document = try NoteDocument.read(url)
        let saved = expectation(description: "autosaved")
        document.onSaveFinished = { _, error in
            XCTAssertNil(error)
            saved.fulfill()
        }
        document.edit("typed")
        wait(for: [saved], timeout: 5)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "typed")
    }

    func testInvalidUTF8IsReadOnlyAndNeverWritten() throws {
        let folder = TemporaryFolder()
        let url = folder.file("latin1.md")
        let bytes = Data([0x43, 0x61, 0x66, 0xE9, 0x0A, 0xFF])
        try bytes.write(to: url)
        let document = try NoteDocument.read(url)
        XCTAssertTrue(document.isReadOnly)
        XCTAssertNotNil(document.readOnlyReason)
        XCTAssertTrue(document.text.hasPrefix("Caf"))
        document.edit("overwrite attempt")
        XCTAssertFalse(document.hasUnsavedChanges)
        try document.saveAndWait()
        XCTAssertEqual(try Data(contentsOf: url), bytes)
    }

    func testSaveFailureKeepsTextUnsavedAndReportsIt() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("a.md", "old")
        let document = try NoteDocument.read(url)
        document.edit("precious words")
        try FileManager.default.removeItem(at: folder.url)
        XCTAssertThrowsError(try document.saveAndWait()) { error in
            XCTAssertEqual((error as? StorageError)?.code, ENOENT)
        }
        XCTAssertTrue(document.hasUnsavedChanges)
        XCTAssertEqual(document.text, "precious words")
        XCTAssertNotNil(document.lastSaveError)
    }

    func testOpenReadsOffTheMainThreadAndCompletesOnIt() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("a.md", "text")
        let opened = expectation(description: "opened")
        NoteDocument.open(url) { result in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(try? result.get().text, "text")
            opened.fulfill()
        }
        wait(for: [opened], timeout: 5)
    }
}

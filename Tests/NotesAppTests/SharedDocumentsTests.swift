import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// One note in two editors (the main window and a note window): one document, each editor
/// holding the same text; a save writes the file once; one editor leaving hands the document
/// to the other, which keeps saving; the last one leaving closes it.
final class SharedDocumentsTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testTwoEditorsShareOneDocument() throws {
        try MainActor.assumeIsolated { try twoEditorsShareOneDocument() }
    }

    private func twoEditorsShareOneDocument() throws {
        let folder = try makeNotesFolder(["Shared.md": "Shared\n\nline one\n"])
        let url = folder.appendingPathComponent("Shared.md")
        let first = makeEditorWindow(), second = makeEditorWindow()
        first.openNote.open(url)
        XCTAssertTrue(spin(until: { first.openNote.document != nil }))
        second.openNote.open(url)
        XCTAssertTrue(spin(until: { second.openNote.document != nil }))
        let document = try XCTUnwrap(first.openNote.document)
        XCTAssertTrue(second.openNote.document === document, "one document for one file")
        XCTAssertEqual(second.editor.text, "Shared\n\nline one\n")

        // Typed in the second editor: the first shows it, and one save writes it.
        second.editor.buffer.cursorOffset = "Shared\n\nline one".count
        second.editor.textView.type(" and two")
        XCTAssertEqual(first.editor.text, "Shared\n\nline one and two\n")
        XCTAssertTrue(document.hasUnsavedChanges)
        var saved: Error??
        second.openNote.saveThen { saved = $0 }
        XCTAssertTrue(spin(until: { saved != nil }))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "Shared\n\nline one and two\n")

        // Typed in the first: the second follows (its cursor stays where it was).
        let cursor = second.editor.buffer.cursorOffset
        first.editor.buffer.cursorOffset = 0
        first.editor.textView.type("My ")
        XCTAssertEqual(second.editor.text, "My Shared\n\nline one and two\n")
        XCTAssertEqual(second.editor.buffer.cursorOffset, cursor + 3, "the other editor's cursor stays on its word")

        // The first leaves (its window closes): the second keeps the document and saves it.
        first.openNote.close()
        XCTAssertFalse(document.state.contains(.closed), "still open in the other editor")
        second.editor.buffer.cursorOffset = second.editor.buffer.characterCount
        second.editor.textView.type("three\n")
        saved = nil
        second.openNote.saveThen { saved = $0 }
        XCTAssertTrue(spin(until: { saved != nil }))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "My Shared\n\nline one and two\nthree\n")
        second.openNote.close()
        XCTAssertTrue(spin(until: { document.state.contains(.closed) }), "the last editor leaving closes the document")
        XCTAssertNil(SharedDocuments.shared.document(for: url))
    }

    /// A restored session opens a note in the main window and its own window at once: the
    /// second waits for the first's open instead of opening a second document; one leaving
    /// before the open ended hands it over.
    nonisolated func testEditorsOpeningTheSameNoteAtOnceGetOneDocument() throws {
        try MainActor.assumeIsolated {
            let folder = try makeNotesFolder(["A.md": "A\n\ntext a\n", "B.md": "B\n"])
            let url = folder.appendingPathComponent("A.md")
            let first = makeEditorWindow(), second = makeEditorWindow()
            first.openNote.open(url)
            second.openNote.open(url)
            XCTAssertTrue(spin(until: { first.openNote.document != nil && second.openNote.document != nil }))
            XCTAssertTrue(first.openNote.document === second.openNote.document)
            XCTAssertEqual(second.editor.text, "A\n\ntext a\n")
            first.openNote.close()
            second.openNote.close()

            let third = makeEditorWindow(), fourth = makeEditorWindow()
            third.openNote.open(url)
            fourth.openNote.open(url)
            third.openNote.open(folder.appendingPathComponent("B.md"))  // left before A opened
            XCTAssertTrue(spin(until: { fourth.openNote.document != nil && third.openNote.document != nil }))
            XCTAssertEqual(fourth.editor.text, "A\n\ntext a\n", "the editor that waited shows A")
            XCTAssertEqual(third.editor.text, "B\n")
            XCTAssertEqual(fourth.openNote.document?.fileURL.lastPathComponent, "A.md")
            fourth.openNote.close()
            third.openNote.close()
        }
    }

    nonisolated func testAnEditorDestroyedWithoutLeavingNeverSavesEmptyText() throws {
        try MainActor.assumeIsolated { try anEditorDestroyedWithoutLeavingNeverSavesEmptyText() }
    }

    private func anEditorDestroyedWithoutLeavingNeverSavesEmptyText() throws {
        let folder = try makeNotesFolder(["Kept.md": "Kept\n\ntext\n"])
        let url = folder.appendingPathComponent("Kept.md")
        let survivor = makeEditorWindow()
        var document: NoteDocument?
        do {
            let window = Window()
            let editor = EditorView()
            let gone = OpenNoteController(editor: editor, status: StatusLight(), drafts: RecoveryDrafts(folder: makeFolder()),
                                          history: NoteHistory(folder: makeFolder()))
            window.child = gone.pane
            window.present()
            gone.open(url)
            XCTAssertTrue(spin(until: { gone.document != nil }))
            document = gone.document
            survivor.openNote.open(url)
            XCTAssertTrue(spin(until: { survivor.openNote.document != nil }))
            gone.editor.buffer.cursorOffset = gone.editor.buffer.characterCount
            gone.editor.textView.type("more\n")
            window.destroy()  // no close(): the editor and its controller simply go
        }
        spin(until: { false }, timeout: 0.2)
        var saved: Error??
        survivor.openNote.saveThen { saved = $0 }
        XCTAssertTrue(spin(until: { saved != nil }))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "Kept\n\ntext\nmore\n")
        XCTAssertNotNil(document)
        survivor.openNote.close()
    }
}

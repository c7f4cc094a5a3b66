import Gtk
import XCTest
@testable import NotesApp

final class EditorViewTests: AppTestCase {
    func testLoadingIsNotAnEditAndCannotBeUndone() {
        let editor = EditorView()
        var edits: [String] = []
        editor.onEdit = { edits.append($0) }
        editor.show(text: "Loaded text", readOnlyReason: nil)
        XCTAssertEqual(editor.buffer.text, "Loaded text")
        XCTAssertFalse(editor.buffer.canUndo)
        XCTAssertEqual(edits, [])
        XCTAssertTrue(editor.isShowingNote)
    }

    func testTypingReportsTheWholeTextAndIsUndoable() {
        let editor = EditorView()
        var edits: [String] = []
        editor.onEdit = { edits.append($0) }
        editor.show(text: "", readOnlyReason: nil)
        editor.textView.type("Hi")
        XCTAssertEqual(edits.last, "Hi")
        XCTAssertTrue(editor.buffer.canUndo)
        editor.buffer.undo()
        XCTAssertEqual(edits.last, "")
    }

    func testReadOnlyNoteCannotBeTypedInto() {
        let editor = EditorView()
        var edits: [String] = []
        editor.onEdit = { edits.append($0) }
        editor.show(text: "Caf\u{FFFD}", readOnlyReason: "This file is not UTF-8 text.")
        XCTAssertFalse(editor.textView.isEditable)
        editor.textView.type("typed")  // interactive insert respects the view's editability
        XCTAssertEqual(editor.buffer.text, "Caf\u{FFFD}")
        XCTAssertEqual(edits, [])
    }
}

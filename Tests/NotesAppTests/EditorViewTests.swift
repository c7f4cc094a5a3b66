import Gtk
import NotesCore
import XCTest
@testable import NotesApp

final class EditorViewTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testLoadingIsNotAnEditAndCannotBeUndone() {
        MainActor.assumeIsolated {
            let editor = EditorView()
            var edits: [String] = []
            editor.onChange = { _ in edits.append(editor.text) }
            editor.show(text: "Loaded text", editable: true)
            XCTAssertEqual(editor.buffer.text, "Loaded text")
            XCTAssertFalse(editor.buffer.canUndo)
            XCTAssertEqual(edits, [])
            XCTAssertTrue(editor.isShowingNote)
        }
    }

    nonisolated func testTypingReportsTheWholeTextAndIsUndoable() {
        MainActor.assumeIsolated {
            let editor = EditorView()
            var edits: [String] = []
            editor.onChange = { _ in edits.append(editor.text) }
            editor.show(text: "", editable: true)
            var kinds: [DocumentChangeKind] = []
            editor.onChange = { kind in edits.append(editor.text); kinds.append(kind) }
            editor.textView.type("Hi")
            XCTAssertEqual(edits.last, "Hi")
            XCTAssertTrue(editor.buffer.canUndo)
            editor.buffer.undo()
            XCTAssertEqual(edits.last, "")
            editor.buffer.redo()
            XCTAssertEqual(edits.last, "Hi")
            XCTAssertEqual(kinds, [.done, .undone, .redone])
        }
    }

    nonisolated func testReadOnlyNoteCannotBeTypedInto() {
        MainActor.assumeIsolated {
            let editor = EditorView()
            var edits: [String] = []
            editor.onChange = { _ in edits.append(editor.text) }
            editor.show(text: "Caf\u{FFFD}", editable: false)
            XCTAssertFalse(editor.textView.isEditable)
            editor.textView.type("typed")  // interactive insert respects the view's editability
            XCTAssertEqual(editor.buffer.text, "Caf\u{FFFD}")
            XCTAssertEqual(edits, [])
        }
    }
}

final class EditorReloadTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testReloadKeepsCursorAndScroll() {
        MainActor.assumeIsolated {
            let window = Window()
            window.setDefaultSize(width: 500, height: 300)
            let editor = EditorView()
            window.child = editor.root
            window.present()
            defer { window.destroy() }
            let long = (1...400).map { "Line \($0) of a long note" }.joined(separator: "\n")
            editor.show(text: long, editable: true)
            spin(until: { editor.scrollUpperBoundForTesting > 1000 })
            editor.scrollOffset = 900
            spin(until: { false }, timeout: 0.2)
            let topBefore = editor.textView.topVisibleOffset
            XCTAssertGreaterThan(topBefore, 500, "scrolled well down")
            editor.buffer.cursorOffset = 5000
            var edits = 0
            editor.onChange = { _ in edits += 1 }
            editor.replaceText(long.replacingOccurrences(of: "Line 400 ", with: "Last line "))
            // GTK scrolls once the new text is laid out, in idle time.
            spin(until: { abs(editor.textView.topVisibleOffset - topBefore) <= 30 && abs(editor.scrollOffset - 900) <= 25 }, timeout: 3)
            XCTAssertEqual(editor.buffer.cursorOffset, 5000)
            XCTAssertEqual(Double(editor.textView.topVisibleOffset), Double(topBefore), accuracy: 30, "the same line stays at the top")
            XCTAssertEqual(editor.scrollOffset, 900, accuracy: 25)
            XCTAssertEqual(edits, 0, "a reload is not an edit")
            XCTAssertFalse(editor.buffer.canUndo, "a reload cannot be undone")
        }
    }

    nonisolated func testReloadChangesOnlyTheLinesThatChangedEvenWithOddLineEnds() {
        MainActor.assumeIsolated {
            let editor = EditorView()
            editor.show(text: "one\ntwo\nthree\n", editable: true)
            editor.buffer.cursorOffset = 6  // inside "two"
            editor.replaceText("zero\none\ntwo\nthree!\n")
            XCTAssertEqual(editor.text, "zero\none\ntwo\nthree!\n")
            XCTAssertEqual(editor.buffer.cursorOffset, 11, "still inside “two”")
            // GTK ends a line at a lone carriage return too: the text must still come out exact.
            editor.show(text: "a\rb\nc\n", editable: true)
            editor.replaceText("a\rb\nC\n")
            XCTAssertEqual(editor.text, "a\rb\nC\n")
            XCTAssertFalse(editor.buffer.canUndo, "a reload cannot be undone")
        }
    }
}

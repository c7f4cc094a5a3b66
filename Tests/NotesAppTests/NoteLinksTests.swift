import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// `[[links]]` in the real window over a real library: completion after `[[`, opening a link
/// (Ctrl+click's and Ctrl+Enter's path), a link to a missing title creating the note, the
/// backlinks under the note and the tags in the sidebar.
final class NoteLinksTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func makeLibrary(_ files: [String: String]) throws -> (LibraryWindow, URL) {
        let folder = try makeNotesFolder(files)
        let library = makeLibraryWindow(folder: folder)
        var started = false
        library.controller.start { started = true }
        XCTAssertTrue(spin(until: { started }))
        XCTAssertTrue(spin(until: { library.controller.document != nil }))
        return (library, folder)
    }

    private func cursor(after text: String, in editor: EditorView) {
        let whole = editor.buffer.text
        let range = try? XCTUnwrap(whole.range(of: text))
        editor.buffer.cursorOffset = whole.unicodeScalars.distance(from: whole.unicodeScalars.startIndex, to: range!.upperBound)
    }

    nonisolated func testTypingDoubleBracketOffersTitlesAndChoosingWritesTheLink() throws {
        try MainActor.assumeIsolated {
            let (library, _) = try makeLibrary(["a.md": "First\n\n", "b.md": "Shopping\nmilk", "c.md": "Shop hours\n9-5", "d.md": "Other"])
            let editor = library.openNote.editor
            XCTAssertEqual(editor.buffer.text, "First\n\n")
            editor.buffer.cursorOffset = editor.buffer.characterCount
            editor.textView.type("See [[sho")
            XCTAssertTrue(spin(until: { editor.completion.isShown }), "no suggestions after [[sho")
            XCTAssertEqual(editor.completion.suggestions.map(\.label), ["Shop hours", "Shopping"], "titles starting so, folded")
            editor.completion.accept(1)
            XCTAssertEqual(editor.buffer.text, "First\n\nSee [[Shopping]]")
            XCTAssertFalse(editor.completion.isShown)
            XCTAssertEqual(editor.buffer.cursorOffset, editor.buffer.characterCount, "the cursor after the link")
            editor.buffer.undo()
            XCTAssertEqual(editor.buffer.text, "First\n\nSee [[sho", "the choice is one undo step")
            // Typed in code, escaped, or after a closed link: no suggestions.
            editor.textView.type("]] `[[sho")
            XCTAssertEqual(LinkCompletion.context(beforeCursor: "`[[sho", cursor: 6), nil)
            XCTAssertEqual(LinkCompletion.context(beforeCursor: "\\[[sho", cursor: 6), nil)
            XCTAssertEqual(LinkCompletion.context(beforeCursor: "[[a]] b", cursor: 7), nil)
            XCTAssertEqual(LinkCompletion.context(beforeCursor: "x #wo", cursor: 5), .tag(typed: "wo", start: 3))
            XCTAssertEqual(LinkCompletion.context(beforeCursor: "a#wo", cursor: 4), nil)
        }
    }

    nonisolated func testOpeningALinkOpensTheNoteAndAMissingTitleCreatesIt() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "First\n\nSee [[shopping]] and [[Garden shed]].\n", "b.md": "Shopping\nmilk"])
            let editor = library.openNote.editor
            let controller = library.controller
            cursor(after: "[[shop", in: editor)
            XCTAssertTrue(editor.noteLinks.openAtCursor())
            XCTAssertTrue(spin(until: { controller.openID == "b.md" }), "the linked note did not open")
            XCTAssertTrue(spin(until: { controller.links.backlinks.backlinks.map(\.noteID) == ["a.md"] }), "its backlinks: the first note")
            XCTAssertEqual(controller.links.backlinks.headingText, "Linked from 1 note")

            controller.reveal("a.md")
            XCTAssertTrue(spin(until: { controller.openID == "a.md" && editor.buffer.text.hasPrefix("First") }))
            XCTAssertTrue(spin(until: { editor.noteLinks.missing == ["Garden shed"] }), "the missing title is drawn as missing")
            cursor(after: "[[Garden", in: editor)
            XCTAssertTrue(editor.noteLinks.openAtCursor())
            XCTAssertTrue(spin(until: { controller.links.question != nil }), "no offer to create the note")
            controller.links.question?.respond(1)
            XCTAssertTrue(spin(until: { editor.buffer.text.hasPrefix("Garden shed\n") }), "the new note is not open")
            let made = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("note-") }
            XCTAssertEqual(made.count, 1)
            XCTAssertTrue(spin(until: { (try? String(contentsOf: folder.appendingPathComponent(made[0]), encoding: .utf8))?.hasPrefix("Garden shed\n") == true }))
            // Back in the first note the link is no longer missing.
            controller.reveal("a.md")
            XCTAssertTrue(spin(until: { controller.openID == "a.md" && editor.noteLinks.missing.isEmpty }, timeout: 8))
        }
    }

    nonisolated func testALinkToATitleTwoNotesHaveAsksWhich() throws {
        try MainActor.assumeIsolated {
            let (library, _) = try makeLibrary(["a.md": "First\n[[ideas]]\n", "b.md": "Ideas\none", "c.md": "IDEAS\ntwo"])
            let editor = library.openNote.editor
            let controller = library.controller
            XCTAssertTrue(spin(until: { controller.openID == "a.md" }))
            cursor(after: "[[id", in: editor)
            XCTAssertTrue(editor.noteLinks.openAtCursor())
            XCTAssertTrue(spin(until: { controller.links.offeredNotes.count == 2 }), "no choice offered")
            XCTAssertEqual(Set(controller.links.offeredNotes), ["b.md", "c.md"])
            XCTAssertEqual(controller.openID, "a.md", "nothing opened before the choice")
        }
    }

    nonisolated func testTagsAreListedAndFilterTheList() throws {
        try MainActor.assumeIsolated {
            let (library, _) = try makeLibrary(["a.md": "A\n#work/meetings", "b.md": "B\n#work #home", "c.md": "C\nno tags"])
            let controller = library.controller
            XCTAssertTrue(spin(until: { controller.links.tagList.keys == ["home", "work", "work/meetings"] }), "\(controller.links.tagList.keys)")
            XCTAssertEqual(controller.links.tagCounts.map(\.count), [1, 2, 1])
            controller.links.tagList.select("work")
            XCTAssertTrue(spin(until: { library.list.orderedIDs == ["a.md", "b.md"] }), "\(library.list.orderedIDs)")
            controller.links.tagList.select("work/meetings")
            XCTAssertTrue(spin(until: { library.list.orderedIDs == ["a.md"] }))
            controller.links.tagList.select(nil)
            XCTAssertTrue(spin(until: { library.list.orderedIDs == ["a.md", "b.md", "c.md"] }))
        }
    }
}

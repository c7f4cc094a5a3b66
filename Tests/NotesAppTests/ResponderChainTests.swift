import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// Errors climb the real GTK widget tree, owner by owner, up to the application.
final class ResponderChainTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    /// A responder that owns a widget and records the errors it sees.
    final class Spy: Responder {
        let name: String
        let widget: Widget
        let handlesHere: Bool
        var log: (String) -> Void
        var next: Responder?
        init(_ name: String, owning widget: Widget, handlesHere: Bool = false, log: @escaping (String) -> Void) {
            self.name = name
            self.widget = widget
            self.handlesHere = handlesHere
            self.log = log
            super.init()
            widget.owner = self
        }
        override var nextResponder: Responder? { next ?? widget.ancestorOwner as? Responder }
        override func willPresentError(_ error: Error) -> Error? {
            log(name)
            return handlesHere ? nil : error
        }
    }

    nonisolated func testChainFromTheTextViewThroughThePanedAndWindowToTheApplication() {
        MainActor.assumeIsolated {
            var seen: [String] = []
            let window = Window()
            let paned = Paned(.horizontal)
            let pane = Box(.vertical)
            let textView = TextView(buffer: TextBuffer())
            let unowned = Box(.vertical)  // widgets without an owner are skipped
            unowned.append(textView)
            pane.append(unowned)
            paned.endChild = pane
            window.child = paned
            defer { window.destroy() }
            let app = Spy("application", owning: Label(), log: { seen.append($0) })
            let windowSpy = Spy("window", owning: window, log: { seen.append($0) })
            windowSpy.next = app  // the window's next responder is the application
            let panedSpy = Spy("paned", owning: paned, log: { seen.append($0) })
            let editorSpy = Spy("editor", owning: pane, log: { seen.append($0) })
            XCTAssertTrue(textView.nearestOwner === editorSpy, "the text view's responder is its nearest owner")
            editorSpy.presentError(StorageError(.write, path: "/n/a.md", code: EIO)) { _ in }
            XCTAssertEqual(seen, ["editor", "paned", "window", "application"])
            _ = panedSpy
        }
    }

    nonisolated func testAResponderReturningNilStopsTheError() {
        MainActor.assumeIsolated {
            var seen: [String] = []
            let window = Window()
            let pane = Box(.vertical)
            window.child = pane
            defer { window.destroy() }
            let windowSpy = Spy("window", owning: window, log: { seen.append($0) })
            let inline = Spy("inline", owning: pane, handlesHere: true, log: { seen.append($0) })
            var completed: Bool?
            inline.presentError(StorageError(.write, path: "/x", code: EIO)) { completed = $0 }
            XCTAssertEqual(seen, ["inline"])
            XCTAssertEqual(completed, false)
            _ = windowSpy
        }
    }

    nonisolated func testTheAppsOwnViewsLinkUpAsTheWidgetTreeDoes() {
        MainActor.assumeIsolated {
            let window = Window()
            let top = PresentingResponder(parent: window)
            window.owner = top
            let editor = EditorView()
            let openNote = OpenNoteController(editor: editor, status: StatusLight(), drafts: RecoveryDrafts(folder: makeFolder()), history: NoteHistory(folder: makeFolder()))
            let list = NotesListView()
            let controller = NotesController(library: NoteLibrary(folder: makeFolder()), list: list, openNote: openNote, toast: ToastView())
            let paned = Paned(.horizontal)
            paned.startChild = controller.sidebar
            paned.endChild = openNote.pane
            window.child = paned
            defer { window.destroy() }
            XCTAssertTrue(editor.textView.nearestOwner === editor)
            XCTAssertTrue(editor.nextResponder === openNote)
            XCTAssertTrue(openNote.nextResponder === top)
            XCTAssertTrue(list.nextResponder === controller)
            XCTAssertTrue(controller.nextResponder === top)
        }
    }

    nonisolated func testReadOnlyIsSaidInlineByTheEditorNotInADialog() throws {
        try MainActor.assumeIsolated {
            let folder = makeFolder()
            let file = folder.appendingPathComponent("latin1.md")
            try Data([0x43, 0x61, 0x66, 0xE9, 0x0A]).write(to: file)
            let (top, editor, openNote) = makeEditorWindow()
            openNote.open(file)
            XCTAssertTrue(spin(until: { openNote.document != nil }))
            editor.presentError(OperationError(.save, note: "Caf", underlying: DocumentError.readOnly(note: "Caf"))) { _ in }
            XCTAssertTrue(top.received.isEmpty, "no dialog: the editor handled it")
            XCTAssertNotNil(editor.bannerText)
            XCTAssertTrue(editor.bannerText?.contains("not UTF-8") ?? false, editor.bannerText ?? "")
        }
    }
}

/// An error from a widget detached from the window as it came still reaches the end of the
/// chain (issue #12), never dropped.
final class DetachedResponderTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testAnErrorOfADetachedWidgetReachesTheApplication() {
        MainActor.assumeIsolated {
            final class End: Responder {
                var received: [Error] = []
                override func presentError(_ error: Error, completion: @escaping @MainActor (Bool) -> Void) {
                    received.append(error)
                    completion(false)
                }
            }
            let end = End()
            Responder.endOfChain = end
            defer { Responder.endOfChain = nil }
            let editor = EditorView()  // in no window: no ancestor owns it
            editor.presentError(StorageError(.write, path: "/x/note.md", code: ENOSPC)) { _ in }
            XCTAssertEqual(end.received.count, 1)
        }
    }
}

import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// The controller with real widgets and a real library folder.
final class NotesControllerTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var window: Window!
    private var list: NotesListView!
    private var editor: EditorView!
    private var toast: ToastView!
    private var status: StatusLight!
    private var drafts: RecoveryDrafts!
    private var box: Box!
    /// The end of the chain, as the application is: presents real dialogs.
    private var top: PresentingResponder!

    nonisolated override func setUpWithError() throws {
        try MainActor.assumeIsolated {
            try super.setUpWithError()
            window = Window()
            list = NotesListView()
            editor = EditorView()
            toast = ToastView()
            status = StatusLight()
            drafts = RecoveryDrafts(folder: makeFolder())
            top = PresentingResponder(parent: window)
            window.owner = top
            box = Box(.horizontal)
            box.append(toast.root)
            box.append(status.root)
            window.child = box
            window.present()
        }
    }

    private func makeControllers(library: NoteLibrary) -> NotesController {
        let openNote = OpenNoteController(editor: editor, status: status, drafts: drafts, history: NoteHistory(folder: makeFolder()))
        let controller = NotesController(library: library, list: list, openNote: openNote, toast: toast)
        box.prepend(openNote.pane)
        box.prepend(controller.sidebar)
        return controller
    }

    nonisolated override func tearDown() {
        MainActor.assumeIsolated {
            window.destroy()
            super.tearDown()
        }
    }

    private func makeController(_ files: [String: String]) throws -> (NotesController, URL) {
        let folder = try makeNotesFolder(files)
        let controller = makeControllers(library: NoteLibrary(folder: folder))
        var started = false
        controller.start { started = true }
        XCTAssertTrue(spin(until: { started }))
        return (controller, folder)
    }

    nonisolated func testStartListsNotesAndOpensTheNewest() throws {
        try MainActor.assumeIsolated {
            let (controller, _) = try makeController(["a.md": "Alpha\nfirst", "b.md": "Beta\nsecond"])
            XCTAssertEqual(list.orderedIDs, ["a.md", "b.md"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            XCTAssertEqual(editor.buffer.text, "Alpha\nfirst")
        }
    }

    nonisolated func testCreateTypeAndAutosave() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController([:])
            XCTAssertEqual(list.root.visibleChildName, "empty")
            controller.createNote()
            XCTAssertTrue(spin(until: { controller.document != nil }))
            XCTAssertTrue(editor.textView.hasFocus, "a new note is ready for typing")
            editor.textView.type("Shopping\nmilk")
            let url = controller.document!.fileURL
            XCTAssertTrue(spin(until: { (try? String(contentsOf: url, encoding: .utf8)) == "Shopping\nmilk" }, timeout: 5))
            XCTAssertEqual(list.summary(url.lastPathComponent)?.title, "Shopping")
            // A save exchanges the new file in, then deletes the old one under the temporary's
            // name: a temporary that stays is the failure, not one on its way out.
            XCTAssertTrue(spin(until: { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [url.lastPathComponent] }),
                          "the folder holds \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])")
        }
    }

    nonisolated func testSwitchingNotesSavesTheOneLeft() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha", "b.md": "Beta"])
            XCTAssertTrue(spin(until: { controller.document?.fileURL.lastPathComponent == "a.md" }))
            editor.textView.type("Edited ")
            list.select("b.md", notify: true)
            XCTAssertTrue(spin(until: { controller.document?.fileURL.lastPathComponent == "b.md" }))
            let a = folder.appendingPathComponent("a.md")
            XCTAssertTrue(spin(until: { (try? String(contentsOf: a, encoding: .utf8)) == "Edited Alpha" }))
        }
    }

    nonisolated func testDeleteMovesIntoTheLibrarysTrashAndUndoBringsItBack() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha", "b.md": "Beta"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            controller.trash.delete("a.md")
            XCTAssertEqual(list.orderedIDs, ["b.md"])
            let inTrash = folder.appendingPathComponent(".notula/Trash/files/a.md")
            XCTAssertTrue(spin(until: { FileManager.default.fileExists(atPath: inTrash.path) && self.toast.isShowing }))
            XCTAssertEqual(toast.message, "“Alpha” moved to Trash")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.md").path))
            // Undo is the toast's button.
            toast.button.click()
            // The library's watcher may list the note again before the restore selects it: wait for both.
            XCTAssertTrue(spin(until: { self.list.orderedIDs == ["a.md", "b.md"] && self.list.selectedID == "a.md" }), "\(list.orderedIDs) \(String(describing: list.selectedID))")
            XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("a.md"), encoding: .utf8), "Alpha")
            XCTAssertFalse(FileManager.default.fileExists(atPath: inTrash.path))
        }
    }

    nonisolated func testDeletingTheOpenNoteSavesItsLastWordsFirst() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            editor.textView.type("Last words. ")
            controller.trash.delete("a.md")
            let inTrash = folder.appendingPathComponent(".notula/Trash/files/a.md")
            XCTAssertTrue(spin(until: { FileManager.default.fileExists(atPath: inTrash.path) }))
            XCTAssertEqual(try String(contentsOf: inTrash, encoding: .utf8), "Last words. Alpha")
            XCTAssertEqual(list.root.visibleChildName, "empty")
            XCTAssertFalse(editor.isShowingNote)
        }
    }

    nonisolated func testUnreadableFolderIsReportedNotShownAsEmpty() throws {
        try MainActor.assumeIsolated {
            let folder = makeFolder().appendingPathComponent("file-not-folder")
            try Data("x".utf8).write(to: folder)
            let controller = makeControllers(library: NoteLibrary(folder: folder))
            var started = false
            controller.start { started = true }
            XCTAssertTrue(spin(until: { self.top.presenter.isPresenting }))
            XCTAssertEqual(top.presenter.dialog?.text, "Your notes could not be listed")
            XCTAssertEqual(top.presenter.dialog?.buttonLabel(for: 0), "Try Again")
            top.presenter.choose(2)  // Cancel
            XCTAssertTrue(started)
        }
    }

    nonisolated func testFileDeletedWhileOpenKeepsTextSaysSoAndSavesAgain() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            XCTAssertEqual(status.text, "Saved")
            XCTAssertTrue(status.button.accessibleLabel.hasPrefix("Note status: Saved"))
            let file = folder.appendingPathComponent("a.md")
            try FileManager.default.removeItem(at: file)
            XCTAssertTrue(spin(until: { self.status.text == "Unsaved" }))
            XCTAssertTrue(status.button.accessibleLabel.contains("deleted or moved"))
            XCTAssertEqual(editor.bannerText, "This note’s file was deleted or moved by another program. Your text is still here.")
            XCTAssertEqual(editor.text, "Alpha")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
            editor.bannerButton.click()
            XCTAssertTrue(spin(until: { (try? String(contentsOf: file, encoding: .utf8)) == "Alpha" }))
            XCTAssertTrue(spin(until: { self.status.text == "Saved" }))
            XCTAssertNil(editor.bannerText)
        }
    }

    /// Issue #28: the open note's file deleted by another program, then the user switches
    /// away. No ghost row is left (one that opens nothing); the window offers the kept text
    /// back, and Save Again writes it, lists it and opens it.
    nonisolated func testLeavingANoteWhoseFileWasDeletedLeavesNoGhostRowAndOffersItsText() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha\nkept words", "b.md": "Beta"])
            var notices: [(String, (label: String, run: () -> Void)?)] = []
            controller.presenter.notice = { notices.append(($0, $1)) }
            XCTAssertTrue(spin(until: { controller.document != nil && controller.openID == "a.md" }))
            editor.textView.type("typed ")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("a.md"))
            XCTAssertTrue(spin(until: { self.status.text == "Unsaved" }))
            XCTAssertNotNil(list.summary("a.md"), "listed while open: the editor holds its text")
            list.select("b.md", notify: true)
            XCTAssertTrue(spin(until: { controller.openID == "b.md" }))
            XCTAssertTrue(spin(until: { self.list.summary("a.md") == nil }), "no ghost row")
            XCTAssertEqual(list.orderedIDs, ["b.md"])
            XCTAssertTrue(spin(until: { !notices.isEmpty }))
            XCTAssertEqual(notices.first?.0, "“typed Alpha” was deleted by another program. Its text is kept.")
            XCTAssertFalse(top.presenter.isPresenting, "information, not an error")
            XCTAssertEqual(notices.first?.1?.label, "Save Again")
            notices.first?.1?.run()
            XCTAssertTrue(spin(until: { controller.openID == "a.md" }))
            XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("a.md"), encoding: .utf8), "typed Alpha\nkept words")
            XCTAssertEqual(editor.text, "typed Alpha\nkept words")
            XCTAssertNil(drafts.draft(for: folder.appendingPathComponent("a.md")), "the draft went once the file held the text")
        }
    }

    /// The same when the library's watcher saw the file go while the note was open (the index
    /// dropped its row then, the list kept it for the editor): leaving the note still takes
    /// its row away. (Found by the acceptance test: the refresh at leaving changed nothing in
    /// the index, so the list never heard of the removal.)
    nonisolated func testLeavingANoteWhoseFileTheWatcherSawGoLeavesNoGhostRow() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha\nkept words", "b.md": "Beta"])
            var notices: [String] = []
            controller.presenter.notice = { message, _ in notices.append(message) }
            XCTAssertTrue(spin(until: { controller.document != nil && controller.openID == "a.md" }))
            editor.textView.type("typed ")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("a.md"))
            XCTAssertTrue(spin(until: { self.status.text == "Unsaved" }))
            XCTAssertTrue(spin(until: { controller.live.index?.summaries().contains { $0.id == "a.md" } == false }),
                          "the watcher's refresh took the row out of the index")
            XCTAssertNotNil(list.summary("a.md"), "listed while open: the editor holds its text")
            list.select("b.md", notify: true)
            XCTAssertTrue(spin(until: { controller.openID == "b.md" }))
            XCTAssertTrue(spin(until: { !notices.isEmpty }))
            XCTAssertTrue(spin(until: { self.list.summary("a.md") == nil }), "no ghost row")
            XCTAssertEqual(list.orderedIDs, ["b.md"])
        }
    }

    /// Issue #28: a listed note whose file is gone when it is opened (the list read before
    /// another program deleted it) shows no dialog: Try Again could not help. Its row goes and
    /// the newest note opens, as at start.
    nonisolated func testOpeningANoteWhoseFileIsGoneShowsNoDialog() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha", "b.md": "Beta"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            let other = controller.openID == "a.md" ? "b.md" : "a.md"
            controller.live.stopWatching()  // as if the change had not been seen yet
            try FileManager.default.removeItem(at: folder.appendingPathComponent(other))
            list.select(other, notify: true)  // a click on its row
            XCTAssertTrue(spin(until: { self.list.summary(other) == nil }), "the row of the note that is gone stays")
            XCTAssertTrue(spin(until: { controller.openID != nil && controller.openID != other }), "the newest note opens, as at start")
            XCTAssertFalse(top.presenter.isPresenting, "a dialog for a note that is gone: \(top.presenter.dialog?.text ?? "")")
            XCTAssertTrue(top.received.isEmpty)
        }
    }

    /// Its file there but unreadable (EIO, EACCES …) is a failure: the dialog names the file.
    nonisolated func testOpeningANoteThatIsNotARegularFileStillSaysWhy() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha", "b.md": "Beta"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            controller.live.stopWatching()
            let file = folder.appendingPathComponent("b.md")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            controller.open("b.md")
            XCTAssertTrue(spin(until: { self.top.presenter.isPresenting }))
            XCTAssertEqual(top.presenter.dialog?.text, "“b.md” could not be opened")
            top.presenter.choose(2)  // Cancel
        }
    }

    nonisolated func testReloadFromDiskShowsTheNewTextWithoutMarkingItEdited() throws {
        try MainActor.assumeIsolated {
            let (controller, folder) = try makeController(["a.md": "Alpha"])
            XCTAssertTrue(spin(until: { controller.document != nil }))
            try AtomicFileWriter.write(Data("Alpha, changed elsewhere".utf8), to: folder.appendingPathComponent("a.md"))
            XCTAssertTrue(spin(until: { self.editor.text == "Alpha, changed elsewhere" }))
            XCTAssertEqual(status.text, "Saved")
            XCTAssertEqual(list.summary("a.md")?.title, "Alpha, changed elsewhere")
        }
    }

    /// A first start (no index yet): the list is complete before the texts are in; meanwhile
    /// the note under the search field says how far indexing got ("Indexing… N of 6,000"),
    /// and a search typed early fills in as texts land; the note goes once all are in.
    nonisolated func testAFirstStartSaysHowFarIndexingGotAndTheSearchFillsIn() throws {
        try MainActor.assumeIsolated {
            let folder = makeFolder().appendingPathComponent("Notes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let filler = String(repeating: "filler words ", count: 350)  // the word below is past the first 4 KB
            for number in 0..<6000 {
                try Data("Note \(number)\n\(filler)\nuniq\(number % 2)q\n".utf8).write(to: folder.appendingPathComponent("n\(number).md"))
            }
            let controller = makeControllers(library: NoteLibrary(folder: folder))
            var notes: [(text: String, shown: Bool, listed: Int)] = []
            let window = controller.live.onEvent
            controller.live.onEvent = { event in
                window?(event)
                if case .indexing = event {
                    notes.append((controller.search.indexingNote.text, controller.search.indexingNote.isVisible, self.list.count))
                }
            }
            var indexed = false
            let started = controller.live.onEvent
            controller.live.onEvent = { event in
                started?(event)
                if case .indexed = event { indexed = true }
            }
            var listed = false
            controller.start { listed = true }
            XCTAssertTrue(spin(until: { listed }, timeout: 120))
            XCTAssertEqual(list.count, 6000, "the list is complete")
            controller.search.entry.text = "uniq1q"
            XCTAssertTrue(spin(until: { indexed }, timeout: 120))
            XCTAssertFalse(notes.isEmpty, "the window heard how far indexing got")
            for note in notes {
                XCTAssertTrue(note.shown, note.text)
                XCTAssertNotNil(note.text.range(of: #"^Indexing… [0-9.,]+ of 6[.,]?000$"#, options: .regularExpression), note.text)
            }
            XCTAssertFalse(controller.search.indexingNote.isVisible, "gone once every text is in")
            XCTAssertTrue(spin(until: { self.list.count == 3000 }, timeout: 10), "the search filled in: \(list.count)")
            XCTAssertTrue(list.orderedIDs.allSatisfy { Int($0.dropFirst().dropLast(3))! % 2 == 1 })
        }
    }
}

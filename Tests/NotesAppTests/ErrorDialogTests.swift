import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// The application's presenter: real message dialogs under Xvfb, and recovery that really recovers.
final class ErrorDialogTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testDialogShowsFailureSuggestionAndOneButtonPerOption() {
        MainActor.assumeIsolated {
            let window = Window()
            window.present()
            defer { window.destroy() }
            let presenter = ErrorDialogPresenter()
            presenter.parent = window
            var ran: [String] = []
            let failure = RecoverableFailure(failureReason: "“Groceries” could not be saved", recoverySuggestion: "The disk is full.", actions: [
                .retry(),
                RecoveryAction("Save a Copy…") { ran.append("copy"); $0(false) },
                RecoveryAction("Revert to Saved", role: .destructive) { ran.append("revert"); $0(false) },
                .cancel("Keep Editing"),
            ])
            var outcomes: [Bool] = []
            presenter.present(failure) { outcomes.append($0) }
            guard let dialog = presenter.dialog else { return XCTFail("no dialog") }
            XCTAssertEqual(dialog.text, "“Groceries” could not be saved")
            XCTAssertEqual(dialog.secondaryText, "The disk is full.")
            XCTAssertEqual((0..<4).compactMap { dialog.buttonLabel(for: $0) }, ["Try Again", "Save a Copy…", "Revert to Saved", "Keep Editing"])
            XCTAssertTrue(dialog.button(for: 0, hasStyle: "suggested-action"), "the default option is styled as such")
            XCTAssertTrue(dialog.button(for: 2, hasStyle: "destructive-action"))
            XCTAssertTrue(dialog.isModal)
            // Escape (a negative response) answers the cancel option.
            dialog.respond(-4)
            XCTAssertEqual(outcomes, [false])
            XCTAssertEqual(ran, [])
            XCTAssertFalse(presenter.isPresenting)
        }
    }

    nonisolated func testOneDialogAtATimeAndIdenticalErrorsMerged() {
        MainActor.assumeIsolated {
            let window = Window()
            window.present()
            defer { window.destroy() }
            let presenter = ErrorDialogPresenter()
            presenter.parent = window
            let first = RecoverableFailure(failureReason: "First", recoverySuggestion: "one", actions: [.retry(), .cancel()])
            let second = RecoverableFailure(failureReason: "Second", recoverySuggestion: "two", actions: [.cancel("OK")])
            var heard: [String] = []
            presenter.present(first) { heard.append("first \($0)") }
            presenter.present(second) { heard.append("second \($0)") }
            presenter.present(second) { heard.append("second again \($0)") }
            presenter.present(first) { heard.append("first again \($0)") }
            XCTAssertEqual(presenter.dialog?.text, "First")
            XCTAssertEqual(presenter.waiting, 1)
            presenter.choose(0)
            XCTAssertEqual(heard, ["first true", "first again true"])
            XCTAssertEqual(presenter.dialog?.text, "Second")
            presenter.choose(0)
            XCTAssertEqual(heard.suffix(2), ["second false", "second again false"])
            XCTAssertFalse(presenter.isPresenting)
        }
    }

    nonisolated func testChoosingTryAgainRetriesTheFailedSave() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 256)
            let file = disk.url.appendingPathComponent("note.md")
            try Data("Shopping\n".utf8).write(to: file)
            let window = Window()
            let top = PresentingResponder(parent: window)
            window.owner = top
            let editor = EditorView()
            let status = StatusLight()
            let openNote = OpenNoteController(editor: editor, status: status, drafts: RecoveryDrafts(folder: makeFolder()), history: NoteHistory(folder: makeFolder()))
            let box = Box(.vertical)
            box.append(status.root)
            box.append(openNote.pane)
            window.child = box
            window.present()
            defer { window.destroy() }
            openNote.open(file)
            XCTAssertTrue(spin(until: { openNote.document != nil }))
            try disk.remountReadOnly()
            editor.textView.type("- apples ")
            XCTAssertTrue(spin(until: { top.presenter.isPresenting }, timeout: 5), "the failed autosave is presented")
            guard let dialog = top.presenter.dialog else { return }
            XCTAssertEqual(dialog.text, "“- apples Shopping” could not be saved")
            XCTAssertTrue(dialog.secondaryText.contains("read-only"), dialog.secondaryText)
            XCTAssertEqual((0..<4).compactMap { dialog.buttonLabel(for: $0) }, ["Try Again", "Save a Copy…", "Revert to Saved", "Keep Editing"])
            XCTAssertEqual(status.text, "Unsaved")
            try disk.remountWritable()
            top.presenter.choose(0)  // Try Again
            XCTAssertTrue(spin(until: { (try? String(contentsOf: file, encoding: .utf8)) == "- apples Shopping\n" }))
            XCTAssertTrue(spin(until: { status.text == "Saved" }))
            XCTAssertFalse(top.presenter.isPresenting)
        }
    }

    /// A save fails as the user switches notes: the options act on the note that failed,
    /// never on the one open when the user clicks (issue #12).
    nonisolated func testRecoveryActsOnTheNoteThatFailedNotTheOneOpenNow() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 256)
            let failing = disk.url.appendingPathComponent("a.md")
            try Data("Shopping\n".utf8).write(to: failing)
            let other = makeFolder().appendingPathComponent("b.md")
            try Data("Diary\n".utf8).write(to: other)
            let (top, editor, openNote) = makeEditorWindow()
            openNote.open(failing)
            XCTAssertTrue(spin(until: { openNote.document != nil }))
            try disk.remountReadOnly()
            editor.textView.type("- apples ")
            openNote.open(other)  // the closing save of a.md fails
            XCTAssertTrue(spin(until: { top.presenter.isPresenting && openNote.document?.fileURL == other }, timeout: 5))
            guard let dialog = top.presenter.dialog else { return }
            XCTAssertEqual(dialog.text, "“- apples Shopping” could not be saved")
            editor.textView.type("Monday ")
            XCTAssertEqual(dialog.buttonLabel(for: 2), "Revert to Saved")
            top.presenter.choose(2)  // Revert to Saved: a.md's, not the diary's
            _ = spin(until: { false }, timeout: 0.5)
            XCTAssertEqual(editor.text, "Monday Diary\n", "the open note was reverted instead of the one that failed")
            XCTAssertEqual(try String(contentsOf: failing, encoding: .utf8), "Shopping\n")
        }
    }

    nonisolated func testErrorsWaitWhileInteractionIsSuspendedThenShow() {
        MainActor.assumeIsolated {
            let app = NotulaApplication(directories: XDGDirectories(environment: ["HOME": makeFolder().path]))
            let window = Window()
            window.present()
            defer { window.destroy() }
            app.presenter.parent = window
            app.presenter.isHeld = true
            var outcome: Bool?
            app.presentError(OperationError(.save, note: "Diary", underlying: StorageError(.write, path: "/x/diary.md", code: ENOSPC))) { outcome = $0 }
            XCTAssertFalse(app.presenter.isPresenting, "no dialog while no one may be asked")
            app.presenter.isHeld = false
            XCTAssertEqual(app.presenter.dialog?.text, "“Diary” could not be saved")
            XCTAssertTrue(app.presenter.dialog?.secondaryText.contains("The disk is full") ?? false)
            XCTAssertEqual(app.presenter.dialog?.buttonLabel(for: 0), "OK")
            XCTAssertEqual(app.presenter.dialog?.buttonLabel(for: 1), "Show in Files")
            app.presenter.choose(0)
            XCTAssertEqual(outcome, false)
        }
    }
}

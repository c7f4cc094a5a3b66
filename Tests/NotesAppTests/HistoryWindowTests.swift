import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// Browse Versions on real widgets: the open note's versions newest first, the chosen one
/// beside the current text with the differing lines highlighted, Restore as one undoable edit
/// (the replaced text kept as a version first), Open as New Note, and every note's history
/// when no note is open.
final class HistoryWindowTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var folder: URL!
    private var history: NoteHistory!
    private var list: NotesListView!
    private var openNote: OpenNoteController!
    private var controller: NotesController!
    private var top: PresentingResponder!

    nonisolated override func setUpWithError() throws {
        try MainActor.assumeIsolated {
            try super.setUpWithError()
            folder = makeFolder().appendingPathComponent("Notes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let shown = makeLibraryWindow(folder: folder)
            (history, list, openNote, controller, top) = (shown.history, shown.list, shown.openNote, shown.controller, shown.top)
        }
    }

    private var trip: URL { folder.appendingPathComponent("Trip.md") }

    /// A note with two versions in its history, open in the editor with a third text.
    private func openTripWithHistory() throws {
        try Data("Trip\nday 1: museum\n".utf8).write(to: trip)
        history.record(of: trip, origin: .closed) { Data("Trip\nday 1: zoo\n".utf8) }
        history.waitUntilIdle()
        controller.start()
        XCTAssertTrue(spin(until: { self.list.orderedIDs == ["Trip.md"] }))
        controller.open("Trip.md")
        XCTAssertTrue(spin(until: { self.openNote.document?.fileURL == self.trip && self.openNote.editor.text.contains("museum") }))
        history.waitUntilIdle()  // the version kept at open
    }

    private func showHistory() throws -> HistoryWindow {
        openNote.showHistory()
        XCTAssertTrue(spin(until: { self.openNote.historyWindow?.window.isMapped == true }))
        return try XCTUnwrap(openNote.historyWindow)
    }

    nonisolated func testVersionsNewestFirstBesideTheCurrentTextWithDifferencesHighlighted() throws {
        try MainActor.assumeIsolated {
            try openTripWithHistory()
            let versions = try showHistory()
            XCTAssertEqual(versions.shownVersions.map(\.origin), [.opened, .closed])
            XCTAssertTrue(versions.rowLabel(0).contains("Opened"), versions.rowLabel(0))
            XCTAssertTrue(versions.rowLabel(1).contains("Closed"), versions.rowLabel(1))
            versions.choose(versions.shownVersions[1])
            XCTAssertTrue(spin(until: { versions.shownTexts.chosen == "Trip\nday 1: zoo\n" }))
            XCTAssertEqual(versions.shownTexts.current, "Trip\nday 1: museum\n")
            XCTAssertFalse(versions.chosenLineIsHighlighted(0), "the same first line")
            XCTAssertTrue(versions.chosenLineIsHighlighted(1), "the line that differs")
            XCTAssertTrue(versions.restore.isSensitive)
        }
    }

    nonisolated func testRestoreIsOneUndoableEditAndKeepsTheReplacedTextAsAVersion() throws {
        try MainActor.assumeIsolated {
            try openTripWithHistory()
            openNote.editor.buffer.replace(openNote.editor.buffer.characterCount..<openNote.editor.buffer.characterCount, with: "day 2: beach\n")
            let typed = "Trip\nday 1: museum\nday 2: beach\n"
            XCTAssertEqual(openNote.editor.text, typed)
            let versions = try showHistory()
            versions.choose(versions.shownVersions[1])
            XCTAssertTrue(spin(until: { versions.shownTexts.chosen == "Trip\nday 1: zoo\n" }))
            versions.restore.click()
            XCTAssertTrue(spin(until: { self.openNote.historyWindow == nil }), "the window closes")
            XCTAssertEqual(openNote.editor.text, "Trip\nday 1: zoo\n")
            XCTAssertTrue(openNote.document?.hasUnsavedChanges == true, "saved like an edit")
            history.waitUntilIdle()
            let kept = try history.versions(of: trip)
            XCTAssertEqual(kept.first?.origin, .beforeRestore)
            XCTAssertEqual(String(decoding: try history.contents(of: kept[0]), as: UTF8.self), typed)
            openNote.editor.buffer.undo()
            XCTAssertEqual(openNote.editor.text, typed, "one Ctrl+Z brings the text back")
        }
    }

    nonisolated func testOpenAsNewNoteMakesANoteWithThatText() throws {
        try MainActor.assumeIsolated {
            try openTripWithHistory()
            let versions = try showHistory()
            versions.choose(versions.shownVersions[1])
            XCTAssertTrue(spin(until: { versions.shownTexts.chosen == "Trip\nday 1: zoo\n" }))
            versions.openAsNew.click()
            XCTAssertTrue(spin(until: { self.list.orderedIDs.count == 2 }))
            let newID = try XCTUnwrap(list.orderedIDs.first { $0 != "Trip.md" })
            // The watcher may list the new file between its creation and its text's write.
            let made = folder.appendingPathComponent(newID)
            XCTAssertTrue(spin(until: { (try? String(contentsOf: made, encoding: .utf8)) == "Trip\nday 1: zoo\n" }),
                          (try? String(contentsOf: made, encoding: .utf8)) ?? "unreadable")
            XCTAssertEqual(try String(contentsOf: trip, encoding: .utf8), "Trip\nday 1: museum\n", "the note itself is untouched")
        }
    }

    nonisolated func testWithoutAnOpenNoteEveryNotesHistoryDeletedOnesToo() throws {
        try MainActor.assumeIsolated {
            let gone = folder.appendingPathComponent("Gone.md")
            try Data("Gone\nlast words\n".utf8).write(to: gone)
            try Data("Trip\n".utf8).write(to: trip)
            history.record(of: gone, origin: .closed) { Data("Gone\nlast words\n".utf8) }
            history.record(of: trip, origin: .closed) { Data("Trip\n".utf8) }
            history.waitUntilIdle()
            try FileManager.default.removeItem(at: gone)
            history.noteDeleted(gone, keepHistory: true)
            history.waitUntilIdle()
            let versions = try showHistory()
            XCTAssertEqual(versions.shownVersions.count, 2)
            XCTAssertFalse(versions.restore.isVisible, "nothing to restore into")
            XCTAssertTrue(spin(until: { !versions.shownTexts.chosen.isEmpty }))
            XCTAssertEqual(versions.window.title, "Versions of All Notes")
            XCTAssertEqual(versions.shownHeadings, ["Trip", "Gone (deleted)"])
        }
    }

    /// Issue #28: a note another program deleted was listed as if it were there. Every note's
    /// history says what became of each note, as the disk says when the window opens.
    nonisolated func testEveryNotesHistorySaysWhichNotesAreGoneWhoeverDeletedThem() throws {
        try MainActor.assumeIsolated {
            let notes: [(name: String, title: String)] = [("Kept.md", "Kept"), ("Removed.md", "Removed elsewhere"),
                                                         ("Work/Inside.md", "Inside a removed notebook"),
                                                         (".notula/Trash/files/Binned.md", "Binned")]
            for note in notes {
                let url = folder.appendingPathComponent(note.name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("\(note.title)\n".utf8).write(to: url)
                history.record(of: url, origin: .closed) { Data("\(note.title)\n".utf8) }
                history.waitUntilIdle()
            }
            // Another program deletes a note, and a notebook with its note: Notula is not told.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Removed.md"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Work"))
            let versions = try showHistory()
            XCTAssertEqual(Set(versions.shownHeadings), ["Kept", "Removed elsewhere (deleted)", "Inside a removed notebook (not found)",
                                                         "Binned (in the Trash)"])
            XCTAssertEqual(versions.shownVersions.count, 4, "the versions of notes gone are still there to read")
        }
    }

    nonisolated func testAllNotesShowsEveryNotesHistoryBesideTheOpenOne() throws {
        try MainActor.assumeIsolated {
            try openTripWithHistory()
            let gone = folder.appendingPathComponent("Gone.md")
            try Data("Gone\nlast words\n".utf8).write(to: gone)
            history.record(of: gone, origin: .closed) { Data("Gone\nlast words\n".utf8) }
            history.waitUntilIdle()
            try FileManager.default.removeItem(at: gone)
            history.noteDeleted(gone, keepHistory: true)
            let versions = try showHistory()
            XCTAssertTrue(versions.allNotes.isVisible)
            versions.allNotes.click()
            XCTAssertTrue(spin(until: { self.openNote.historyWindow?.window.title == "Versions of All Notes" }))
            let all = try XCTUnwrap(openNote.historyWindow)
            XCTAssertEqual(all.shownVersions.count, 3, "Trip's two and the deleted note's one")
            XCTAssertFalse(all.restore.isVisible)
            XCTAssertFalse(all.allNotes.isVisible)
        }
    }

    nonisolated func testEmptyTrashAsksWhetherTheHistoryGoesToo() throws {
        try MainActor.assumeIsolated {
            let cases = [("Kept.md", true), ("Gone.md", false)]
            for (name, _) in cases {
                let url = folder.appendingPathComponent(name)
                try Data("\(name)\nwords\n".utf8).write(to: url)
                history.record(of: url, origin: .closed) { Data("\(name)\nwords\n".utf8) }
            }
            controller.start()
            XCTAssertTrue(spin(until: { self.list.orderedIDs.count == 2 }))
            for (name, keepHistory) in cases {
                // The note the list opened is open (not half-way), so its versions are in before it moves.
                XCTAssertTrue(spin(until: { self.openNote.document != nil && !self.openNote.isOpening }))
                controller.trash.delete(name)
                XCTAssertTrue(spin(until: { self.controller.trash.view.entries.count == 1 }), "\(name) in the Trash")
                controller.trash.empty()
                let dialog = try XCTUnwrap(top.presenter.dialog)
                XCTAssertEqual((0..<3).compactMap { dialog.buttonLabel(for: $0) }, ["Cancel", "Empty Trash and History", "Empty Trash, Keep History"])
                dialog.respond(keepHistory ? 2 : 1)
                XCTAssertTrue(spin(until: { self.controller.trash.view.entries.isEmpty }), "\(name): the Trash emptied")
                history.waitUntilIdle()
            }
            XCTAssertEqual(try history.notes().map(\.title), ["Kept.md"], "only the history the user kept")
            XCTAssertNil(try history.notes().first?.path, "kept without a note")
        }
    }
}

import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// Opening notes in one editor: what a caller asks to run once its note shows (Ctrl+N puts the
/// keyboard focus in the new note's text) runs exactly when that note shows, whoever else asked
/// for the same note meanwhile, and never for a note the user has already left.
final class OpenNoteControllerTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    /// The first listing opens the newest note just as Ctrl+N opens the note it made (the same
    /// one): the second request joins the opening, and what it asked for still runs.
    nonisolated func testASecondRequestForTheNoteBeingOpenedStillRunsItsFollowUp() throws {
        try MainActor.assumeIsolated {
            let folder = try makeNotesFolder(["New.md": ""])
            let url = folder.appendingPathComponent("New.md")
            let editor = makeEditorWindow()
            var followUps: [String] = []
            editor.openNote.open(url)  // the newest note, opened by the first listing
            editor.openNote.open(url) { followUps.append("focus the text") }  // Ctrl+N's
            editor.openNote.open(url) { followUps.append("and again") }
            XCTAssertTrue(spin(until: { followUps.count == 2 }),
                          "what the requests asked for ran once the note showed: \(followUps)")
            XCTAssertEqual(followUps, ["focus the text", "and again"])
            XCTAssertEqual(editor.openNote.document?.fileURL, url)
            XCTAssertFalse(editor.openNote.isOpening)
            editor.openNote.close()
        }
    }

    /// The user went on to another note before the first showed: the first's follow-up never
    /// runs (the focus does not jump to a note no longer shown), the second's does.
    nonisolated func testAFollowUpIsDroppedWhenAnotherNoteIsAskedForFirst() throws {
        try MainActor.assumeIsolated {
            let folder = try makeNotesFolder(["A.md": "A\n", "B.md": "B\n"])
            let editor = makeEditorWindow()
            let a = folder.appendingPathComponent("A.md")
            var followUps: [String] = []
            editor.openNote.open(a) { followUps.append("A") }
            editor.openNote.open(folder.appendingPathComponent("B.md")) { followUps.append("B") }
            XCTAssertTrue(spin(until: { !followUps.isEmpty && !editor.openNote.isOpening }))
            // A's open has ended too (its document let go) before looking at what ran.
            XCTAssertTrue(spin(until: { SharedDocuments.shared.document(for: a) == nil }))
            XCTAssertEqual(followUps, ["B"])
            XCTAssertEqual(editor.editor.text, "B\n")
            editor.openNote.close()
        }
    }
}

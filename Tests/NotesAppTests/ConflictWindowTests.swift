import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// Show Conflicts on real widgets: a conflict copy beside a note turns the list row and the
/// light yellow; the window shows both versions with the differing lines highlighted; each
/// choice leaves the files the user expects.
final class ConflictWindowTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var folder: URL!
    private var history: NoteHistory!
    private var list: NotesListView!
    private var openNote: OpenNoteController!
    private var controller: NotesController!
    private let copyName = "Trip.sync-conflict-20261121-101010-ABCDEF7.md"

    nonisolated override func setUpWithError() throws {
        try MainActor.assumeIsolated {
            try super.setUpWithError()
            folder = makeFolder().appendingPathComponent("Notes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("Trip\npassport\nday 1: museum\n".utf8).write(to: folder.appendingPathComponent("Trip.md"))
            try Data("Trip\npassport\nday 1: zoo\n".utf8).write(to: folder.appendingPathComponent(copyName))
            let shown = makeLibraryWindow(folder: folder)
            (history, list, openNote, controller) = (shown.history, shown.list, shown.openNote, shown.controller)
            var started = false
            controller.start { started = true }
            XCTAssertTrue(spin(until: { started && self.openNote.document != nil }))
        }
    }

    private func file(_ name: String) -> String? { try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }

    private func showConflicts() throws -> ConflictWindow {
        XCTAssertEqual(list.orderedIDs, ["Trip.md"], "the copy is not a note of its own")
        XCTAssertEqual(list.summary("Trip.md")?.conflictCopies, [copyName])
        XCTAssertTrue(spin(until: { self.openNote.status.level == .conflict }), "the light is yellow")
        controller.showConflicts(of: "Trip.md")
        XCTAssertTrue(spin(until: { self.openNote.conflictWindow?.window.isMapped == true }))
        return try XCTUnwrap(openNote.conflictWindow)
    }

    nonisolated func testBothVersionsSideBySideWithDifferencesHighlighted() throws {
        try MainActor.assumeIsolated {
            let conflicts = try showConflicts()
            XCTAssertEqual(conflicts.shownTexts.this, "Trip\npassport\nday 1: museum\n")
            XCTAssertEqual(conflicts.shownTexts.other, "Trip\npassport\nday 1: zoo\n")
            XCTAssertFalse(conflicts.thisLineIsHighlighted(1))
            XCTAssertTrue(conflicts.thisLineIsHighlighted(2))
            XCTAssertTrue(conflicts.otherLineIsHighlighted(2))
            XCTAssertTrue(conflicts.origins.this.hasPrefix("Device ABCDEF7 (Syncthing)"), conflicts.origins.this)
            XCTAssertTrue(conflicts.origins.other.hasPrefix("Another device (Syncthing)"), conflicts.origins.other)
            conflicts.decideLater.click()
            XCTAssertTrue(spin(until: { self.openNote.conflictWindow == nil }))
            XCTAssertEqual(file(copyName), "Trip\npassport\nday 1: zoo\n", "Decide Later changes nothing")
        }
    }

    nonisolated func testKeepBothMakesTheOtherVersionANoteAndRemovesTheCopy() throws {
        try MainActor.assumeIsolated {
            let conflicts = try showConflicts()
            conflicts.keepBoth.click()
            XCTAssertTrue(spin(until: { self.openNote.conflictWindow == nil && self.list.orderedIDs.count == 2 }))
            XCTAssertNil(file(copyName))
            let newID = try XCTUnwrap(list.orderedIDs.first { $0 != "Trip.md" })
            XCTAssertEqual(file(newID), "Trip\npassport\nday 1: zoo\n")
            XCTAssertEqual(file("Trip.md"), "Trip\npassport\nday 1: museum\n")
            XCTAssertTrue(spin(until: { self.list.summary("Trip.md")?.conflictCopies == [] && self.openNote.status.level != .conflict }))
        }
    }

    nonisolated func testKeepOtherPutsItInTheEditorAndSetsThisAside() throws {
        try MainActor.assumeIsolated {
            let conflicts = try showConflicts()
            conflicts.keepOther.click()
            XCTAssertTrue(spin(until: { self.openNote.conflictWindow == nil }))
            XCTAssertEqual(file("Trip.md"), "Trip\npassport\nday 1: zoo\n")
            XCTAssertEqual(openNote.editor.text, "Trip\npassport\nday 1: zoo\n")
            XCTAssertNil(file(copyName))
            history.waitUntilIdle()
            let setAside = try history.versions(of: folder.appendingPathComponent("Trip.md")).filter { $0.origin.isSetAside }
            XCTAssertEqual(try setAside.map { String(decoding: try history.contents(of: $0), as: UTF8.self) }, ["Trip\npassport\nday 1: museum\n"])
        }
    }
}

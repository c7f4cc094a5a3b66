import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// Notes that other programs add, change or delete show up in the list at once.
final class LiveLibraryTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testOtherProgramsChangesAppearInTheList() throws {
        try MainActor.assumeIsolated {
            let folder = makeFolder().appendingPathComponent("Notes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("First\n".utf8).write(to: folder.appendingPathComponent("first.md"))
            let shown = makeLibraryWindow(folder: folder)
            let (list, controller) = (shown.list, shown.controller)
            var started = false
            controller.start { started = true }
            XCTAssertTrue(spin(until: { started }))
            XCTAssertEqual(list.orderedIDs, ["first.md"])

            // A sync client writes a temporary file, then renames it into place.
            let temporary = folder.appendingPathComponent(".syncthing.dropped.md.tmp")
            try Data("Dropped in\nby another program".utf8).write(to: temporary)
            spin(until: { false }, timeout: 0.3)  // give a wrongly listed file time to show
            XCTAssertEqual(list.orderedIDs, ["first.md"], "temporary files are never listed")
            try FileManager.default.moveItem(at: temporary, to: folder.appendingPathComponent("dropped.md"))
            XCTAssertTrue(spin(until: { list.orderedIDs.contains("dropped.md") }, timeout: 3), "listed (the acceptance test holds it to one second)")
            XCTAssertEqual(list.summary("dropped.md")?.title, "Dropped in")

            try Data("Dropped in, edited elsewhere\n".utf8).write(to: folder.appendingPathComponent("dropped.md"))
            XCTAssertTrue(spin(until: { list.summary("dropped.md")?.title == "Dropped in, edited elsewhere" }, timeout: 3))

            try FileManager.default.removeItem(at: folder.appendingPathComponent("dropped.md"))
            XCTAssertTrue(spin(until: { !list.orderedIDs.contains("dropped.md") }, timeout: 3))

            // Syncthing leaves a conflict copy: the note turns "in conflict", the copy is not a row.
            let copy = folder.appendingPathComponent("first.sync-conflict-20261121-143005-ABCDEF7.md")
            try Data("First, the other device's words\n".utf8).write(to: copy)
            XCTAssertTrue(spin(until: { list.summary("first.md")?.conflictCopies == [copy.lastPathComponent] }, timeout: 3))
            XCTAssertEqual(list.orderedIDs, ["first.md"])
            try FileManager.default.removeItem(at: copy)
            XCTAssertTrue(spin(until: { list.summary("first.md")?.conflictCopies == [] }, timeout: 3))

            // A notebook made by another program is listed, then watched: notes written into it appear.
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("Work"), withIntermediateDirectories: true)
            XCTAssertTrue(spin(until: { controller.notebooks.list.notebooks == ["Work"] }, timeout: 3))
            try Data("In a notebook\n".utf8).write(to: folder.appendingPathComponent("Work/later.md"))
            XCTAssertTrue(spin(until: { list.summary("Work/later.md")?.title == "In a notebook" }, timeout: 3))
        }
    }
}

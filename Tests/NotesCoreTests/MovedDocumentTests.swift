import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The open note during a move of every note: another program appends to it meanwhile (its
/// document does not watch then). When the move ends those lines are shown, and the next
/// keystroke's save keeps them — they were overwritten by it before.
final class MovedDocumentTests: DocumentTestCase, @unchecked Sendable {
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testAnotherProgramsLinesWrittenDuringAMoveAreKept() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("Trip.md", "Trip\nday one\n")
            document.edit("Trip\nday one\nday two\n")
            var held = false
            document.beginMove { error in
                XCTAssertNil(error)
                held = true
            }
            // Typing stops at once, not after the save: no key lands between the save and the move.
            XCTAssertTrue(document.state.contains(.editingDisabled))
            XCTAssertTrue(document.state.contains(.progressAvailable))
            waitUntil("the note is saved and held") { held }
            XCTAssertEqual(contents(document.fileURL), "Trip\nday one\nday two\n")
            let moved = folder.url.appendingPathComponent("Synced/Trip.md")
            try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
            XCTAssertEqual(link(document.fileURL.path, moved.path), 0)
            let handle = try FileHandle(forWritingTo: moved)
            handle.seekToEndOfFile()
            handle.write(Data("another program's line\n".utf8))
            try handle.close()
            unlink(document.fileURL.path)
            document.endMove(at: moved)
            XCTAssertFalse(document.state.contains(.editingDisabled))
            waitUntil("the other program's line is shown") { document.text.contains("another program's line") }
            document.edit(document.text + "typed after the move\n")
            XCTAssertTrue(save(document))
            XCTAssertEqual(contents(moved), "Trip\nday one\nday two\nanother program's line\ntyped after the move\n")
        }
    }
}

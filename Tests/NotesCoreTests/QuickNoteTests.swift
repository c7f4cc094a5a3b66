import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Issue #48: `notula --quick-note TEXT` (or `-`) files text given from outside as a new note;
/// what is not text, blank or too large makes no note, and nothing is ever replaced.
final class QuickNoteTests: XCTestCase {
    private func arguments(_ texts: [String], stdin: [UInt8] = []) throws -> String? {
        try QuickNote.text(fromArguments: texts.map { Array($0.utf8) }, standardInput: { limit in Array(stdin.prefix(limit)) })
    }

    func testArgumentsAndStandardInputBecomeOneLineEndedText() throws {
        XCTAssertNil(try arguments([]), "no text: the window is wanted")
        XCTAssertEqual(try arguments(["milk", "and", "eggs"]), "milk and eggs\n")
        XCTAssertEqual(try arguments(["-"], stdin: Array("Ideas\n- a shed\n".utf8)), "Ideas\n- a shed\n")
        XCTAssertEqual(try arguments(["Café ☕"]), "Café ☕\n")
    }

    func testWhatIsNotTextIsRefused() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        XCTAssertThrowsError(try QuickNote.text(fromArguments: [[0x2D]], standardInput: { _ in png })) {
            XCTAssertEqual($0 as? QuickNote.Refusal, .notText)
        }
        XCTAssertThrowsError(try QuickNote.text(from: Array("caf".utf8) + [0xE9])) { XCTAssertEqual($0 as? QuickNote.Refusal, .notText) }
        XCTAssertThrowsError(try arguments(["  ", "\n"])) { XCTAssertEqual($0 as? QuickNote.Refusal, .blank) }
        let huge = [UInt8](repeating: 0x61, count: LargeNote.maximumBytes + 10)
        XCTAssertThrowsError(try QuickNote.text(fromArguments: [[0x2D]], standardInput: { Array(huge.prefix($0)) })) {
            guard case .tooLarge = $0 as? QuickNote.Refusal else { return XCTFail("\($0)") }
        }
    }

    func testFilingMakesANewNoteAtTheTopAndNeverReplacesOne() throws {
        let folder = TemporaryFolder()
        let library = NoteLibrary(folder: folder.url)
        let existing = try folder.write("mine.md", "Mine\n")
        let first = try QuickNote.file("milk\n", in: library, createIfMissing: false)
        let second = try QuickNote.file("milk\n", in: library, createIfMissing: false)
        XCTAssertNotEqual(first.url, second.url, "the same text twice: two notes")
        XCTAssertEqual(first.url.deletingLastPathComponent().standardizedFileURL, folder.url.standardizedFileURL)
        XCTAssertEqual(try String(contentsOf: first.url, encoding: .utf8), "milk\n")
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "Mine\n")
        XCTAssertEqual(folder.names.count, 3)
        XCTAssertThrowsError(try QuickNote.file(" \n", in: library, createIfMissing: false))
        XCTAssertEqual(folder.names.count, 3, "blank text: no note")
    }

    func testASyncedLibraryThatIsGoneIsNotMadeAgain() throws {
        let folder = TemporaryFolder()
        let gone = NoteLibrary(folder: folder.url.appendingPathComponent("Sync/Notes"))
        XCTAssertThrowsError(try QuickNote.file("milk\n", in: gone, createIfMissing: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Sync").path))
        XCTAssertNoThrow(try QuickNote.file("milk\n", in: NoteLibrary(folder: folder.url.appendingPathComponent("Local")), createIfMissing: true))
    }
}

import XCTest
@testable import NotesCore

final class NoteTextTests: XCTestCase {
    func testTitleIsFirstNonBlankLine() {
        XCTAssertEqual(NoteText.title(of: "Hello\nworld"), "Hello")
        XCTAssertEqual(NoteText.title(of: "\n\n   Spaced  \nrest"), "Spaced")
        XCTAssertEqual(NoteText.title(of: "# Heading\nbody"), "Heading")
        XCTAssertEqual(NoteText.title(of: "#hashtag first"), "#hashtag first")
    }

    func testEmptyNoteIsNewNote() {
        XCTAssertEqual(NoteText.title(of: ""), "New Note")
        XCTAssertEqual(NoteText.title(of: "  \n\t\n"), "New Note")
    }

    func testPreviewIsNextNonBlankLine() {
        XCTAssertEqual(NoteText.preview(of: "Title\n\n  second  \nthird"), "second")
        XCTAssertEqual(NoteText.preview(of: "Only a title"), "")
    }

    func testLongLinesAreShortened() {
        let long = String(repeating: "word ", count: 200)
        XCTAssertEqual(NoteText.title(of: long).count, 200)
        XCTAssertEqual(NoteText.preview(of: "t\n" + long).count, 100)
    }
}

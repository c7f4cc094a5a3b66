import Foundation
@testable import Gtk
import TestSupport
import XCTest

/// The text buffer takes note text by length, never up to a NUL (issue #11), and says when it
/// does not hold a text exactly.
final class TextBufferTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testTextWithLineBreaksOfEveryKindRoundTrips() {
        MainActor.assumeIsolated {
            let buffer = TextBuffer()
            let text = "Title\r\nCRLF\nLF\u{2028}sep\u{FEFF}bom 😀 é\n"
            buffer.load(text)
            XCTAssertTrue(buffer.holdsExactly(text))
            XCTAssertEqual(buffer.characterCount, text.unicodeScalars.count)
        }
    }

    nonisolated func testTextTheBufferCannotHoldIsNeverTakenForTheNote() {
        MainActor.assumeIsolated {
            let buffer = TextBuffer()
            let text = "T\nbefore\u{0}after\nlast\n"
            buffer.load(text)  // GTK refuses it (a critical warning), rather than keeping "T\nbefore"
            XCTAssertFalse(buffer.holdsExactly(text))
            XCTAssertFalse(buffer.text.contains("after") && buffer.text.count == text.count)
        }
    }

    nonisolated func testReplacingLinesPassesLengths() {
        MainActor.assumeIsolated {
            let buffer = TextBuffer()
            buffer.load("one\ntwo\nthree\n")
            buffer.replaceLines([(lines: 1..<2, text: "TWO 😀\n")])
            XCTAssertEqual(buffer.text, "one\nTWO 😀\nthree\n")
        }
    }

    nonisolated func testAWholeLineTagStopsBeforeTheLineBreakButOnAnEmptyLine() {
        MainActor.assumeIsolated {
            let buffer = TextBuffer()
            buffer.load("Title\r\n\r\nbody\n\nlast")
            XCTAssertEqual(buffer.lineTagRange(0), 0..<5, "not over \\r\\n")
            XCTAssertEqual(buffer.lineTagRange(1), 7..<9, "an empty line: its break")
            XCTAssertEqual(buffer.lineTagRange(2), 9..<13)
            XCTAssertEqual(buffer.lineTagRange(3), 14..<15)
            XCTAssertEqual(buffer.lineTagRange(4), 15..<19, "the last line has no break")
            buffer.defineTag("line", style: TextTagStyle(lineBackground: "yellow"))
            buffer.applyTag("line", toLines: 0..<5)
            XCTAssertEqual(buffer.ranges(ofTag: "line", in: 0..<buffer.characterCount), [0..<5, 7..<13, 14..<19],
                           "every line tagged, no break of a line with text")
        }
    }
}

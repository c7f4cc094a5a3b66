import Foundation
import XCTest
@testable import NotesCore

/// Add Tag… and Remove Tag… as edits of a note's text (issue #47).
final class TagEditTests: XCTestCase {
    private func adding(_ tag: String, _ text: String) -> String? {
        TagEdit.adding(tag, to: Data(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    private func removing(_ tag: String, _ text: String) -> String? {
        TagEdit.removing(tag, from: Data(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    func testNames() {
        XCTAssertEqual(TagEdit.name(from: " #Trip "), "Trip")
        XCTAssertEqual(TagEdit.name(from: "work/meetings"), "work/meetings")
        XCTAssertNil(TagEdit.name(from: "#12"))
        XCTAssertNil(TagEdit.name(from: "two words"))
        XCTAssertNil(TagEdit.name(from: ""))
    }

    func testAddingGoesAtTheEnd() {
        XCTAssertEqual(adding("trip", ""), "#trip")
        XCTAssertEqual(adding("trip", "Title"), "Title\n#trip")
        XCTAssertEqual(adding("trip", "Title\n\nbody\n"), "Title\n\nbody\n#trip\n")
        XCTAssertEqual(adding("trip", "Title\n#a #b\n"), "Title\n#a #b #trip\n")
        XCTAssertNil(adding("Trip", "Title\nwe go on a #trip today\n"), "has it already")
        XCTAssertEqual(adding("trip", "Title\n```\n#trip\n```\n"), "Title\n```\n#trip\n```\n#trip\n", "code holds no tag")
        XCTAssertEqual(TagEdit.adding("x", to: Data([0xEF, 0xBB, 0xBF] + Array("A\r\nb\r\n".utf8))), Data([0xEF, 0xBB, 0xBF] + Array("A\r\nb\r\n#x\r\n".utf8)))
        XCTAssertNil(TagEdit.adding("x", to: Data([0x41, 0xFF])), "not UTF-8: never changed")
    }

    func testRemovingTakesOnlyThatTagOutOfProse() {
        XCTAssertEqual(removing("trip", "T\nwe go on a #trip today\n"), "T\nwe go on a today\n")
        XCTAssertEqual(removing("trip", "T\n#trip\n"), "T\n")
        XCTAssertEqual(removing("trip", "T\n#a #trip #b\n"), "T\n#a #b\n")
        XCTAssertEqual(removing("trip", "T\nend #trip\n"), "T\nend\n")
        XCTAssertNil(removing("trip", "T\n#trip/2026 and #tripping\n"), "other tags stay")
        XCTAssertNil(removing("trip", "T\n```\n#trip\n```\n"))
        XCTAssertEqual(removing("TRÍP", "T\n#trip\n"), "T\n", "any case or accents")
    }
}

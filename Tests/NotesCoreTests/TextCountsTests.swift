import Foundation
import XCTest
@testable import NotesCore

/// Words and characters as a writer counts them (issue #48).
final class TextCountsTests: XCTestCase {
    func testWordsAreRunsOfLettersAndDigitsWithTheirApostrophesAndHyphens() {
        XCTAssertEqual(TextCounts(counting: "").words, 0)
        XCTAssertEqual(TextCounts(counting: "Shopping\n- [ ] milk\n- [x] eggs 12\n").words, 4)
        XCTAssertEqual(TextCounts(counting: "Don't e-mail the l’hôtel -- ok - no").words, 6)
        XCTAssertEqual(TextCounts(counting: "# Title\n\n**bold** _it_ `code`").words, 4)
        XCTAssertEqual(TextCounts(counting: "trailing' apostrophe- ").words, 2)
        XCTAssertEqual(TextCounts(counting: "Über Straße 3,5 km").words, 5)
    }

    func testCharactersAreWhatAReaderSeesWithoutLineBreaks() {
        XCTAssertEqual(TextCounts(counting: "ab\ncd\r\nef").characters, 6)
        XCTAssertEqual(TextCounts(counting: "e\u{301}t\u{E9}").characters, 3, "a combining accent is part of its letter")
        XCTAssertEqual(TextCounts(counting: "👩‍👩‍👧 hi").characters, 4, "a family emoji is one")
        XCTAssertEqual(TextCounts(counting: "a b").characters, 3, "spaces count")
    }

    func testASubstringCountsAsItsText() {
        let text = "One two three"
        let range = text.range(of: "two three")!
        XCTAssertEqual(TextCounts(counting: text[range]), TextCounts(words: 2, characters: 9))
    }

    func testCountsAreWrittenAsTheUsersLanguageWritesNumbers() {
        XCTAssertEqual(Localization.number(12345, locale: Locale(identifier: "en_US")), "12,345")
        XCTAssertEqual(Localization.number(12345, locale: Locale(identifier: "de_DE")), "12.345")
        XCTAssertEqual(Localization.number(7, locale: Locale(identifier: "de_DE")), "7")
    }
}

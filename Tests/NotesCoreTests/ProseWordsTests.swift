import NotesCore
import XCTest

/// Which parts of Markdown spelling looks at: prose only.
final class ProseWordsTests: XCTestCase {
    /// The words checked in each line of `text`, as strings.
    private func words(_ text: String, skipAllCaps: Bool = true) -> [[String]] {
        let lines = text.components(separatedBy: "\n")
        var state = MarkdownBlockState.outside
        return lines.enumerated().map { index, line in
            let ranges = ProseWords.ranges(in: line, index: index, entering: state,
                                           previous: index > 0 ? lines[index - 1] : nil,
                                           next: index + 1 < lines.count ? lines[index + 1] : nil, skipAllCaps: skipAllCaps)
            state = MarkdownLineStyler.exitState(of: line, entering: state)
            let scalars = Array(line.unicodeScalars)
            return ranges.map { String(String.UnicodeScalarView(scalars[$0])) }
        }
    }

    func testProseWordsAreCheckedAndSyntaxIsNot() {
        XCTAssertEqual(words("# Shopping list\n- [ ] buy **fresh** _bread_\n> quoted words"),
                       [["Shopping", "list"], ["buy", "fresh", "bread"], ["quoted", "words"]])
    }

    func testCodeSpansAndFencedCodeAreSkipped() {
        XCTAssertEqual(words("Title\nrun `grpe -r foo` now\n```swift\nlet mispeled = 1\n```\nafter"),
                       [["Title"], ["run", "now"], [], [], [], ["after"]])
        XCTAssertEqual(words("Title\n~~~\nnot prose\n~~~"), [["Title"], [], [], []])
    }

    func testAddressesLinkTargetsAndFileNamesAreSkipped() {
        XCTAssertEqual(words("Title\nsee [the plann](https://exmple.org/pathh) and <https://x.org/abc>"),
                       [["Title"], ["see", "the", "plann", "and"]])
        XCTAssertEqual(words("Title\nvisit https://exmple.org/wrng or www.exmple.org today"), [["Title"], ["visit", "or", "today"]])
        XCTAssertEqual(words("Title\nmail jane.doe@exmple.org about notes.md and src/mian.swift"), [["Title"], ["mail", "about", "and"]])
        XCTAssertEqual(words("Title\n![a sunsett](attachments/sunsett.png)"), [["Title"], ["sunsett"]])
        XCTAssertEqual(words("Title\nsee [[Shoping lst]] and [[Plan|the plann]]"), [["Title"], ["see", "and", "the", "plann"]])
        XCTAssertEqual(words("Title\n<span class=\"hilite\">text</span> #projct #work/meetngs"), [["Title"], ["text"]])
    }

    func testDigitsUnderscoresAcronymsAndSingleLettersAreSkipped() {
        XCTAssertEqual(words("Title\nthe 2nd abc123 snake_case NASA GTK4 a I ok"), [["Title"], ["the", "ok"]])
        XCTAssertEqual(words("Title\nNASA rocks", skipAllCaps: false), [["Title"], ["NASA", "rocks"]])
    }

    func testApostrophesAndHyphensJoinWordsAndUnicodeWordsAreWhole() {
        XCTAssertEqual(words("Title\ndon't don’t Mutter-Kind 'quoted' well-"), [["Title"], ["don't", "don’t", "Mutter-Kind", "quoted", "well"]])
        XCTAssertEqual(words("Title\nStraße café naïve Ærø"), [["Title"], ["Straße", "café", "naïve", "Ærø"]])
        // Decomposed accents stay inside their word.
        XCTAssertEqual(words("Title\ncafe\u{301} ok"), [["Title"], ["cafe\u{301}", "ok"]])
    }

    func testScriptsWithoutSpacesAreSkipped() {
        XCTAssertEqual(words("Title\n日本語のテキスト and ภาษาไทย text"), [["Title"], ["and", "text"]])
    }

    /// ASCII is answered without Unicode's tables: the answers must be the tables' own.
    func testASCIIAnswersAreUnicodesAnswers() {
        for value in UInt32(0)..<0x80 {
            let char = Unicode.Scalar(value)!
            let properties = char.properties
            let unicode = properties.isAlphabetic || properties.numericType != nil
                || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            XCTAssertEqual(ProseWords.isWordCharacter(char), unicode, "U+\(String(value, radix: 16))")
            // White space (and only it) separates two words; any other character keeps "ab"
            // and "cd" apart too, or joins them, but never as two words with a space's ranges.
            let line = "ab" + String(char) + "cd"
            let ranges = ProseWords.ranges(in: line, index: 1, entering: .outside, previous: "t", next: nil)
            if properties.isWhitespace {
                XCTAssertEqual(ranges, [0..<2, 3..<5], "U+\(String(value, radix: 16))")
            }
        }
        // Tabs, form feeds and vertical tabs are spaces; a control character that is not
        // white space sits inside its token (a word glued to nothing checkable).
        XCTAssertEqual(words("Title\nsome\u{0B}words\u{0C}here"), [["Title"], ["some", "words", "here"]])
        XCTAssertEqual(words("Title\nLOUD words Mixed"), [["Title"], ["words", "Mixed"]])
        XCTAssertEqual(words("Title\nsee WWW.Exmple.org, MailTo:jane or HTTPS://x.org/y now"), [["Title"], ["see", "or", "now"]])
    }

    func testRangesAreInCharactersOfTheLine() {
        let line = "héllo wörld"
        let ranges = ProseWords.ranges(in: line, index: 1, entering: .outside, previous: "t", next: nil)
        XCTAssertEqual(ranges, [0..<5, 6..<11])
    }
}

import NotesCore
import XCTest

/// Issue #48: a note's outline is its headings as the editor draws them, and a link's
/// `#fragment` names one of them.
final class NoteOutlineTests: XCTestCase {
    private func outline(_ text: String) -> [String] {
        NoteOutline(text: text).headings.map { "\($0.level) \($0.title) @\($0.line)" }
    }

    func testATXAndSetextHeadingsOutsideCodeWithTheirLevelsAndLines() {
        let text = """
            Trip
            # First ##
            text
            ## Second part
            ```
            # not a heading
            ```
            Third
            -----
            - item
            ---
              ### Fourth
                #### indented code, not a heading
            #no space is no heading
            ####### seven is none
            """
        XCTAssertEqual(outline(text), ["1 First @1", "2 Second part @3", "2 Third @7", "3 Fourth @11"])
    }

    func testLinesAreCountedAsGTKCountsThem() {
        XCTAssertEqual(outline("Title\r\n# A\r\n\r\n## B\r# C\u{2029}# D"), ["1 A @1", "2 B @3", "1 C @4", "1 D @5"])
        XCTAssertEqual(outline("Title\n~~~\n# x"), [], "an unclosed fence runs to the end")
        XCTAssertEqual(outline(""), [])
    }

    func testTheHeadingAtALineIsTheLastOneAboveIt() {
        let outline = NoteOutline(text: "Title\n# A\ntext\n## B\ntext\ntext")
        XCTAssertNil(outline.heading(atLine: 0))
        XCTAssertEqual(outline.heading(atLine: 1)?.title, "A")
        XCTAssertEqual(outline.heading(atLine: 2)?.title, "A")
        XCTAssertEqual(outline.heading(atLine: 5)?.title, "B")
    }

    func testAWikiLinkSaysWhichHeadingItLeadsTo() {
        let links = WikiLink.links(inLine: "see [[Trip plan#Day two]], [[Trip plan | shown]], [[Trip#  ]] and [[Notes # Third |the end]]")
        XCTAssertEqual(links.map(\.title), ["Trip plan", "Trip plan", "Trip", "Notes"])
        XCTAssertEqual(links.map(\.heading), ["Day two", nil, nil, "Third"])
    }

    func testAFragmentNamesAHeadingByItsWordsOrItsAnchor() {
        let outline = NoteOutline(text: "Note\n# Première partie\n## Third: the end\n## Third: the end")
        XCTAssertEqual(outline.heading(named: "première partie")?.line, 1)
        XCTAssertEqual(outline.heading(named: "PREMIERE  Partie")?.line, 1, "case, accents and spaces as titles fold")
        XCTAssertEqual(outline.heading(named: "Premi%C3%A8re%20partie")?.line, 1, "percent-encoded, as in a Markdown link")
        XCTAssertEqual(outline.heading(named: "third-the-end")?.line, 2, "GitHub's anchor; the first of two")
        XCTAssertNil(outline.heading(named: "Fourth"))
        XCTAssertNil(outline.heading(named: ""))
        XCTAssertNil(outline.heading(named: "%"))
    }
}

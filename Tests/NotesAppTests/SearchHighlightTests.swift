import XCTest
@testable import NotesApp

/// Highlights match as search does: in the folded text, case and accents ignored.
final class SearchHighlightTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private nonisolated let open = "<span background=\"#f8e45c\" foreground=\"#241f31\">"

    nonisolated func testEveryOccurrenceOfEveryWordIsMarkedIgnoringCaseAndAccents() {
        MainActor.assumeIsolated {
            XCTAssertEqual(SearchHighlight.markup("Café au lait, CAFE noir", query: "cafe LAIT"),
                           "\(open)Café</span> au \(open)lait</span>, \(open)CAFE</span> noir")
            XCTAssertEqual(SearchHighlight.markup("Ξένος ξενος", query: "ξενος"), "\(open)Ξένος</span> \(open)ξενος</span>")
        }
    }

    nonisolated func testTextIsEscapedInsideAndOutsideMarks() {
        MainActor.assumeIsolated {
            XCTAssertEqual(SearchHighlight.markup("a <b> & \"c\"", query: "<b"), "a \(open)&lt;b</span>&gt; &amp; &quot;c&quot;")
            XCTAssertEqual(SearchHighlight.markup("1 < 2", query: "zzz"), "1 &lt; 2", "no match: only escaped")
            XCTAssertEqual(SearchHighlight.markup("1 < 2", query: "  "), "1 &lt; 2", "no words")
        }
    }

    nonisolated func testOverlappingWordsMakeOneMarkAndAnAccentMarkGoesWithItsLetter() {
        MainActor.assumeIsolated {
            XCTAssertEqual(SearchHighlight.markup("notebook", query: "note ebo"), "\(open)notebo</span>ok")
            let decomposed = "cafe\u{301}s"
            XCTAssertEqual(SearchHighlight.markup(decomposed, query: "cafe"), "\(open)cafe\u{301}</span>s")
        }
    }

    nonisolated func testContainsNeedsEveryWord() {
        MainActor.assumeIsolated {
            XCTAssertTrue(SearchHighlight.contains("Crème brûlée", "creme BRULEE"))
            XCTAssertFalse(SearchHighlight.contains("Crème brûlée", "creme tart"))
            XCTAssertTrue(SearchHighlight.contains("anything", ""))
        }
    }
}

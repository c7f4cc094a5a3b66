import XCTest
@testable import NotesCore

/// `[[links]]`, relative note links and `#tags` as the index reads them: only from prose.
final class NoteReferencesTests: XCTestCase {
    private func titles(_ text: String, in note: String = "a.md") -> [String] {
        NoteReferences(text: text, noteID: note).links.map(\.target)
    }

    private func tags(_ text: String) -> [String] {
        NoteReferences(text: text, noteID: "a.md").tags.map(\.written)
    }

    func testNoteLinksInTheirForms() {
        XCTAssertEqual(titles("See [[Shopping]] and [[Work plan|the plan]], [[Trip#Day 2]]."),
                       ["t:shopping", "t:work plan", "t:trip"])
        XCTAssertEqual(titles("[[ Café  Paris ]]"), ["t:cafe paris"], "folded, blanks trimmed and made one")
        XCTAssertEqual(titles("[[Ünïcödé 日本]]"), ["t:unicode 日本"])
        XCTAssertEqual(titles("[[]] [[ ]] [[|x]] [[#h]] [[a[b]] [[open"), [], "no title, or not closed")
    }

    func testNothingInCodeEscapesOrAddresses() {
        let text = """
            `[[Code span]]` \\[[Escaped]] <https://x.org/[[y]]> https://x.org/#anchor
            ```
            [[In fence]] #fenced
            ```
            ~~~ md
            [[Tilde fence]]
            ~~~
            [[After]] #after
            """
        XCTAssertEqual(titles(text), ["t:after"])
        XCTAssertEqual(tags(text), ["after"])
    }

    func testCRLFLinesAndLineNumbers() {
        let references = NoteReferences(text: "Title\r\nsee [[One]]\r\n\r\n  and [[Two]] here  \r\n", noteID: "a.md")
        XCTAssertEqual(references.links.map(\.line), [1, 3])
        XCTAssertEqual(references.links.map(\.context), ["see [[One]]", "and [[Two]] here"])
    }

    func testRelativeMarkdownLinksToNotes() {
        let text = "[plan](Plan.md) [up](../Home%20page.md) [web](https://x.org/a.md) [pic](attachments/p.png) [out](../../x.md) [self](#top)"
        XCTAssertEqual(titles(text, in: "Work/a.md"), ["p:Work/Plan.md", "p:Home page.md"])
    }

    func testTags() {
        XCTAssertEqual(tags("#work and #work/meetings, (#idea) #Café #日本"), ["work", "work/meetings", "idea", "Café", "日本"])
        XCTAssertEqual(tags("# Heading\n## Sub #inheading\na#b &#123; #1 #2024 issue#5 #-x #/x"), ["inheading"],
                       "a heading's #, #s inside words, numbers alone are not tags")
        XCTAssertEqual(tags("#Work then #work"), ["Work"], "once, as first written")
        XCTAssertEqual(tags("#trailing/ #dash-"), ["trailing", "dash"])
        XCTAssertEqual(NoteReferences(text: "#Work/Meetings", noteID: "a.md").tags.map(\.key), ["work/meetings"])
        XCTAssertEqual(TagMention.lineage(of: "a/b/c"), ["a", "a/b", "a/b/c"])
    }

    func testTheEditorStylesLinksAndTags() {
        let spans = MarkdownLineStyler.style("x [[Target|shown]] #tag", index: 1, entering: .outside, previous: nil, next: nil).spans
        XCTAssertTrue(spans.contains(MarkdownSpan(11..<16, .noteLink)), "\(spans)")
        XCTAssertTrue(spans.contains(MarkdownSpan(19..<23, .tag)), "\(spans)")
        XCTAssertTrue(spans.contains(MarkdownSpan(2..<4, .syntax)))
    }
}

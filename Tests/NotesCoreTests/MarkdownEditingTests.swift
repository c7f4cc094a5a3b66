import NotesCore
import XCTest

/// The Markdown keys' edits, applied to text as the editor applies them.
final class MarkdownEditingTests: XCTestCase {
    private func apply(_ edit: MarkdownEdit?, to text: String) -> (String, String) {
        guard let edit else { return (text, "") }
        var chars = Array(text.unicodeScalars)
        chars.replaceSubrange(edit.range, with: Array(edit.replacement.unicodeScalars))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: chars)
        let result = String(view)
        var selected = String.UnicodeScalarView()
        selected.append(contentsOf: chars[edit.selection])
        return (result, String(selected))
    }

    func testBoldWrapsAndUnwrapsTheSelection() {
        let text = "make this bold"
        let wrapped = apply(MarkdownEditing.toggleWrap(MarkdownEditing.boldMarkers, in: text, selection: 10..<14), to: text)
        XCTAssertEqual(wrapped.0, "make this **bold**")
        XCTAssertEqual(wrapped.1, "bold")
        let unwrapped = apply(MarkdownEditing.toggleWrap(MarkdownEditing.boldMarkers, in: wrapped.0, selection: 12..<16), to: wrapped.0)
        XCTAssertEqual(unwrapped.0, text)
        XCTAssertEqual(apply(MarkdownEditing.toggleWrap(MarkdownEditing.boldMarkers, in: wrapped.0, selection: 10..<18), to: wrapped.0).0, text,
                       "a selection that includes the markers unwraps too")
    }

    func testItalicAtTheCursorTakesTheWord() {
        let text = "a naïve word"
        let result = apply(MarkdownEditing.toggleWrap(MarkdownEditing.italicMarkers, in: text, selection: 4..<4), to: text)
        XCTAssertEqual(result.0, "a _naïve_ word")
        XCTAssertEqual(apply(MarkdownEditing.toggleWrap(MarkdownEditing.italicMarkers, in: result.0, selection: 5..<5), to: result.0).0, text)
        XCTAssertEqual(apply(MarkdownEditing.toggleWrap(MarkdownEditing.italicMarkers, in: "a *b* c", selection: 3..<3), to: "a *b* c").0, "a b c")
        XCTAssertEqual(apply(MarkdownEditing.toggleWrap(MarkdownEditing.italicMarkers, in: "**b**", selection: 2..<3), to: "**b**").0, "**_b_**",
                       "bold is not italic")
        let empty = MarkdownEditing.toggleWrap(MarkdownEditing.boldMarkers, in: "x  y", selection: 2..<2)
        XCTAssertEqual(apply(empty, to: "x  y").0, "x ****  y".replacingOccurrences(of: "  y", with: " y"))
        XCTAssertEqual(empty.selection, 4..<4, "the cursor goes between the markers")
    }

    func testLinks() {
        let made = apply(MarkdownEditing.toggleLink(in: "see docs here", selection: 4..<8), to: "see docs here")
        XCTAssertEqual(made.0, "see [docs](https://) here")
        XCTAssertEqual(made.1, "https://", "the address is selected to type over")
        let address = apply(MarkdownEditing.toggleLink(in: "https://a.org", selection: 0..<13), to: "https://a.org")
        XCTAssertEqual(address.0, "[](https://a.org)")
        XCTAssertEqual(apply(MarkdownEditing.toggleLink(in: made.0, selection: 6..<6), to: made.0).0, "see docs here")
    }

    func testEnterContinuesAndEndsLists() {
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- milk", at: 6), to: "- milk").0, "- milk\n- ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "  9. nine", at: 9), to: "  9. nine").0, "  9. nine\n  10. ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "3) x", at: 4), to: "3) x").0, "3) x\n4) ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- [x] done", at: 10), to: "- [x] done").0, "- [x] done\n- [ ] ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "> quote", at: 7), to: "> quote").0, "> quote\n> ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "> - a", at: 5), to: "> - a").0, "> - a\n> - ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- ", at: 2), to: "- ").0, "", "an empty item ends the list")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- [ ] ", at: 6), to: "- [ ] ").0, "")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "> ", at: 2), to: "> ").0, "")
        XCTAssertNil(MarkdownEditing.newline(in: "plain text", at: 10))
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- milk eggs", at: 7), to: "- milk eggs").0, "- milk \n- eggs",
                       "Enter inside an item splits it")
    }

    func testAThematicBreakIsNotAListItemToContinue() {
        // CommonMark 4.1: a line that is a thematic break is one, even where a list item could start.
        for rule in ["* * *", "- - -", "***", "---", "___", "_ _ _", "*  *  *", "- - - -", "   * * *", "* * *  ", "*\t*\t*", "      - - -"] {
            XCTAssertNil(MarkdownListItem(rule), rule.debugDescription)
            XCTAssertNil(MarkdownEditing.newline(in: rule, at: rule.unicodeScalars.count), "Enter after \(rule.debugDescription) continues nothing")
            XCTAssertNil(MarkdownEditing.indent(rule), rule.debugDescription)
            XCTAssertNil(MarkdownEditing.taskToggle(rule), rule.debugDescription)
        }
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "> * * *", at: 7), to: "> * * *").0, "> * * *\n> ", "a rule in a quote: the quote goes on")
        // Lists still continue: an item whose text is a rule, fewer than three markers, other markers.
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- * * *", at: 7), to: "- * * *").0, "- * * *\n- ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "* * x", at: 5), to: "* * x").0, "* * x\n* ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "- -", at: 3), to: "- -").0, "- -\n- ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "* item", at: 6), to: "* item").0, "* item\n* ")
        XCTAssertEqual(apply(MarkdownEditing.newline(in: "+ + +", at: 5), to: "+ + +").0, "+ + +\n+ ", "+ makes no rule")
    }

    func testTabIndentsListItemsOnly() {
        XCTAssertEqual(apply(MarkdownEditing.indent("- a"), to: "- a").0, "  - a")
        XCTAssertEqual(apply(MarkdownEditing.indent("10. a"), to: "10. a").0, "    10. a")
        XCTAssertEqual(apply(MarkdownEditing.outdent("    - a"), to: "    - a").0, "  - a")
        XCTAssertEqual(apply(MarkdownEditing.outdent("\t- a"), to: "\t- a").0, "- a")
        XCTAssertNil(MarkdownEditing.outdent("- a"))
        XCTAssertNil(MarkdownEditing.indent("plain"))
    }

    func testTaskToggleChangesOneCharacter() {
        XCTAssertEqual(MarkdownEditing.taskToggle("  - [ ] milk")?.column, 5)
        XCTAssertEqual(MarkdownEditing.taskToggle("  - [ ] milk")?.character, "x")
        XCTAssertEqual(MarkdownEditing.taskToggle("1. [X] done")?.character, " ")
        XCTAssertNil(MarkdownEditing.taskToggle("- plain"))
    }
}

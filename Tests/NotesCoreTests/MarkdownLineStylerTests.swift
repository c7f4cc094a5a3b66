import NotesCore
import XCTest

/// The Markdown styling the editor draws, line by line, checked at the exact ranges.
final class MarkdownLineStylerTests: XCTestCase {
    private func spans(_ line: String, index: Int = 1, state: MarkdownBlockState = .outside,
                       previous: String? = nil, next: String? = nil) -> [MarkdownSpan] {
        MarkdownLineStyler.style(line, index: index, entering: state, previous: previous, next: next).spans
    }

    private func text(_ line: String, _ style: MarkdownStyle, _ all: [MarkdownSpan]) -> [String] {
        let chars = Array(line.unicodeScalars)
        return all.filter { $0.style == style }.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { span in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: chars[span.range])
            return String(view)
        }
    }

    func testHeadingsByLevelWithDimmedHashes() {
        for level in 1...6 {
            let line = String(repeating: "#", count: level) + " Heading"
            let result = spans(line)
            XCTAssertEqual(text(line, .heading(level), result), [line])
            XCTAssertEqual(text(line, .syntax, result), [String(repeating: "#", count: level) + " "])
        }
        XCTAssertEqual(spans("#hashtag"), [MarkdownSpan(0..<8, .tag)], "no space after # is not a heading: a tag")
        XCTAssertEqual(text("## Closed ##", .syntax, spans("## Closed ##")), ["## ", "##"])
    }

    func testSetextHeadings() {
        XCTAssertEqual(text("Title", .heading1, spans("Title", next: "=====")), ["Title"])
        XCTAssertEqual(text("---", .heading2, spans("---", previous: "Title")), ["---"])
        XCTAssertEqual(text("---", .rule, spans("---", previous: "")), ["---"])
    }

    func testFirstLineIsTheTitle() {
        XCTAssertEqual(text("Groceries", .title, spans("Groceries", index: 0)), ["Groceries"])
        XCTAssertTrue(text("Groceries", .title, spans("Groceries", index: 1)).isEmpty)
    }

    func testEmphasisStrikethroughAndCode() {
        let line = "a **bold** and _it_ and *also* ~~gone~~ `co*de*` ***both***"
        let result = spans(line)
        XCTAssertEqual(text(line, .bold, result), ["bold", "both"])
        XCTAssertEqual(text(line, .italic, result), ["it", "also", "**both**"], "*** is italic around bold, as in CommonMark")
        XCTAssertEqual(text(line, .strikethrough, result), ["gone"])
        XCTAssertEqual(text(line, .code, result), ["co*de*"])
        XCTAssertEqual(text("snake_case_name", .italic, spans("snake_case_name")), [], "intraword _ is not emphasis")
        XCTAssertEqual(text("2 * 3 * 4", .italic, spans("2 * 3 * 4")), [])
        XCTAssertEqual(text(#"\*not\*"#, .italic, spans(#"\*not\*"#)), [])
    }

    func testFencedCodeBlocksCarryTheirState() {
        let open = MarkdownLineStyler.style("```swift", index: 3, entering: .outside, previous: nil, next: nil)
        XCTAssertTrue(open.exit.isInCodeBlock)
        let inside = MarkdownLineStyler.style("let **x** = 1", index: 4, entering: open.exit, previous: nil, next: nil)
        XCTAssertEqual(inside.spans.map(\.style), [.codeBlock], "no Markdown inside code")
        XCTAssertTrue(inside.exit.isInCodeBlock)
        XCTAssertTrue(MarkdownLineStyler.style("``", index: 5, entering: open.exit, previous: nil, next: nil).exit.isInCodeBlock)
        XCTAssertTrue(MarkdownLineStyler.style("~~~", index: 5, entering: open.exit, previous: nil, next: nil).exit.isInCodeBlock,
                      "a tilde fence does not close a backtick one")
        let close = MarkdownLineStyler.style("````", index: 5, entering: open.exit, previous: nil, next: nil)
        XCTAssertFalse(close.exit.isInCodeBlock)
        XCTAssertEqual(close.spans.map(\.style), [.codeBlock, .syntax])
    }

    func testQuotesListsTasksAndRules() {
        let quote = "> > quoted **text**"
        XCTAssertEqual(text(quote, .quote, spans(quote)), [quote])
        XCTAssertEqual(text(quote, .syntax, spans(quote)).prefix(2), [">", ">"])
        XCTAssertEqual(text(quote, .bold, spans(quote)), ["text"])
        XCTAssertEqual(text("  - item", .listMarker, spans("  - item")), ["-"])
        XCTAssertEqual(text("12. item", .listMarker, spans("12. item")), ["12."])
        XCTAssertEqual(text("- [ ] buy milk", .taskOpen, spans("- [ ] buy milk")), ["[ ]"])
        XCTAssertEqual(text("* [x] done", .taskDone, spans("* [x] done")), ["[x]"])
        XCTAssertEqual(text("- [y] no", .taskOpen, spans("- [y] no")), [])
        XCTAssertEqual(text("* * *", .rule, spans("* * *")), ["* * *"])
        XCTAssertEqual(text("* * *", .listMarker, spans("* * *")), [], "a rule is no list item")
        XCTAssertEqual(text("    - - -", .listMarker, spans("    - - -")), [], "nor an indented one (a rule inside a list)")
        XCTAssertEqual(text("- * * *", .listMarker, spans("- * * *")), ["-"], "an item whose text is a rule")
        XCTAssertEqual(text("-item", .listMarker, spans("-item")), [], "a marker needs a space")
    }

    func testLinks() {
        let line = "see [the docs](https://example.org/a_b) or <mailto:me@example.org> or https://x.org/path."
        let result = spans(line)
        XCTAssertEqual(text(line, .link, result), ["the docs", "mailto:me@example.org", "https://x.org/path"])
        XCTAssertEqual(text(line, .url, result), ["https://example.org/a_b"])
        XCTAssertEqual(text(line, .italic, result), [], "an address's underscores are not emphasis")
        let links = MarkdownEditing.links(in: line)
        XCTAssertEqual(links.sorted { $0.range.lowerBound < $1.range.lowerBound }.map(\.address), ["https://example.org/a_b", "mailto:me@example.org", "https://x.org/path"])
        XCTAssertTrue(links.allSatisfy(\.isOpenable))
        XCTAssertFalse(MarkdownLink(range: 0..<1, address: "file:///etc/passwd").isOpenable)
        XCTAssertFalse(MarkdownLink(range: 0..<1, address: "javascript:alert(1)").isOpenable)
        XCTAssertFalse(MarkdownLink(range: 0..<1, address: "ssh://host").isOpenable)
    }

    func testAccentsAndEmojiCountAsOneCharacterEach() {
        let line = "Café 👩‍💻 **naïve**"
        XCTAssertEqual(text(line, .bold, spans(line)), ["naïve"])
    }

    /// The states computed from a whole text at load agree with styling line by line.
    func testExitStatesOfAWholeTextMatchTheLineByLineStates() throws {
        for example in try MarkdownCorpus.examples() + ["a\r\n```\r\nb\r```\u{2029}c\n~~~~\nx\n~~~\n~~~~~"] {
            var lines: [String] = []
            var current = ""
            var previousWasCR = false
            for scalar in example.unicodeScalars {
                if scalar == "\n" && previousWasCR { previousWasCR = false; continue }
                previousWasCR = scalar == "\r"
                if scalar == "\n" || scalar == "\r" || scalar == "\u{2029}" { lines.append(current); current = "" } else { current.unicodeScalars.append(scalar) }
            }
            lines.append(current)
            var state = MarkdownBlockState.outside
            let expected = lines.enumerated().map { index, line in
                state = MarkdownLineStyler.style(line, index: index, entering: state, previous: nil, next: nil).exit
                return state
            }
            XCTAssertEqual(MarkdownLineStyler.exitStates(of: example), expected, example.debugDescription)
        }
    }

    /// Every CommonMark spec example styles without a crash and with ranges inside its lines.
    func testCommonMarkCorpusStylesInsideTheLines() throws {
        for example in try MarkdownCorpus.examples() {
            var state = MarkdownBlockState.outside
            let lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() {
                let result = MarkdownLineStyler.style(line, index: index, entering: state,
                                                      previous: index > 0 ? lines[index - 1] : nil,
                                                      next: index + 1 < lines.count ? lines[index + 1] : nil)
                let count = line.unicodeScalars.count
                for span in result.spans {
                    XCTAssertTrue(span.range.lowerBound >= 0 && span.range.upperBound <= count && !span.range.isEmpty || count == 0,
                                  "\(span) outside \(line.debugDescription)")
                }
                state = result.exit
            }
        }
    }
}

/// The CommonMark specification's examples (and a few notes with CRLF, emoji, no final line
/// end), as data: Tests/Fixtures/commonmark-examples.json.
enum MarkdownCorpus {
    static func examples() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/commonmark-examples.json")
        return try JSONDecoder().decode([String].self, from: Data(contentsOf: url))
    }
}

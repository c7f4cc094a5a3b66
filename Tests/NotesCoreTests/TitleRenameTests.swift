import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Renaming a title rewrites exactly the links' titles: a random corpus of 500 notes keeps
/// every other byte, and every link resolves to the new title afterwards.
final class TitleRenameTests: XCTestCase {
    private let titles = ["Shopping", "Work plan", "Café Paris", "日本の旅", "Ideas", "shopping list"]

    private func randomNote(_ random: inout SeededRandom) -> String {
        let pieces = [
            "Some words ", "[[Shopping]]", "[[shopping|the list]]", "[[SHOPPING#Fruit]]", "[[ Shopping ]]", "[[Shopping list]]",
            "[[Café Paris]]", "`[[Shopping]]`", "\\[[Shopping]]", "#shopping ", "[x](Shopping.md) ", "ünïcödé ", "[[Ideas]] ",
            "\n", "\r\n", "\n```\n[[Shopping]]\n```\n", "\n~~~\n[[Shopping]] in code\n~~~\n", "[[日本の旅]]", "[[Shoppin]]",
        ]
        return (0..<(3 + Int(random.nextValue() % 30))).map { _ in pieces[Int(random.nextValue() % UInt64(pieces.count))] }.joined()
    }

    func testRenamingRewritesOnlyTheLinksTitlesInARandomCorpus() throws {
        var random = SeededRandom(seed: 32)
        let old = TitleKey.of("Shopping")
        var renamed = 0
        for _ in 0..<500 {
            let text = randomNote(&random)
            let before = NoteReferences(text: text, noteID: "n.md").links.filter { $0.target == "t:" + old }.count
            guard let (written, count) = WikiLinkRename.rewrite(text, from: old, to: "Groceries") else {
                XCTAssertEqual(before, 0, text)
                continue
            }
            renamed += 1
            XCTAssertEqual(count, before, text)
            let after = NoteReferences(text: written, noteID: "n.md").links
            XCTAssertFalse(after.contains { $0.target == "t:" + old }, "every link follows: \(written)")
            XCTAssertEqual(after.filter { $0.target == "t:groceries" }.count, before)
            // With the linked titles masked, the two texts are the same: no other byte changed.
            XCTAssertEqual(maskingTitles(written, ["shopping", "groceries"]), maskingTitles(text, ["shopping", "groceries"]), text)
            XCTAssertEqual(written.utf8.filter { $0 == 13 }.count, text.utf8.filter { $0 == 13 }.count, "CRLF kept")
        }
        XCTAssertGreaterThan(renamed, 300)
    }

    /// `text` with the titles of links to `keys` written "?" (every line, code too: the same in both texts).
    private func maskingTitles(_ text: String, _ keys: Set<String>) -> String {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var scalars = Array(line)
            for link in MarkdownInline.references(in: scalars).noteLinks.reversed() where keys.contains(link.key) {
                scalars.replaceSubrange(link.titleRange, with: ["?"])
            }
            return String(String.UnicodeScalarView(scalars))
        }.joined(separator: "\n")
    }

    func testShownTextHeadingAndSpacingStay() {
        XCTAssertEqual(WikiLinkRename.rewrite("a [[shopping|my list]] b [[SHOPPING#Fruit]] [[ Shopping ]]\r\n", from: "shopping", to: "Groceries")?.text,
                       "a [[Groceries|my list]] b [[Groceries#Fruit]] [[ Groceries ]]\r\n")
        XCTAssertNil(WikiLinkRename.rewrite("[[Shopping list]] `[[Shopping]]`", from: "shopping", to: "Groceries"))
        XCTAssertFalse(WikiLinkRename.canLink("a]]b"))
        XCTAssertFalse(WikiLinkRename.canLink("a|b"))
        XCTAssertTrue(WikiLinkRename.canLink("Groceries & more"))
    }

    func testPlanApplyAndUndoOnFiles() throws {
        let root = TemporaryFolder()
        let library = root.file("Notes")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Work"), withIntermediateDirectories: true)
        let first = library.appendingPathComponent("first.md")
        let second = library.appendingPathComponent("Work/second.md")
        let other = library.appendingPathComponent("other.md")
        try Data("First\n[[Shopping]] and [[shopping|list]]\n".utf8).write(to: first)
        try Data("Second\r\nsee [[Shopping]]\r\n".utf8).write(to: second)
        try Data("Other [[Ideas]]\n".utf8).write(to: other)
        chmod(second.path, 0o640)
        let plan = try XCTUnwrap(TitleRename.plan(library: library, candidates: ["first.md", "Work/second.md", "other.md", "../x.md"],
                                                  from: "Shopping", to: "Groceries"))
        XCTAssertEqual(plan.changes.map(\.noteID), ["first.md", "Work/second.md"])
        XCTAssertEqual(plan.linkCount, 3)
        XCTAssertNil(TitleRename.plan(library: library, candidates: ["first.md"], from: "Shopping", to: "shopping"), "same title")
        XCTAssertNil(TitleRename.plan(library: library, candidates: ["first.md"], from: "Shopping", to: "a|b"))
        let written = try plan.apply()
        XCTAssertEqual(String(decoding: try Data(contentsOf: first), as: UTF8.self), "First\n[[Groceries]] and [[Groceries|list]]\n")
        XCTAssertEqual(String(decoding: try Data(contentsOf: second), as: UTF8.self), "Second\r\nsee [[Groceries]]\r\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: second.path)[.posixPermissions] as? Int, 0o640)
        // A later edit of one note: Undo leaves that note as it is now.
        try Data("First\n[[Groceries]] edited since\n".utf8).write(to: first)
        XCTAssertEqual(TitleRename.undo(written), ["Work/second.md"])
        XCTAssertEqual(String(decoding: try Data(contentsOf: second), as: UTF8.self), "Second\r\nsee [[Shopping]]\r\n")
        XCTAssertEqual(String(decoding: try Data(contentsOf: first), as: UTF8.self), "First\n[[Groceries]] edited since\n")
    }
}

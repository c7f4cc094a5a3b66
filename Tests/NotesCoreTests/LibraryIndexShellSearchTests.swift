import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The desktop's search (GNOME Shell's provider): every term must match, in the title or the
/// text; notes whose titles hold every term come first, each group newest first; at most the
/// limit; metas give the title and the line where a term occurs.
final class LibraryIndexShellSearchTests: LibraryIndexTestCase {
    private func write(_ id: String, _ text: String, age: TimeInterval) {
        write(id, text)
        let url = library.folder.appendingPathComponent(id)
        try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
    }

    func testEveryTermMustMatchTitlesFirstNewestFirst() throws {
        try onDiskAndInMemory {
            write("recipe.md", "Bread recipe\n\nflour, water, salt\n", age: 300)
            write("old-bread.md", "Bread for the week\n\nrye\n", age: 900)
            write("shopping.md", "Shopping\n\nmilk\nbread\neggs for the cake\n", age: 200)
            write("Work/eggs.md", "Eggs\n\nonly eggs here, Café Zürich\n", age: 100)
            let index = try makeIndex()
            _ = try reconciled(index)
            XCTAssertEqual(index.shellSearch(["bread"]), ["recipe.md", "old-bread.md", "shopping.md"],
                           "titles holding the term first (newest first), then the other notes")
            XCTAssertEqual(index.shellSearch(["bread", "eggs"]), ["shopping.md"], "AND, not OR")
            XCTAssertEqual(index.shellSearch(["EGGS", "cafe"]), ["Work/eggs.md"], "case and accents ignored")
            XCTAssertEqual(index.shellSearch(["flo"]), ["recipe.md"], "a part of a word")
            XCTAssertEqual(index.shellSearch(["nowhere"]), [])
            XCTAssertEqual(index.shellSearch([]), [])
            XCTAssertEqual(index.shellSearch(["  "]), [])
            XCTAssertEqual(index.shellSearch(["bread"], limit: 2), ["recipe.md", "old-bread.md"])

            let results = index.shellResults(["shopping.md", "gone.md", "recipe.md"], terms: ["eggs"])
            XCTAssertEqual(results.map(\.noteID), ["shopping.md", "recipe.md"], "a note gone is left out, the order kept")
            XCTAssertEqual(results[0].title, "Shopping")
            XCTAssertEqual(results[0].line, "eggs for the cake", "the line holding a term")
            XCTAssertEqual(results[1].line, "flour, water, salt", "without a term in it: the preview")
            XCTAssertEqual(index.shellResults(["Work/eggs.md"], terms: ["eggs"])[0].line, "only eggs here, Café Zürich",
                           "the line below the title, not the title")
        }
    }

    /// The desktop's search is any program on the session bus: what it asks is bounded.
    func testHugeOrManyTermsAndHostileIdsAreAnsweredWithNothing() throws {
        write("bread.md", "Bread\n\nflour\n", age: 100)
        let index = try makeIndex()
        _ = try reconciled(index)
        let megabyte = String(repeating: "bread", count: 200_000)
        XCTAssertEqual(index.shellSearch([megabyte]), [], "a 1 MB term")
        XCTAssertEqual(index.shellSearch(["bread", String(repeating: "x", count: LibraryIndex.shellTermLimit + 1)]), [])
        XCTAssertEqual(index.shellSearch(Array(repeating: "bread", count: LibraryIndex.shellTermsLimit + 1)), [], "too many terms")
        XCTAssertEqual(index.shellSearch(Array(repeating: "bread", count: LibraryIndex.shellTermsLimit)), ["bread.md"], "at the limit")
        XCTAssertEqual(index.shellSearch([String(repeating: "b", count: LibraryIndex.shellTermLimit)]), [], "a long term at the limit is searched")

        let ids = ["../../etc/passwd", "/etc/passwd", ".notula/languages.txt", megabyte + ".md"]
            + Array(repeating: "bread.md", count: 1000)
        let results = index.shellResults(ids, terms: [megabyte])
        XCTAssertEqual(results.count, LibraryIndex.shellIdsLimit - 4, "ids past the limit are not read, hostile ones dropped")
        XCTAssertTrue(results.allSatisfy { $0.noteID == "bread.md" }, "\(results.prefix(3))")
        XCTAssertEqual(results.first?.line, "flour", "a term past the limit is ignored: the preview")
    }

    func testManyMatchesStayBoundedAndTitlesAreNotLost() throws {
        for number in 0..<400 { write("n\(number).md", "Note \(number)\n\ncommon words\n", age: Double(number)) }
        write("special.md", "Common ground\n\ncommon words\n", age: 10_000)
        let index = try makeIndex()
        _ = try reconciled(index)
        let found = index.shellSearch(["common"], limit: 20)
        XCTAssertEqual(found.count, 20)
        XCTAssertEqual(found.first, "special.md", "the one title holding the term comes first however old")
    }

    func testTheMatchOffsetPrefersTheTextBelowTheTitle() {
        XCTAssertEqual(TextMatch.firstOffset(of: ["eggs"], in: "Eggs\n\nbuy eggs\n"), 10)
        XCTAssertEqual(TextMatch.firstOffset(of: ["cake", "milk"], in: "Shopping\nmilk\ncake\n"), 9, "the first of any term")
        XCTAssertEqual(TextMatch.firstOffset(of: ["shop"], in: "Shopping\nmilk\n"), 0, "in the title when nowhere else")
        XCTAssertEqual(TextMatch.firstOffset(of: ["zurich"], in: "T\n🙂 Zürich\n"), 4, "offsets in characters, accents ignored")
        XCTAssertNil(TextMatch.firstOffset(of: ["absent"], in: "Title\ntext\n"))
    }
}

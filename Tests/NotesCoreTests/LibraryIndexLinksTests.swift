import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Links and tags in the index: backlinks, titles for completion, tags with counts, kept
/// equal to the notes as they change on disk (other programs' edits count).
final class LibraryIndexLinksTests: LibraryIndexTestCase {
    func testBacklinksTitlesAndTagsFollowTheDisk() throws {
        try onDiskAndInMemory {
            write("shopping.md", "Shopping\nmilk #home\n")
            write("first.md", "First note\nbuy things: [[shopping]] #home #work/meetings\n")
            write("Work/plan.md", "Plan\n[the list](../shopping.md) and `[[Shopping]]` #work\n")
            write("dup1.md", "Ideas\n")
            write("dup2.md", "IDEAS\n#Work/Meetings\n")
            let index = try makeIndex()
            _ = try reconciled(index)
            let back = index.backlinks(toNote: "shopping.md", title: "Shopping")
            XCTAssertEqual(Set(back.map(\.noteID)), ["first.md", "Work/plan.md"])
            XCTAssertEqual(back.first { $0.noteID == "first.md" }?.context, "buy things: [[shopping]] #home #work/meetings")
            XCTAssertEqual(back.first { $0.noteID == "first.md" }?.line, 1)
            XCTAssertEqual(index.notes(titled: "ideas").map(\.noteID).sorted(), ["dup1.md", "dup2.md"], "ambiguous: both")
            XCTAssertEqual(index.titles(matching: "Sho").map(\.title), ["Shopping"])
            XCTAssertEqual(index.titles(matching: "an").map(\.title), ["Plan"], "containing, after those starting so")
            write("shop2.md", "Shop and shop again\n")
            _ = index.refresh(["shop2.md"])
            XCTAssertEqual(index.titles(matching: "shop").map(\.title), ["Shop and shop again", "Shopping"], "each once")
            try FileManager.default.removeItem(at: library.folder.appendingPathComponent("shop2.md"))
            _ = index.refresh(["shop2.md"])
            XCTAssertEqual(index.notesLinking(toTitle: "shopping"), ["first.md"])
            XCTAssertEqual(index.tagCounts().map { "\($0.name) \($0.count)" }, ["home 2", "work 3", "Work/Meetings 2"])
            XCTAssertEqual(index.notes(taggedWith: "work"), ["first.md", "Work/plan.md", "dup2.md"], "a tag's notes include those of tags inside it")
            XCTAssertEqual(index.notes(taggedWith: "work/meetings"), ["first.md", "dup2.md"])

            // Another program changes, adds and removes notes.
            write("third.md", "Third\nalso [[Shopping]] #new\n")
            write("first.md", "First note\nno more links\n")
            try FileManager.default.removeItem(at: library.folder.appendingPathComponent("Work/plan.md"))
            _ = index.refresh(["third.md", "first.md", "Work/plan.md"])
            XCTAssertEqual(index.backlinks(toNote: "shopping.md", title: "Shopping").map(\.noteID), ["third.md"])
            XCTAssertEqual(index.tagCounts().map { "\($0.name) \($0.count)" }, ["home 1", "new 1", "Work 1", "Work/Meetings 1"],
                           "a parent only written inside others is listed, counted by its children")
            // A retitled note is found by its new title.
            write("shopping.md", "Groceries\nmilk\n")
            _ = index.refresh(["shopping.md"])
            XCTAssertEqual(index.notes(titled: "groceries").map(\.noteID), ["shopping.md"])
            XCTAssertEqual(index.notes(titled: "shopping"), [])
        }
    }

    /// The titles' keys stay out of memory until a completion needs them; from then on the
    /// window keeps them fresh after each change.
    func testTitleKeysAreReadOnlyOnceInUse() throws {
        write("shopping.md", "Shopping\nmilk\n")
        let index = try makeIndex()
        _ = try reconciled(index)
        index.refreshTitleKeysInUse()
        XCTAssertNil(index.titleKeysCache.withLock { $0 }, "read before anyone needed them")
        XCTAssertEqual(index.titles(matching: "pping").map(\.title), ["Shopping"])
        XCTAssertNotNil(index.titleKeysCache.withLock { $0 })
        write("plan.md", "Planning\n")
        _ = try reconciled(index)
        index.refreshTitleKeysInUse()
        XCTAssertEqual(index.titles(matching: "nning").map(\.title), ["Planning"])
    }

    func testAnIndexOfSchema8GainsLinksAndTags() throws {
        write("a.md", "Alpha\n[[Beta]] #tagged\n")
        write("b.md", "Beta\n")
        sleep(2)  // settled: trusted by identity
        _ = try reconciled(try makeIndex())
        let url = LibraryIndex.cacheURL(for: library.folder, in: cache)
        do {
            let old = try SQLiteDatabase(path: url.path)
            try old.execute("DROP TABLE links; DROP TABLE tags; DROP INDEX notes_folded; ALTER TABLE notes DROP COLUMN folded; PRAGMA user_version = 8")
        }
        let index = try makeIndex()
        XCTAssertEqual(index.fileURL, url, "kept, not made again")
        XCTAssertEqual(index.notes(titled: "beta").map(\.noteID), ["b.md"], "titles keyed at the upgrade")
        XCTAssertEqual(index.textProgress().indexed, 0)
        index.indexAllWaitingTexts()
        XCTAssertEqual(index.backlinks(toNote: "b.md", title: "Beta").map(\.noteID), ["a.md"])
        XCTAssertEqual(index.tagCounts().map(\.name), ["tagged"])
    }
}

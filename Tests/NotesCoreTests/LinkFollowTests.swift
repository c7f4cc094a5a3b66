import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Links from other notes follow a note moved to another notebook and a notebook renamed;
/// notes that do not link them are not even rewritten.
final class LinkFollowTests: XCTestCase {
    private var root: TemporaryFolder!
    private var library: URL!
    private var notebooks: Notebooks!
    private let old = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUp() {
        root = TemporaryFolder()
        library = root.url.appendingPathComponent("Notes")
        notebooks = Notebooks(library: library)
    }

    private func write(_ path: String, _ text: String) throws {
        let url = library.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: library.appendingPathComponent(path), encoding: .utf8)
    }

    private func inode(_ path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(path).path))?[.systemFileNumber] as? UInt64
    }

    private func modified(_ path: String) throws -> TimeInterval {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(path).path)[.modificationDate] as? Date).timeIntervalSince1970
    }

    func testLinksToAMovedNoteFollowIt() throws {
        try write("Work/plan.md", "# Plan\n[me](plan.md#top)\n")
        try write("index.md", "[see](Work/plan.md) [p][p] [web](https://x.org/Work/plan.md)\n\n[p]: Work/plan.md \"The plan\"\n")
        try write("Work/other.md", "[plan](plan.md) <a href=\"plan.md#x\">p</a> [missing](gone/plan.md)\r\n")
        try write("Work/Q1/deep.md", "[up](../plan.md)\n```\n[code](../plan.md)\n```\n")
        try write("unrelated.md", "[elsewhere](Work/other.md)\n")
        let unrelated = inode("unrelated.md")

        XCTAssertEqual(try notebooks.move(note: "Work/plan.md", to: ""), "plan.md")
        XCTAssertEqual(try text("index.md"), "[see](plan.md) [p][p] [web](https://x.org/Work/plan.md)\n\n[p]: plan.md \"The plan\"\n")
        XCTAssertEqual(try text("Work/other.md"), "[plan](../plan.md) <a href=\"../plan.md#x\">p</a> [missing](gone/plan.md)\r\n")
        XCTAssertEqual(try text("Work/Q1/deep.md"), "[up](../../plan.md)\n```\n[code](../plan.md)\n```\n")
        XCTAssertEqual(try text("plan.md"), "# Plan\n[me](plan.md#top)\n", "its link to itself too")
        // Rewritten: the rewrite's time, never the old one set back (backups and rsync compare it).
        for path in ["index.md", "Work/other.md", "Work/Q1/deep.md", "plan.md"] { XCTAssertGreaterThan(try modified(path), old.timeIntervalSince1970, path) }
        XCTAssertEqual(inode("unrelated.md"), unrelated, "a note that does not name it is not rewritten")

        // A name taken in the notebook: the note arrives as "plan 2.md" and the links say so.
        try write("Work/plan.md", "# Another plan\n")
        XCTAssertEqual(try notebooks.move(note: "plan.md", to: "Work"), "Work/plan 2.md")
        XCTAssertEqual(try text("index.md"), "[see](Work/plan%202.md) [p][p] [web](https://x.org/Work/plan.md)\n\n[p]: Work/plan%202.md \"The plan\"\n")
        XCTAssertEqual(try text("Work/other.md"), "[plan](plan%202.md) <a href=\"plan%202.md#x\">p</a> [missing](gone/plan.md)\r\n")
    }

    func testLinksIntoARenamedNotebookFollowIt() throws {
        try write("Work/plan.md", "[other](other.md) [round](../Work/other.md) ![](../attachments/a.png)\n")
        try write("Work/other.md", "x\n")
        try write("Work/Q1/deep.md", "[plan](../plan.md)\n")
        try write("index.md", "[plan](Work/plan.md) [deep](<Work/Q1/deep.md>) [folder](Work/) <img src='Work/pic.png'> [w](Workshop/x.md)\n")
        try write("Workshop/x.md", "[back](../Work/plan.md)\n")
        try write("gone.md", "[plan](Work/plan.md)\n")
        let trash = LibraryTrash(library: library)
        let trashed = try trash.trash(relativePath: "gone.md")

        XCTAssertEqual(try notebooks.rename("Work", to: "Jobs 2026"), "Jobs 2026")
        XCTAssertEqual(try text("Jobs 2026/plan.md"), "[other](other.md) [round](other.md) ![](../attachments/a.png)\n",
                       "a link out and back in is written the short way")
        XCTAssertEqual(try text("Jobs 2026/Q1/deep.md"), "[plan](../plan.md)\n", "links inside it stay")
        XCTAssertEqual(try text("index.md"), "[plan](Jobs%202026/plan.md) [deep](<Jobs%202026/Q1/deep.md>) [folder](Jobs%202026/) <img src='Jobs%202026/pic.png'> [w](Workshop/x.md)\n")
        XCTAssertEqual(try text("Workshop/x.md"), "[back](../Jobs%202026/plan.md)\n")
        XCTAssertEqual(try String(contentsOf: trashed.url, encoding: .utf8), "[plan](Jobs%202026/plan.md)\n", "a note in the Trash follows too")
        XCTAssertGreaterThan(try modified("index.md"), old.timeIntervalSince1970)
        XCTAssertEqual(try modified("Jobs 2026/Q1/deep.md"), old.timeIntervalSince1970, "not rewritten: its time stays")
    }
}

import Foundation
import Gtk
@testable import NotesCore
import XCTest
@testable import NotesApp

/// Browse Versions and the notebook sidebar on recycling lists (issue #29): 5,000 versions and
/// 2,000 notebooks make widgets only for the rows GTK shows, and the rows show what they should.
final class BigListsTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testFiveThousandVersionsMakeWidgetsOnlyForTheRowsShown() {
        MainActor.assumeIsolated {
            let now = Date()
            let versions = (0..<5_000).map { index in
                HistoryVersion(id: Int64(5_000 - index), history: 1, date: now.addingTimeInterval(-15 * Double(index)),
                               size: 1_000 + index, origin: index % 10 == 0 ? .closed : .edited, key: "key-\(index)")
            }
            let history = HistoryWindow(parent: nil)
            defer { history.close() }
            history.show(title: "Versions of “Long”", sections: [HistoryWindow.Section(title: nil, versions: versions)],
                         current: "Long\nnow\n", load: { version in "Long\nversion \(version.id)\n" })
            XCTAssertTrue(spin(until: { history.shownTexts.chosen == "Long\nversion 5000\n" }), "the newest version is chosen")
            XCTAssertEqual(history.shownVersions, versions)
            XCTAssertGreaterThan(history.rowsMade, 5)
            XCTAssertLessThan(history.rowsMade, 400, "widgets for about the rows GTK shows, not 5,000")
            XCTAssertTrue(history.rowLabel(0).contains("Closed"), history.rowLabel(0))
            XCTAssertTrue(history.rowLabel(1).contains("While editing"), history.rowLabel(1))
            XCTAssertTrue(history.rowLabel(4_999).contains("While editing"), history.rowLabel(4_999))
            history.choose(versions[4_000])
            XCTAssertTrue(spin(until: { history.shownTexts.chosen == "Long\nversion 1000\n" }), "a version far down is read")
        }
    }

    nonisolated func testTwoThousandNotebooksMakeWidgetsOnlyForTheRowsShown() {
        MainActor.assumeIsolated {
            let notebooks = NotebookList()
            let window = Window()
            window.setDefaultSize(width: 300, height: 600)
            window.child = notebooks.root
            window.present()
            defer { window.destroy() }
            let paths = (0..<2_000).map { String(format: "Book %04d", $0) }
            notebooks.show(paths)
            XCTAssertTrue(spin(until: { notebooks.notebooksWithRows.contains("Book 0000") }), "the first notebook has a row")
            XCTAssertEqual(notebooks.notebooks, paths)
            XCTAssertLessThan(notebooks.rowsMade, 400, "widgets for about the rows GTK shows, not 2,000")
            XCTAssertTrue(Set(notebooks.notebooksWithRows).isSubset(of: Set(paths)))
            var picked: [String?] = []
            notebooks.onSelect = { picked.append($0) }
            // Chosen far down (as a notebook just made is): scrolled to, without taking the focus.
            notebooks.select("Book 1999")
            XCTAssertTrue(spin(until: { notebooks.notebooksWithRows.contains("Book 1999") }), "the chosen notebook is scrolled into view")
            XCTAssertEqual(picked, ["Book 1999"])
            XCTAssertTrue(notebooks.isMarked("Book 1999"))
            XCTAssertLessThan(notebooks.rowsMade, 800)
            // Listed again without it, scrolled down (GTK 4.8 kept the old rows, see replaceAll): the choice goes back to All Notes.
            notebooks.show(Array(paths.prefix(10)))
            XCTAssertEqual(picked, ["Book 1999", nil])
            XCTAssertTrue(spin(until: { notebooks.notebooksWithRows.contains("Book 0009") }), "\(notebooks.notebooksWithRows.sorted())")
            XCTAssertFalse(notebooks.notebooksWithRows.contains { !paths.prefix(10).contains($0) }, "no row shows a notebook gone")
            // A notebook just made is chosen before the reload that lists it: once listed, it
            // is scrolled into view (the new list starts at the top).
            notebooks.show(paths)
            notebooks.select("Zebra")
            _ = spin(until: { false }, timeout: 0.1)
            notebooks.show(paths + ["Zebra"])
            XCTAssertTrue(spin(until: { notebooks.notebooksWithRows.contains("Zebra") }), "the new notebook is scrolled into view")
        }
    }
}

import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

final class NotesListViewTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func note(_ id: String, _ title: String, ago seconds: TimeInterval) -> NoteSummary {
        NoteSummary(id: id, url: URL(fileURLWithPath: "/tmp/\(id)"), title: title, preview: "",
                    modified: Date().addingTimeInterval(-seconds), isValidText: true)
    }

    /// A list of `count` notes ("n0.md" newest) in a shown 400×600 window.
    private func presentedList(of count: Int) -> (NotesListView, Window) {
        let list = NotesListView()
        let window = Window()
        window.setDefaultSize(width: 400, height: 600)
        window.child = list.root
        list.show((0..<count).map { note("n\($0).md", "Note \($0)", ago: Double($0)) })
        window.present()
        return (list, window)
    }

    /// Every bound row stands for the note it is known by, and each on screen shows that
    /// note's title: a row out of sight may wait for its text (`NoteRow.place`).
    private func assertRowsShowTheirNotes(_ list: NotesListView, file: StaticString = #filePath, line: UInt = #line) {
        var onScreen = 0
        for (id, row) in list.visibleRows {
            XCTAssertEqual(row.noteID, id, file: file, line: line)
            if row.root.isMapped { onScreen += 1 }
            if row.root.isMapped || !row.isPlaceholder {
                XCTAssertEqual(row.shownTitle, list.summary(id)?.title, "the row of \(id)", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(onScreen, 5, "rows on screen", file: file, line: line)
    }

    nonisolated func testShowsEmptyStateUntilThereAreNotes() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            XCTAssertEqual(list.root.visibleChildName, "empty")
            list.show([note("a.md", "A", ago: 10)])
            XCTAssertEqual(list.root.visibleChildName, "list")
            list.remove("a.md")
            XCTAssertEqual(list.root.visibleChildName, "empty")
        }
    }

    nonisolated func testTenThousandNotesInAWindowBindOnlyVisibleRows() {
        MainActor.assumeIsolated {
            let (list, window) = presentedList(of: 10_000)
            defer { window.destroy() }
            XCTAssertEqual(list.count, 10_000)
            XCTAssertEqual(list.orderedIDs.first, "n0.md")
            spin(until: { list.boundRowCount > 0 })
            XCTAssertGreaterThan(list.boundRowCount, 0)
            XCTAssertLessThan(list.boundRowCount, 400, "a recycling list binds about a screenful, not 10,000 rows")
        }
    }

    /// GTK 4.8 makes rows again after a search that replaces those on screen: the rows it lets
    /// go are forgotten, not kept for ever (they piled up by ~200 per search).
    nonisolated func testSearchesThatReplaceTheRowsDoNotPileThemUp() {
        MainActor.assumeIsolated {
            let (list, window) = presentedList(of: 10_000)
            defer { window.destroy() }
            spin(until: { list.boundRowCount > 0 })
            for round in 0..<10 {
                let matches = Set((0..<10_000).filter { $0 % 10 == round }.map { "n\($0).md" })
                list.filter({ id, _ in matches.contains(id) }, query: "n")
                spin(until: { false }, timeout: 0.05)
                XCTAssertEqual(list.orderedIDs.first, "n\(round).md")
            }
            XCTAssertGreaterThan(list.boundRowCount, 0)
            XCTAssertLessThan(list.boundRowCount, 400, "about the rows GTK holds")
        }
    }

    /// Issue #13: a search result or a re-sort of 100,000 rows reaches GTK as one change, and
    /// the selected note stays selected when it is among the matches.
    nonisolated func testAHundredThousandRowsTakeOneChangePerSearchAndKeepTheSelection() {
        MainActor.assumeIsolated {
            let (list, window) = presentedList(of: 100_000)
            defer { window.destroy() }
            spin(until: { list.boundRowCount > 0 })
            var changes: [[Int]] = []
            list.shown.onItemsChanged { _, position, removed, added in changes.append([position, removed, added]) }
            var selections: [String?] = []
            list.onSelect = { selections.append($0) }
            list.select("n500.md", notify: false, scroll: false)  // the top stays in view

            let matches = Set((0..<100_000).filter { $0 % 3 == 2 }.map { "n\($0).md" })
            let onScreen = list.boundRowCount
            list.filter({ id, _ in matches.contains(id) }, query: "note")
            // The rows on screen show the first matches in place (see the next test); the one
            // change is the rest.
            let reused = changes.first?.first ?? -1
            XCTAssertEqual(changes, [[reused, 100_000 - reused, 33_333 - reused]], "one change for the whole result")
            if RecyclingListView<NoteRow>.isGtk48OrOlder {
                XCTAssertGreaterThan(reused, onScreen / 2)
            } else {
                XCTAssertEqual(reused, 0, "GTK 4.10 and later: no row is reused in place, the change is the whole list")
            }
            XCTAssertEqual(list.shownCount, 33_333)
            XCTAssertEqual(list.orderedIDs.first, "n2.md")
            XCTAssertEqual(list.selectedID, "n500.md", "the selected note is kept")

            changes = []
            list.arrangement.pinned = ["n99998.md"]
            XCTAssertEqual(changes.count, 1, "a new order is one change too")
            XCTAssertEqual(list.orderedIDs.first, "n99998.md")
            XCTAssertEqual(list.selectedID, "n500.md")

            changes = []
            list.filter(nil, query: "")
            let clearedFrom = changes.first?.first ?? -1
            XCTAssertEqual(changes, [[clearedFrom, 33_333 - clearedFrom, 100_000 - clearedFrom]], "one change; the pinned first row stays")
            XCTAssertGreaterThanOrEqual(clearedFrom, 1)
            XCTAssertEqual(list.shownCount, 100_000)
            XCTAssertEqual(list.selectedID, "n500.md")
            XCTAssertEqual(selections, [], "keeping the selection is not a new selection")
            spin(until: { false }, timeout: 0.1)
            XCTAssertLessThan(list.boundRowCount, 1000, "still only about a screenful of rows")
        }
    }

    /// GTK 4.8 binds ~200 rows and measures them all after a change that moves them (a
    /// search's keystroke): only the rows on screen get their text laid out, the others wait
    /// for it until they come into view — and none on screen is ever left blank: not after a
    /// search is cleared (rows made anew), not after a scroll.
    nonisolated func testOnlyRowsOnScreenLayOutTheirText() {
        MainActor.assumeIsolated {
            let (list, window) = presentedList(of: 10_000)
            defer { window.destroy() }
            spin(until: { list.boundRowCount > 0 })
            spin(until: { false }, timeout: 0.1)
            list.filter({ id, _ in id == "n500.md" }, query: "500")
            spin(until: { false }, timeout: 0.05)
            list.filter(nil, query: "")
            spin(until: { list.visibleRows["n0.md"]?.shownTitle == "Note 0" })
            assertRowsShowTheirNotes(list)
            if RecyclingListView<NoteRow>.isGtk48OrOlder {
                // GTK makes the rows under the first screen once it is painted.
                spin(until: { list.list.model.unannounced == 0 && list.boundRowCount > 100 })
                let waiting = list.visibleRows.values.filter(\.isPlaceholder).count
                XCTAssertGreaterThan(waiting, list.boundRowCount / 2, "rows out of sight wait for their text")
            }
            list.select("n150.md", notify: false, scroll: true)
            spin(until: { list.visibleRows["n150.md"]?.root.isMapped == true })
            spin(until: { false }, timeout: 0.1)
            XCTAssertEqual(list.visibleRows["n150.md"]?.shownTitle, "Note 150")
            assertRowsShowTheirNotes(list)
        }
    }

    /// A search that narrows while the top of the list is in view shows the first matches in
    /// the rows on screen, where they are: each row shows its note, highlighted, and rows are
    /// known by the note they show now (typing in a note refreshes its row).
    nonisolated func testRowsOnScreenShowTheMatchesInPlace() {
        MainActor.assumeIsolated {
            let (list, window) = presentedList(of: 10_000)
            defer { window.destroy() }
            spin(until: { list.boundRowCount > 0 })
            spin(until: { false }, timeout: 0.1)
            var changes: [[Int]] = []
            list.shown.onItemsChanged { _, position, removed, added in changes.append([position, removed, added]) }
            list.filter({ id, _ in id.hasSuffix("7.md") }, query: "note 7")
            XCTAssertEqual(changes.count, 1)
            if RecyclingListView<NoteRow>.isGtk48OrOlder {
                XCTAssertGreaterThan(changes.first?.first ?? 0, 20, "the rows on screen were reused")
            }  // GTK 4.10 and later bind the rows again: what they show is checked below
            spin(until: { false }, timeout: 0.1)
            XCTAssertGreaterThan(list.boundRowCount, 20)
            for id in list.visibleRows.keys { XCTAssertTrue(id.hasSuffix("7.md"), "\(id) matches") }
            assertRowsShowTheirNotes(list)
            XCTAssertEqual(list.visibleRows["n7.md"]?.shownTitle, "Note 7")
            var edited = list.summary("n17.md")!
            edited.title = "Note 17, edited"
            edited.modified = Date()
            list.upsert(edited)  // moves to the top of the matches: the rows above it move down
            XCTAssertEqual(list.orderedIDs.first, "n17.md")
            spin(until: { list.visibleRows["n17.md"]?.shownTitle == "Note 17, edited" })  // a new row: shown in the next layout
            XCTAssertEqual(list.visibleRows["n17.md"]?.shownTitle, "Note 17, edited")
            assertRowsShowTheirNotes(list)

            // Notes deleted while their rows are on screen, and one added above them: the rows
            // show the notes that are there now.
            list.remove("n17.md")
            let added = note("n100007.md", "Note 100007", ago: -60)
            list.apply(upserted: [added], removed: (0..<20).map { "n\($0 * 10 + 7).md" })
            XCTAssertEqual(Array(list.orderedIDs.prefix(2)), ["n100007.md", "n207.md"])
            spin(until: { false }, timeout: 0.1)
            for id in list.orderedIDs.prefix(5) {
                XCTAssertEqual(list.visibleRows[id]?.shownTitle, list.summary(id)?.title, "the row of \(id)")
            }
            assertRowsShowTheirNotes(list)

            list.filter(nil, query: "")
            spin(until: { false }, timeout: 0.1)
            XCTAssertEqual(Array(list.orderedIDs.prefix(3)), ["n100007.md", "n0.md", "n1.md"], "the top of the list")
            assertRowsShowTheirNotes(list)
            XCTAssertEqual(list.visibleRows["n0.md"]?.shownTitle, "Note 0")
        }
    }

    /// A search that leaves one note makes GTK 4.8 destroy the other rows, and clearing it
    /// makes as many again: their widgets are kept and used again, showing the right notes
    /// (a pin or a conflict dot a reused row had is gone when its new note has none).
    nonisolated func testRowsGTKLetsGoAreMadeAgainFromTheirWidgets() {
        MainActor.assumeIsolated {
            let (list, window) = presentedList(of: 1_000)
            defer { window.destroy() }
            var conflicted = list.summary("n3.md")!
            conflicted.conflictCopies = ["n3 (conflict).md"]
            list.upsert(conflicted)
            list.arrangement.pinned = ["n5.md"]
            spin(until: { list.boundRowCount > 100 })
            spin(until: { false }, timeout: 0.1)
            let made = list.rowsMade
            XCTAssertGreaterThan(made, 100, "GTK 4.8 keeps ~200 rows")
            for round in 0..<3 {
                list.filter({ id, _ in id == "n500.md" }, query: "500")
                spin(until: { false }, timeout: 0.05)
                XCTAssertLessThan(list.boundRowCount, 5, "round \(round): the other rows are gone")
                list.filter(nil, query: "")
                spin(until: { list.boundRowCount > 100 })
                spin(until: { false }, timeout: 0.05)
            }
            XCTAssertLessThan(list.rowsMade - made, 10, "rows were made again from the widgets GTK let go")
            XCTAssertEqual(Array(list.orderedIDs.prefix(2)), ["n5.md", "n0.md"])
            assertRowsShowTheirNotes(list)
            for (id, row) in list.visibleRows {
                XCTAssertEqual(row.showsPin, id == "n5.md", id)
                XCTAssertEqual(row.showsConflict, id == "n3.md", id)
            }
        }
    }

    nonisolated func testEditedNoteMovesToTheTopAndKeepsItsSelection() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            var selections: [String?] = []
            list.onSelect = { selections.append($0) }
            list.show([note("a.md", "A", ago: 10), note("b.md", "B", ago: 20), note("c.md", "C", ago: 30)])
            list.select("c.md", notify: true)
            XCTAssertEqual(selections, ["c.md"])
            var c = list.summary("c.md")!
            c.modified = Date()
            list.upsert(c)
            XCTAssertEqual(list.orderedIDs, ["c.md", "a.md", "b.md"])
            XCTAssertEqual(list.selectedID, "c.md")
            XCTAssertEqual(selections, ["c.md"], "reordering is not a new selection")
        }
    }

    nonisolated func testNewNoteIsInsertedInOrder() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            list.show([note("a.md", "A", ago: 10), note("b.md", "B", ago: 30)])
            list.upsert(note("m.md", "M", ago: 20))
            XCTAssertEqual(list.orderedIDs, ["a.md", "m.md", "b.md"])
        }
    }

    /// A search names notes by their index rows; a summary made outside the index (the title
    /// typed in the editor) keeps its note's row, so the note stays found while it is edited.
    nonisolated func testASearchFindsNotesByIndexRowAndAnEditedNoteKeepsItsRow() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            let rows: [String: Int64] = ["a.md": 3, "b.md": 5, "c.md": 9]
            list.show(rows.map { id, row in
                var summary = note(id, id.uppercased(), ago: Double(row))
                summary.indexRow = row
                return summary
            })
            let found = Set<Int64>([3, 9])
            let byRow: (String, Int64?) -> Bool = { _, row in row.map(found.contains) ?? false }
            list.filter(byRow, query: "x")
            XCTAssertEqual(list.orderedIDs, ["a.md", "c.md"])
            list.upsert(note("c.md", "Typed title", ago: 0))  // from the editor: no row
            XCTAssertEqual(list.summary("c.md")?.indexRow, 9)
            XCTAssertEqual(list.orderedIDs, ["c.md", "a.md"])
            list.filter(byRow, query: "xy")
            XCTAssertEqual(list.orderedIDs, ["c.md", "a.md"], "still found after the upsert")
        }
    }

    nonisolated func testSearchFilterPinsAndSortKeepTheSelectionAndTheModelInStep() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            var selections: [String?] = []
            list.onSelect = { selections.append($0) }
            list.show([note("a.md", "Banana", ago: 10), note("b.md", "apple", ago: 20), note("c.md", "Cherry", ago: 30)])
            list.select("b.md", notify: true)
            list.filter({ id, _ in ["b.md", "c.md"].contains(id) }, query: "x")
            XCTAssertEqual(list.orderedIDs, ["b.md", "c.md"])
            XCTAssertEqual(list.shownCount, 2, "GTK's filtered model and the mirror agree")
            XCTAssertEqual(list.selectedID, "b.md")
            list.filter({ id, _ in id == "c.md" }, query: "xy")
            XCTAssertEqual(list.orderedIDs, ["c.md"])
            XCTAssertEqual(list.shownCount, 1)
            // A note edited while searching that does not match stays hidden; one that does appears.
            list.upsert(note("a.md", "Banana", ago: 1))
            XCTAssertEqual(list.orderedIDs, ["c.md"])
            list.filter({ id, _ in ["a.md", "c.md"].contains(id) }, query: "x")
            XCTAssertEqual(list.orderedIDs, ["a.md", "c.md"])
            list.filter(nil, query: "")
            XCTAssertEqual(list.orderedIDs, ["a.md", "b.md", "c.md"])
            XCTAssertEqual(list.shownCount, 3)
            list.arrangement.sortOrder = .title
            XCTAssertEqual(list.orderedIDs, ["b.md", "a.md", "c.md"])
            list.arrangement.pinned = ["c.md"]
            XCTAssertEqual(list.orderedIDs, ["c.md", "b.md", "a.md"])
            XCTAssertEqual(list.shownCount, 3)
            XCTAssertEqual(selections, ["b.md"], "filtering, sorting and pinning are not new selections")
        }
    }

    /// Issue #29: a note's change finds its place by binary search. Random libraries (titles
    /// and dates that tie, "Note" beside "note"), random edits, new notes and removals, in
    /// every sort order, with pins, while searching and not: the order is always what a full
    /// sort gives, GTK's model shows exactly the matches in that order, and the selected note
    /// stays selected.
    nonisolated func testTheOrderAfterRandomUpsertsEqualsAFullSort() {
        MainActor.assumeIsolated {
            var random = SystemRandomNumberGenerator()
            let titles = ["Note", "note", "Nöte", "Shopping", "shopping list", "10 things", "9 things", "", "Zebra"]
            let base = Date()
            func randomNote(_ id: String) -> NoteSummary {
                var summary = NoteSummary(id: id, url: URL(fileURLWithPath: "/tmp/\(id)"), title: titles.randomElement(using: &random)!,
                                          preview: "", modified: base.addingTimeInterval(-Double(Int.random(in: 0..<20, using: &random))),
                                          created: base.addingTimeInterval(-Double(Int.random(in: 0..<20, using: &random))), isValidText: true)
                summary.indexRow = Int64.random(in: 1..<1000, using: &random)
                return summary
            }
            for order in NoteSortOrder.allCases {
                for searching in [false, true] {
                    let list = NotesListView()
                    var library: [String: NoteSummary] = [:]
                    for index in 0..<300 { library["n\(index).md"] = randomNote("n\(index).md") }
                    list.show(Array(library.values))
                    list.arrangement = NoteArrangement(sortOrder: order, pinned: Set(library.keys.shuffled(using: &random).prefix(20)))
                    // Matches: notes whose row is even (the search names notes by index row).
                    let matches: (String, Int64?) -> Bool = { _, row in (row ?? 1) % 2 == 0 }
                    if searching { list.filter(matches, query: "x") }
                    var nextID = 300
                    for step in 0..<600 {
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<6:  // typed into: a new title or date
                            let id = library.keys.randomElement(using: &random)!
                            var edited = randomNote(id)
                            edited.indexRow = library[id]!.indexRow
                            library[id] = edited
                            let selected = list.orderedIDs.randomElement(using: &random)
                            list.select(selected, notify: false, scroll: false)
                            list.upsert(edited)
                            if let selected, list.orderedIDs.contains(selected) {
                                XCTAssertEqual(list.selectedID, selected, "step \(step): the selection stays on its note")
                            }
                        case 6..<8:
                            let id = "n\(nextID).md"
                            nextID += 1
                            library[id] = randomNote(id)
                            list.upsert(library[id]!)
                        default:
                            guard let id = library.keys.randomElement(using: &random) else { continue }
                            library[id] = nil
                            list.remove(id)
                        }
                        let expected = list.arrangement.sortedIDs(library.values)
                        XCTAssertEqual(list.allIDs, expected, "\(order), step \(step): the order is a full sort's")
                        let shownExpected = searching ? expected.filter { matches($0, library[$0]!.indexRow) } : expected
                        XCTAssertEqual(list.orderedIDs, shownExpected, "\(order), step \(step): GTK's model shows the matches in order")
                        if list.allIDs != expected || list.orderedIDs != shownExpected { return }
                    }
                }
            }
        }
    }
}

import Foundation
import Gtk
import TestSupport
import NotesCore
import XCTest
@testable import NotesApp

/// Issue #47: several notes selected in a real notes list keep being the same notes through
/// random changes of the list (notes added and removed one by one and in batches, re-sorts,
/// searches), checked against a model after every step: the selection holds exactly the
/// notes selected that the list still shows, GTK's selection model says their rows are
/// selected (and how many: what a screen reader is told), GTK's own row is the lead.
final class NotesListViewSelectionTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func note(_ n: Int, ago seconds: TimeInterval) -> NoteSummary {
        NoteSummary(id: "n\(n).md", url: URL(fileURLWithPath: "/tmp/n\(n).md"), title: "Note \(n)", preview: "",
                    modified: Date().addingTimeInterval(-seconds), isValidText: true)
    }

    nonisolated func testTheSameNotesStaySelectedThroughRandomChangesOfTheList() {
        MainActor.assumeIsolated {
            for seed: UInt64 in [3, 17, 2026] {
                var random = SeededRandom(seed: seed)
                let list = NotesListView()
                let window = Window()
                window.setDefaultSize(width: 400, height: 600)
                window.child = list.root
                var next = 300
                list.show((0..<next).map { note($0, ago: Double($0)) })
                window.present()
                spin(until: { list.boundRowCount > 0 })
                var expected = Set<String>()
                var searchDigit: String?
                for step in 0..<60 {
                    let shown = list.orderedIDs
                    switch random.next(upTo: 9) {
                    case 0 where !shown.isEmpty:  // a plain click
                        let id = shown[random.next(upTo: shown.count)]
                        list.changeSelection { $0.selectOnly(id) }
                        expected = [id]
                    case 1 where !shown.isEmpty:  // Ctrl+click
                        let id = shown[random.next(upTo: shown.count)]
                        let wasOnly = list.selectedNotes.ids == [id]
                        list.changeSelection { $0.toggle(id) }
                        if expected.contains(id) { if !wasOnly { expected.remove(id) } } else { expected.insert(id) }
                    case 2 where !shown.isEmpty:  // Ctrl+A, every other time made on another thread
                        list.selectsAllOffMainFrom = step % 2 == 0 ? 50 : 10_000
                        list.selectEveryShownNote()
                        expected = Set(shown)
                    case 3:  // another program adds a note, then a batch
                        list.upsert(note(next, ago: Double(random.next(upTo: 400))))
                        next += 1
                        let batch = (0..<random.next(upTo: 40)).map { note(next + $0, ago: Double(random.next(upTo: 400))) }
                        next += batch.count
                        list.apply(upserted: batch, removed: [])
                    case 4 where !list.allIDs.isEmpty:  // removes some, one and in a batch
                        let all = list.allIDs
                        list.remove(all[random.next(upTo: all.count)])
                        let gone = (0..<random.next(upTo: 30)).map { _ in all[random.next(upTo: all.count)] }
                        list.apply(upserted: [], removed: Array(Set(gone)))
                    case 5:  // a note changed moves in the order
                        let all = list.allIDs
                        if let id = all.isEmpty ? nil : all[random.next(upTo: all.count)], var changed = list.summary(id) {
                            changed.modified = Date()
                            list.upsert(changed)
                        }
                    case 6:  // a re-sort
                        list.arrangement.sortOrder = [.modified, .created, .title][random.next(upTo: 3)]
                    case 7:  // a search starts or ends
                        searchDigit = searchDigit == nil ? String(random.next(upTo: 10)) : nil
                        if let digit = searchDigit {
                            list.filter({ id, _ in id.contains(digit) }, query: digit)
                        } else {
                            list.filter(nil, query: "")
                        }
                    default:
                        break
                    }
                    let now = Set(list.orderedIDs)
                    expected.formIntersection(now)
                    let selected = list.selectedNotes
                    if expected.count > 1 || selected.isMultiple {
                        XCTAssertEqual(selected.ids, expected, "seed \(seed), step \(step)")
                    }
                    XCTAssertTrue(selected.ids.isSubset(of: now), "seed \(seed), step \(step): a note not shown stays selected")
                    if selected.isMultiple, let lead = selected.lead {
                        XCTAssertEqual(list.selectedID, lead, "seed \(seed), step \(step): GTK's row is the lead")
                    }
                    // What GTK's selection model (and so a screen reader) counts selected.
                    XCTAssertEqual(list.list.marks.selectedCount, selected.isMultiple ? selected.count : (list.selectedID == nil ? 0 : 1),
                                   "seed \(seed), step \(step): GTK's count of selected rows")
                    _ = spin(until: { false }, timeout: 0.01)
                    for (id, row) in list.visibleRows where row.noteID == id {
                        guard let position = list.orderedIDs.firstIndex(of: id) else { continue }
                        XCTAssertEqual(list.list.marks.isSelected(position), selected.isMultiple ? selected.contains(id) : id == list.selectedID,
                                       "seed \(seed), step \(step): the row of \(id) to GTK")
                    }
                }
                window.destroy()
            }
        }
    }

    /// Ctrl+A of many notes makes its selection on another thread: shown once made, once; read
    /// before (a key at once, the list changing) it is shown first; replaced meanwhile, its late
    /// result changes nothing.
    nonisolated func testCtrlAOfManyNotesIsMadeAwayFromTheWindowAndNothingReadsItHalfMade() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            list.selectsAllOffMainFrom = 50
            let window = Window()
            window.setDefaultSize(width: 400, height: 600)
            window.child = list.root
            list.show((0..<300).map { note($0, ago: Double($0)) })
            window.present()
            defer { window.destroy() }
            spin(until: { list.boundRowCount > 0 })

            // Made, then shown by the main loop: every row marked, `whenShown` once.
            list.changeSelection { $0.selectOnly("n5.md") }
            var shown = 0
            list.selectEveryShownNote { shown += 1 }
            spin(until: { shown > 0 })
            XCTAssertEqual(list.shownSelection.count, 300)
            XCTAssertEqual(list.list.marks.selectedCount, 300, "what GTK (and a screen reader) counts selected")
            XCTAssertEqual(list.shownSelection.lead, "n5.md", "the lead stays the note the keyboard was on")
            _ = spin(until: { false }, timeout: 0.1)
            XCTAssertEqual(shown, 1)

            // A note goes before the selection is made: the rest is selected, never it.
            list.changeSelection { $0.selectOnly("n5.md") }
            list.selectEveryShownNote()
            list.remove("n7.md")
            XCTAssertEqual(list.selectedNotes.count, 299)
            XCTAssertFalse(list.selectedNotes.contains("n7.md"))
            _ = spin(until: { false }, timeout: 0.1)
            XCTAssertEqual(list.selectedNotes.count, 299, "the selection made before the removal came back")

            // Escape at once: one note, and the late result does not bring all back.
            list.selectEveryShownNote()
            list.changeSelection { $0.selectOnly($0.lead) }
            _ = spin(until: { false }, timeout: 0.1)
            XCTAssertEqual(list.selectedNotes.ids, ["n5.md"])
            XCTAssertEqual(list.list.marks.selectedCount, 1)
        }
    }
}

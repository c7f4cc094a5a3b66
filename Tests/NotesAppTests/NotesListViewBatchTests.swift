import Foundation
import Gtk
import TestSupport
import NotesCore
import XCTest
@testable import NotesApp

/// A large batch of the index is merged on another thread (`NotesListView+Batches`): the list
/// ends as the same changes made in place would leave it, with the same notes selected; what
/// changes meanwhile (a note made, a smaller batch) is kept; what waits for the list runs once
/// it shows the batch.
final class NotesListViewBatchTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func note(_ id: String, ago seconds: TimeInterval) -> NoteSummary {
        NoteSummary(id: id, url: URL(fileURLWithPath: "/tmp/" + id), title: "Note \(id)", preview: "",
                    modified: Date(timeIntervalSinceReferenceDate: 800_000_000 - seconds), isValidText: true)
    }

    nonisolated func testALargeBatchMergedElsewhereEndsAsIfMadeInPlace() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            list.mergesOffMainFrom = 50
            let window = Window()
            window.setDefaultSize(width: 400, height: 600)
            window.child = list.root
            var expected: [String: NoteSummary] = [:]
            for n in 0..<400 { expected["n\(n).md"] = note("n\(n).md", ago: Double(n)) }
            list.show(Array(expected.values))
            window.present()
            spin(until: { list.boundRowCount > 0 })
            let selected = (0..<40).map { "n\($0 * 3).md" }  // n0, n3 … n117
            list.changeSelection { $0.selectAll(selected) }
            let lead = list.selectedNotes.lead

            // Notes 0–199 move into "Moved/" (as a bulk move: the selection follows first), notes
            // 300–349 go, notes 350–399 change their time.
            var upserted: [NoteSummary] = [], removed: [String] = []
            for n in 0..<200 {
                removed.append("n\(n).md")
                let moved = note("Moved/n\(n).md", ago: Double(n))
                upserted.append(moved)
                expected["n\(n).md"] = nil
                expected[moved.id] = moved
                list.selectedNotes.rename("n\(n).md", to: moved.id)
            }
            for n in 300..<350 { removed.append("n\(n).md"); expected["n\(n).md"] = nil }
            for n in 350..<400 { let changed = note("n\(n).md", ago: Double(1000 - n)); upserted.append(changed); expected[changed.id] = changed }
            let before = list.orderedIDs
            list.apply(upserted: upserted, removed: removed)
            XCTAssertNotNil(list.batchInFlight, "a batch of 300 changes is merged elsewhere")
            XCTAssertEqual(list.orderedIDs, before, "the list shows what it showed until the batch is merged")
            XCTAssertEqual(list.selectedNotes.count, 40, "the selection waits for the batch")

            // Meanwhile: a note is made (shown at once), a smaller batch comes, the order changes.
            let made = note("made.md", ago: -10)
            list.upsert(made)
            expected[made.id] = made
            XCTAssertEqual(list.orderedIDs.first, made.id, "a note made during the merge shows at once")
            var settledWith: [String]?
            list.whenSettled { settledWith = list.orderedIDs }
            list.apply(upserted: [], removed: ["n200.md", "n201.md"])
            expected["n200.md"] = nil
            expected["n201.md"] = nil
            var laterRan = false
            list.whenSettled { laterRan = true }
            XCTAssertNil(settledWith, "what waits for the list does not run before the batch is shown")

            XCTAssertTrue(spin(until: { laterRan }), "the batch is shown")
            XCTAssertNil(list.batchInFlight)
            let order = list.arrangement.sortedIDs(expected.values)
            XCTAssertEqual(list.orderedIDs, order, "the list is what the changes made in place give")
            XCTAssertEqual(settledWith, order, "what waited saw the whole batch and what came after it")
            for id in order { XCTAssertEqual(list.summary(id), expected[id], id) }
            let stillSelected = Set(selected.map { id in Int(id.dropFirst().dropLast(3)).map { $0 < 200 ? "Moved/\(id)" : id } ?? id })
            XCTAssertEqual(list.selectedNotes.ids, stillSelected, "the selected notes stay selected under their new ids")
            XCTAssertEqual(list.selectedNotes.lead, lead.map { "Moved/" + $0 })
            XCTAssertEqual(list.selectedID, list.selectedNotes.lead, "GTK's row is the lead")
            window.destroy()
        }
    }

    nonisolated func testShowingEveryNoteForgetsABatchBeingMerged() {
        MainActor.assumeIsolated {
            let list = NotesListView()
            list.mergesOffMainFrom = 50
            list.show((0..<100).map { note("n\($0).md", ago: Double($0)) })
            list.apply(upserted: (100..<200).map { note("n\($0).md", ago: Double($0)) }, removed: [])
            var ran = false
            list.whenSettled { ran = true }
            list.show([note("only.md", ago: 0)])
            XCTAssertTrue(spin(until: { ran }), "what waited runs")
            _ = spin(until: { false }, timeout: 0.3)  // the merge's result, had it been kept, came by now
            XCTAssertEqual(list.orderedIDs, ["only.md"])
        }
    }
}

import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The list's contents after a batch (`NoteListBatch`, merged on another thread for large
/// batches) are those of a full sort of the notes the batch leaves, for random batches.
final class NoteListBatchTests: XCTestCase {
    private func note(_ id: String, _ random: inout SeededRandom, indexRow: Int64? = nil) -> NoteSummary {
        var note = NoteSummary(id: id, url: URL(fileURLWithPath: "/tmp/" + id), title: "Title \(random.next(upTo: 50))", preview: "",
                               modified: Date(timeIntervalSinceReferenceDate: Double(random.next(upTo: 200))), isValidText: true)
        note.indexRow = indexRow
        return note
    }

    func testABatchGivesWhatAFullSortGives() {
        for seed: UInt64 in [1, 7, 42] {
            var random = SeededRandom(seed: seed)
            for order in [NoteSortOrder.modified, .created, .title] {
                var arrangement = NoteArrangement(sortOrder: order)
                arrangement.pinned = ["n3.md", "Moved/n5.md"]
                var expected: [String: NoteSummary] = [:]
                for n in 0..<300 { expected["n\(n).md"] = note("n\(n).md", &random, indexRow: Int64(n)) }
                let table = NoteTable(Array(expected.values))
                let sorted = arrangement.sortedIDs(expected.values)
                var upserted: [NoteSummary] = [], removed: [String] = []
                for n in 0..<300 {
                    switch random.next(upTo: 4) {
                    case 0:  // moved: a new id, no index row yet
                        removed.append("n\(n).md")
                        let moved = note("Moved/n\(n).md", &random)
                        upserted.append(moved)
                        expected["n\(n).md"] = nil
                        expected[moved.id] = moved
                    case 1:  // gone
                        removed.append("n\(n).md")
                        expected["n\(n).md"] = nil
                    case 2:  // changed, made outside the index: keeps its index row
                        let changed = note("n\(n).md", &random)
                        upserted.append(changed)
                        expected[changed.id] = { var kept = changed; kept.indexRow = Int64(n); return kept }()
                    default:
                        break
                    }
                }
                let batch = NoteListBatch(upserted: upserted, removed: removed, to: table, sorted: sorted, arrangement: arrangement)
                XCTAssertEqual(batch.sorted, arrangement.sortedIDs(expected.values), "seed \(seed), \(order)")
                XCTAssertEqual(batch.notes.count, expected.count)
                for (id, note) in expected { XCTAssertEqual(batch.notes[id], note, id) }
                XCTAssertEqual(batch.indexRows, batch.sorted.map { expected[$0]?.indexRow ?? -1 })
                XCTAssertEqual(batch.changed, Set(upserted.map(\.id)))
            }
        }
    }
}

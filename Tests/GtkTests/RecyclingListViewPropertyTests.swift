@testable import Gtk
import TestSupport
import XCTest

/// RecyclingListView against a model of what it should show, on the GTK it runs on: seeded
/// random bursts (1 to 5,000 ids at once, or one by one, at the top or anywhere), removals, re-sorts and
/// scrolling far down; after each step every row GTK built shows the id at its place, and the
/// rows in view are the ids at the view's place — a view at the top shows the first ids
/// (GTK 4.8 lost the top after a burst of more than ~200 ids above the rows in view).
/// `NOTULA_LIST_SEED` repeats a failing run.
final class RecyclingListViewPropertyTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private final class IdRow {
        let label = Label()
    }

    nonisolated func testRandomChangesShowTheRightRowsWhereTheViewIs() {
        MainActor.assumeIsolated {
            let seed = ProcessInfo.processInfo.environment["NOTULA_LIST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
            var random = SeededRandom(seed: seed)
            let list = RecyclingListView<IdRow>(widgetOf: { $0.label })
            list.onMakeRow = { IdRow() }
            list.onShowRow = { row, id in row.label.text = id }
            var next = 0
            func fresh(_ count: Int) -> [String] {
                defer { next += count }
                return (next..<(next + count)).map { "id-\($0)" }
            }
            var model = fresh(20)
            list.replace(with: model)
            let scroller = ScrolledWindow()
            scroller.child = list
            let window = Window()
            window.setDefaultSize(width: 300, height: 400)
            window.child = scroller
            window.present()
            defer { window.destroy() }
            XCTAssertTrue(spin(until: { list.row(showing: model[0])?.label.isMapped == true }), "seed \(seed): the first rows are shown")
            XCTAssertTrue(spin(until: { scroller.verticalUpperBound > 0 }), "laid out")
            let rowHeight = scroller.verticalUpperBound / Double(model.count)
            XCTAssertGreaterThan(rowHeight, 5)

            for step in 0..<40 {
                let wasAtTop = scroller.verticalOffset < 0.5
                var what: String
                var oneByOne: [String] = []
                switch random.next(upTo: 8) {
                case 0, 1:
                    let burst = fresh(1 + random.next(upTo: random.chance(0.5) ? 5_000 : 300))
                    model.insert(contentsOf: burst, at: 0)
                    what = "\(burst.count) ids added at the top"
                case 2:
                    let burst = fresh(1 + random.next(upTo: 1_000)), at = random.next(upTo: model.count + 1)
                    model.insert(contentsOf: burst, at: at)
                    what = "\(burst.count) ids at \(at)"
                case 3:
                    let count = min(model.count - 1, 1 + random.next(upTo: max(1, model.count / 2)))
                    let at = random.next(upTo: model.count - count + 1)
                    model.removeSubrange(at..<(at + count))
                    what = "\(count) ids removed at \(at)"
                case 4:
                    var shuffled = model
                    for index in shuffled.indices.reversed() { shuffled.swapAt(index, random.next(upTo: index + 1)) }
                    model = shuffled
                    what = "re-sorted"
                case 5:
                    let target = random.next(upTo: model.count)
                    scroller.verticalOffset = Double(target) * rowHeight
                    what = "scrolled to \(target)"
                case 6:
                    // A sync client's files arriving a few at a time: one change each.
                    oneByOne = fresh(1 + random.next(upTo: 400))
                    model.insert(contentsOf: oneByOne.reversed(), at: 0)
                    what = "\(oneByOne.count) ids added one by one at the top"
                default:
                    scroller.verticalOffset = 0
                    what = "scrolled to the top"
                }
                if !oneByOne.isEmpty {
                    for id in oneByOne { list.splice(at: 0, removing: 0, inserting: [id]) }
                } else if what.hasPrefix("re-sorted") {
                    list.replace(with: model, asNewItems: true)
                } else if !what.hasPrefix("scrolled") {
                    list.replace(with: model)
                }
                let context = "seed \(seed), step \(step) (\(what), \(model.count) ids)"
                XCTAssertEqual(list.ids, model, context)
                // The rows in view: from the view's offset, as many as fit.
                let first = { min(model.count - 1, Int((scroller.verticalOffset + 1) / rowHeight)) }
                let inView = { Array(model[first()..<min(model.count, first() + 10)]) }
                let shown = spin(until: { inView().allSatisfy { list.row(showing: $0)?.label.isMapped == true } })
                XCTAssertTrue(shown, "\(context): rows in view at \(first()) are not built: \(inView().filter { list.row(showing: $0) == nil })")
                if wasAtTop && what.hasSuffix("at the top") {
                    // Ids come above the rows in view of a list at its top: it shows the newest.
                    XCTAssertTrue(spin(until: { scroller.verticalOffset < 0.5 && list.row(showing: model[0])?.label.isMapped == true }),
                                  "\(context): the view left the top (offset \(scroller.verticalOffset))")
                }
                for (id, row) in list.visibleRows {
                    XCTAssertEqual(row.label.text, id, context)
                }
                XCTAssertFalse(list.visibleRows.keys.contains { !Set(model).contains($0) }, "\(context): a row shows an id not in the list")
                if !shown { return }
            }
        }
    }
}

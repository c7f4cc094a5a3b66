import CGtk
@testable import Gtk
import TestSupport
import XCTest

/// RecyclingListView against a model, under random changes of every kind the app makes: bursts
/// of 1 to 5,000 ids above the top in one change, ids arriving one change at a time, removals,
/// re-sorts, scrolls and a row selected far down. After each step, what GTK shows (the rows on
/// screen, read back by where they are) is a gapless run of the model's ids in order that
/// fills the view, starting at the first id when the view is at the top — on whichever GTK
/// runs it (4.8 with its workarounds in Debian 12, 4.18 in Debian 13).
final class RecyclingListViewPropertyTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private enum Step: String, CaseIterable { case burst, oneByOne, removal, resort, scrollSomewhere, scrollToTop, chooseFarDown }

    nonisolated func testRandomChangesAlwaysShowAGaplessRunOfTheModel() {
        MainActor.assumeIsolated {
            for seed in [11, 29, 47, 83, 101] as [UInt64] { run(seed: seed) }
        }
    }

    private func run(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var ids = (0..<60).map { "old-\($0)" }
        var made = 0
        func newIDs(_ count: Int) -> [String] {
            defer { made += count }
            return (made..<made + count).reversed().map { "new-\($0)" }  // newest first
        }
        let (list, scroller, window) = shownList(ids)
        defer { window.destroy() }
        XCTAssertTrue(spin(until: { list.row(showing: ids[0])?.label.isMapped == true }), "seed \(seed): the list is shown")

        var steps: [Step] = []
        for index in 0..<30 {
            let step = Step.allCases[random.next(upTo: Step.allCases.count)]
            steps.append(step)
            let wasAtTop = scroller.verticalOffset < 0.5
            var mustShowTop = false
            switch step {
            case .burst:
                let sizes = [1, 20, 150, 250, 5_000]
                let added = newIDs(ids.count > 8_000 ? 1 : sizes[random.next(upTo: sizes.count)])
                ids = added + ids
                list.replace(with: ids)
                mustShowTop = wasAtTop
            case .oneByOne:
                for _ in 0..<(1 + random.next(upTo: 40)) {
                    let id = newIDs(1)[0]
                    ids.insert(id, at: 0)
                    list.splice(at: 0, removing: 0, inserting: [id])
                }
                mustShowTop = wasAtTop
            case .removal:
                ids = ids.filter { _ in !random.chance(0.1) }
                if ids.isEmpty { ids = newIDs(3) }
                list.replace(with: ids)
            case .resort:
                for position in stride(from: ids.count - 1, to: 0, by: -1) { ids.swapAt(position, random.next(upTo: position + 1)) }
                list.replace(with: ids)
            case .scrollSomewhere:  // the user, once the view is back at the top after ids came above it
                XCTAssertTrue(spin(until: { !list.topRebuildQueued }))
                XCTAssertTrue(spinUntilNextFrame(of: list))
                scroller.verticalOffset = Double(random.next(upTo: 1_000)) / 1_000 * Double(ids.count) * 17
            case .scrollToTop:
                scroller.verticalOffset = 0
                mustShowTop = true
            case .chooseFarDown:  // as a restored session selects its note, wherever it is
                list.selection.selected = random.next(upTo: ids.count)
            }
            // Judged on a layout made after the step (GTK lays out at the next frame).
            XCTAssertTrue(spinUntilNextFrame(of: list))
            var problem: String?
            let settled = spin(until: {
                problem = self.problem(in: list, ids: ids, mustShowTop: mustShowTop)
                return problem == nil
            }, timeout: 5)
            XCTAssertTrue(settled, "seed \(seed), step \(index) (\(step), \(ids.count) ids, was at top: \(wasAtTop)): \(problem ?? ""); "
                          + "the steps: \(steps.map(\.rawValue)), offset \(scroller.verticalOffset)")
            if !settled { return }
        }
    }

    /// What is wrong with what GTK shows now, or nil.
    private func problem(in list: RecyclingListView<IdRow>, ids: [String], mustShowTop: Bool) -> String? {
        let height = Double(list.height)
        var shown: [(id: String, y: Double)] = []
        for (id, row) in list.visibleRows where row.label.isMapped {
            var x = 0.0, y = 0.0
            guard notula_widget_origin_in(row.label.widget, list.widget, &x, &y) != 0 else { continue }
            if y + Double(row.label.height) > 0 && y < height { shown.append((id, y)) }
        }
        shown.sort { $0.y < $1.y }
        guard let first = shown.first, let start = ids.firstIndex(of: first.id) else {
            return "no row on screen (\(list.visibleRows.count) rows bound)"
        }
        let run = Array(ids[start..<min(ids.count, start + shown.count)])
        guard run == shown.map(\.id) else { return "rows on screen \(shown.map(\.id).prefix(12)) are not the model's run \(run.prefix(12))" }
        let gaps = zip(shown, shown.dropFirst()).map { $1.y - $0.y }
        if let smallest = gaps.min(), let largest = gaps.max(), largest > smallest * 1.5 {
            return "a gap between rows on screen: steps of \(smallest) to \(largest) px"
        }
        let step = gaps.max() ?? 20
        // A row's label sits a few pixels into its row: more than half a row is a gap.
        if first.y > step / 2 { return "a gap of \(first.y) px above the first row on screen (\(first.id))" }
        if let last = shown.last, start + shown.count < ids.count, last.y + step * 1.5 < height {
            return "the rows on screen end at \(last.y) px of \(height), \(ids.count - start - shown.count) ids below"
        }
        if mustShowTop, start != 0 { return "the view is not at the top: its first row is \(first.id), the \(start + 1). id" }
        return nil
    }
}

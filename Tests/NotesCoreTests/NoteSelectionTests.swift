import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The selection of the notes list by id (issue #47): clicks, ranges, select all, and the
/// list changing under it (notes added and removed, re-sorts, searches) against a model.
final class NoteSelectionTests: XCTestCase {
    func testClicksRangesAndSelectAll() {
        let order = ["a", "b", "c", "d", "e"]
        var selection = NoteSelection()
        selection.selectOnly("b")
        selection.toggle("d")
        XCTAssertEqual(selection.ids, ["b", "d"])
        XCTAssertEqual(selection.lead, "d")
        selection.extend(to: "e", in: order)
        XCTAssertEqual(selection.ids, ["d", "e"], "from the last Ctrl+clicked note")
        selection.extend(to: "a", in: order)
        XCTAssertEqual(selection.ordered(in: order), ["a", "b", "c", "d"])
        selection.toggle("c")
        XCTAssertEqual(selection.ordered(in: order), ["a", "b", "d"])
        selection.selectAll(order)
        XCTAssertEqual(selection.count, 5)
        selection.selectOnly("c")
        XCTAssertEqual(selection.ids, ["c"])
        selection.toggle("c")
        XCTAssertEqual(selection.ids, ["c"], "the last note stays selected")
    }

    /// Random clicks and list changes: the selection only ever holds notes the user selected
    /// that the list still shows, and every such note stays selected.
    func testTheSameNotesStaySelectedThroughRandomListChanges() {
        for seed in [1, 7, 42, 99, 2026] as [UInt64] {
            var random = SeededRandom(seed: seed)
            var all = (0..<40).map { "n\($0)" }
            var next = 40
            var order = all
            var filter: ((String) -> Bool)? = nil
            var selection = NoteSelection()
            var expected = Set<String>()
            for _ in 0..<300 {
                switch random.next(upTo: 8) {
                case 0 where !order.isEmpty:
                    let id = order[random.next(upTo: order.count)]
                    selection.selectOnly(id)
                    expected = [id]
                case 1 where !order.isEmpty:
                    let id = order[random.next(upTo: order.count)]
                    let wasOnly = expected == [id]
                    selection.toggle(id)
                    if expected.contains(id) { if !wasOnly { expected.remove(id) } } else { expected.insert(id) }
                case 2 where !order.isEmpty:
                    selection.selectAll(order)
                    expected = Set(order)
                case 3:  // another program adds notes
                    for _ in 0..<random.next(upTo: 5) {
                        all.insert("n\(next)", at: random.next(upTo: all.count + 1))
                        next += 1
                    }
                case 4 where !all.isEmpty:  // or removes some
                    for _ in 0..<random.next(upTo: 4) where !all.isEmpty { all.remove(at: random.next(upTo: all.count)) }
                case 5:  // a re-sort
                    for i in stride(from: all.count - 1, to: 0, by: -1) { all.swapAt(i, random.next(upTo: i + 1)) }
                case 6:  // a search starts or ends
                    let digit = String(random.next(upTo: 10))
                    filter = filter == nil ? { $0.hasSuffix(digit) } : nil
                default:
                    break
                }
                order = filter.map { all.filter($0) } ?? all
                let shown = Set(order)
                selection.keep(where: shown.contains)
                expected.formIntersection(shown)
                XCTAssertEqual(selection.ids, expected, "seed \(seed)")
                if let lead = selection.lead { XCTAssertTrue(selection.contains(lead), "seed \(seed)") }
            }
        }
    }

    func testADragOfSeveralNotesCarriesTheirIds() {
        let ids = ["a.md", "Work/b c.md", "odd\nname.md", "100%.md"]
        XCTAssertEqual(DraggedNotes.ids(in: DraggedNotes.text(for: ids)), ids)
        XCTAssertEqual(DraggedNotes.text(for: ["one.md"]), "one.md")
        XCTAssertEqual(DraggedNotes.ids(in: "one.md"), ["one.md"])
        XCTAssertEqual(DraggedNotes.ids(in: ""), [])
    }

    func testRenamingFollowsMovedNotesAsRenamingEachDoes() {
        var selection = NoteSelection()
        selection.selectAll(["a.md", "b.md", "c.md"])
        selection.toggle("b.md")
        selection.toggle("b.md")  // b is lead and anchor
        let moves = ["a.md": "Work/a.md", "b.md": "Work/b.md", "gone.md": "Work/gone.md"]
        var oneByOne = selection
        for (from, to) in moves { oneByOne.rename(from, to: to) }
        let renamed = selection.renaming(moves)
        XCTAssertEqual(renamed, oneByOne)
        XCTAssertEqual(renamed.ids, ["Work/a.md", "Work/b.md", "c.md"])
        XCTAssertEqual(renamed.lead, "Work/b.md")
        XCTAssertEqual(renamed.anchor, "Work/b.md")
    }

    func testPathNameSplitsAsNSStringDoes() {
        for path in ["note.md", "Work/note.md", "Work/Q1/note.md", "Wörk/ünïcode.md", "a/.hidden", "a/", "", "Work/foo.", "Work/.md", "Work/x.tar.gz"] {
            XCTAssertEqual(PathName.last(path), path.hasSuffix("/") ? "" : (path as NSString).lastPathComponent, path)
            if !path.hasSuffix("/") { XCTAssertEqual(PathName.parent(path), (path as NSString).deletingLastPathComponent, path) }
            let name = PathName.last(path)
            XCTAssertEqual(PathName.hasExtension(name), !(name as NSString).pathExtension.isEmpty, path)
        }
    }
}

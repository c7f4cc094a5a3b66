import XCTest
@testable import NotesCore

/// The merge that runs when a note changes on disk under unsaved edits.
final class ThreeWayMergeTests: XCTestCase {
    let base = "Groceries\nmilk\nbread\neggs\n\nCall Ann\nPay rent\n"

    func testEditsFarApartMerge() {
        let ours = "Groceries\nmilk\nbread\neggs\ncheese\n\nCall Ann\nPay rent\n"
        let theirs = "Groceries\nmilk\nbread\neggs\n\nCall Ann\nPay rent on Friday\n"
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs),
                       .merged("Groceries\nmilk\nbread\neggs\ncheese\n\nCall Ann\nPay rent on Friday\n"))
    }

    func testSameLineChangedDifferentlyConflicts() {
        let ours = base.replacingOccurrences(of: "bread", with: "rye bread")
        let theirs = base.replacingOccurrences(of: "bread", with: "white bread")
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs), .conflict)
    }

    func testNeighbouringLinesConflictAsInGit() {
        let ours = base.replacingOccurrences(of: "milk", with: "oat milk")
        let theirs = base.replacingOccurrences(of: "bread", with: "rye bread")
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs), .conflict)
    }

    func testSameChangeOnBothSidesMergesOnce() {
        let both = base + "Water plants\n"
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: both, theirs: both), .merged(both))
        let ours = "Title changed\n" + base.dropFirst("Groceries\n".count) + "Water plants\n"
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: both), .merged(ours))
    }

    func testOnlyOneSideChanged() {
        let theirs = base + "more\n"
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: base, theirs: theirs), .merged(theirs))
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: theirs, theirs: base), .merged(theirs))
    }

    func testDeletionAndFarEditMerge() {
        let ours = "Groceries\nmilk\nbread\neggs\n\nPay rent\n"  // removed "Call Ann"
        let theirs = "Shopping\nmilk\nbread\neggs\n\nCall Ann\nPay rent\n"
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs), .merged("Shopping\nmilk\nbread\neggs\n\nPay rent\n"))
    }

    func testDeletionAgainstEditOfTheSameLineConflicts() {
        let ours = base.replacingOccurrences(of: "Call Ann\n", with: "")
        let theirs = base.replacingOccurrences(of: "Call Ann", with: "Call Ann at 5")
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs), .conflict)
    }

    func testEmptyBaseWithTwoDifferentTextsConflicts() {
        XCTAssertEqual(ThreeWayMerge.merge(base: "", ours: "mine\n", theirs: "yours\n"), .conflict)
    }

    func testUnicodeAndMissingFinalNewline() {
        let base = "Café\nÜber\nend"
        let ours = "Café ☕\nÜber\nend"
        let theirs = "Café\nÜber\nend."
        XCTAssertEqual(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs), .merged("Café ☕\nÜber\nend."))
    }

    func testLongNoteWithManyFarApartEditsKeepsEveryWord() {
        let lines = (0..<5000).map { "line \($0)\n" }
        var ours = lines, theirs = lines
        for index in stride(from: 10, to: 5000, by: 100) { ours[index] = "ours \(index)\n" }
        for index in stride(from: 60, to: 5000, by: 100) { theirs[index] = "theirs \(index)\n" }
        guard case .merged(let merged) = ThreeWayMerge.merge(base: lines.joined(), ours: ours.joined(), theirs: theirs.joined()) else {
            return XCTFail("far-apart edits must merge")
        }
        let mergedLines = LineDiff.lines(merged)
        XCTAssertEqual(mergedLines.count, 5000)
        XCTAssertEqual(mergedLines[10], "ours 10\n")
        XCTAssertEqual(mergedLines[60], "theirs 60\n")
        XCTAssertEqual(mergedLines[4999], "line 4999\n")
    }
}

final class LineDiffTests: XCTestCase {
    func testLinesKeepTheirTerminators() {
        XCTAssertEqual(LineDiff.lines("a\nb\n\nc"), ["a\n", "b\n", "\n", "c"])
        XCTAssertEqual(LineDiff.lines(""), [])
        XCTAssertEqual(LineDiff.lines("a\nb\n").joined(), "a\nb\n")
    }

    func testAddedAndRemovedLines() {
        let diff = LineDiff(old: "one\ntwo\nthree\nfour\n", new: "one\n2\nthree\nfour\nfive\n")
        XCTAssertEqual(Array(diff.removedLines), [1])
        XCTAssertEqual(Array(diff.addedLines), [1, 4])
    }

    func testMatchesAreALongestCommonSubsequence() {
        let diff = LineDiff(old: "a\nb\nc\na\nb\nb\na\n", new: "c\nb\na\nb\na\nc\n")
        XCTAssertEqual(diff.matches.count, 4)  // Myers' paper: LCS of ABCABBA and CBABAC is 4
        for (first, second) in zip(diff.matches, diff.matches.dropFirst()) {
            XCTAssertLessThan(first.old, second.old)
            XCTAssertLessThan(first.new, second.new)
        }
        for pair in diff.matches { XCTAssertEqual(diff.old[pair.old], diff.new[pair.new]) }
    }

    func testCompletelyRewrittenNoteIsOneChange() {
        let old = (0..<3000).map { "old \($0)\n" }.joined()
        let new = (0..<3000).map { "new \($0)\n" }.joined()
        let diff = LineDiff(old: old, new: new)
        XCTAssertEqual(diff.removedLines.count, 3000)
        XCTAssertEqual(diff.addedLines.count, 3000)
    }

    func testOffsetsFollowTheirLineWhenLinesBeforeThemChange() {
        let old = "Groceries\n- bread\nand butter"
        let new = "Groceries for Saturday\n- bread\nand butter"
        XCTAssertEqual(LineDiff.mapOffset(old.unicodeScalars.count, from: old, to: new), new.unicodeScalars.count, "end stays at the end")
        XCTAssertEqual(LineDiff.mapOffset(12, from: old, to: new), 25, "inside “- bread”")
        XCTAssertEqual(LineDiff.mapOffset(3, from: old, to: new), 3, "a changed line keeps the start of where it was")
        XCTAssertEqual(LineDiff.mapOffset(2, from: "ü\nab", to: "ü\nab"), 2, "counted in Unicode scalars, as GTK counts")
        XCTAssertEqual(LineDiff.mapOffset(5, from: "a\nb\nc", to: ""), 0)
    }

    func testHunksTurnTheOldTextIntoTheNew() {
        for (old, new) in [("a\nb\nc\n", "a\nB\nc\nd\n"), ("a\nb\n", ""), ("", "x\ny"), ("a\nb\nc", "c"), ("same\n", "same\n"),
                           ("1\n2\n3\n4\n5\n", "0\n1\n3\n4\n4.5\n5")] {
            var lines = LineDiff.lines(old).map(String.init)
            for hunk in LineDiff(old: old, new: new).hunks.reversed() {
                lines.replaceSubrange(hunk.oldLines, with: [hunk.newText])
            }
            XCTAssertEqual(lines.joined(), new, "\(old.debugDescription) → \(new.debugDescription)")
        }
    }
}

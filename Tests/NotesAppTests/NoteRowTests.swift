import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// A notes-list row is two lines, whatever it shows: the list's rows are all one height, and
/// GTK 4.8 guesses the height of rows it has not made from those it has.
final class NoteRowTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func note(_ title: String, preview: String) -> NoteSummary {
        NoteSummary(id: "a.md", url: URL(fileURLWithPath: "/tmp/a.md"), title: title, preview: preview,
                    modified: Date(), isValidText: true)
    }

    nonisolated func testEveryRowIsAsHighAsAPlainOne() {
        MainActor.assumeIsolated {
            StyleSheet.replace(css: AppStyle.css, key: "NoteRowTests")  // the app's padding of the conflict dot
            defer { StyleSheet.remove(key: "NoteRowTests") }
            let plain = NoteRow(), waiting = NoteRow(), breaks = NoteRow(), searched = NoteRow()
            let pinnedInConflict = NoteRow()
            plain.show(note("Groceries", preview: "oat milk"), time: "Yesterday")
            waiting.place(note("Groceries", preview: "oat milk"), time: "Yesterday")
            // A note's first lines end only at "\n"; Pango breaks at these too.
            breaks.show(note("One\rtwo\u{2028}three", preview: "four\u{2029}five\r\nsix"), time: "Yesterday")
            searched.show(note("Groceries", preview: "oat milk"), time: "Yesterday", query: "milk")
            var conflicted = note("Groceries", preview: "oat milk")
            conflicted.conflictCopies = ["a (conflict).md"]
            pinnedInConflict.show(conflicted, time: "Yesterday", pinned: true)
            let column = Box(.vertical)
            for row in [plain, waiting, breaks, searched, pinnedInConflict] { column.append(row.root) }
            let window = Window()
            defer { window.destroy() }
            window.child = column
            window.present()
            spin(until: { plain.root.height > 0 })
            XCTAssertTrue(waiting.isPlaceholder)
            XCTAssertEqual(breaks.shownTitle, "One\rtwo\u{2028}three", "the title is kept as the note has it")
            XCTAssertTrue(pinnedInConflict.showsPin && pinnedInConflict.showsConflict)
            for (name, row) in [("waiting", waiting), ("breaks", breaks), ("searched", searched), ("pinned, in conflict", pinnedInConflict)] {
                XCTAssertEqual(row.root.height, plain.root.height, name)
            }
        }
    }
}

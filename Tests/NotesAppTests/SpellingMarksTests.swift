import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// Spelling on the real GtkSourceView with the real Hunspell dictionaries: which words carry the
/// mark, only near the view, following edits, the word being typed left alone, the menu's fixes,
/// F7, the note's own language — and never a byte of the note changed by marking.
final class SpellingMarksTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var changes = 0

    private func shownEditor(_ text: String, language: String = "en_US", location: NoteLocation? = nil) -> EditorView {
        let window = Window()
        window.setDefaultSize(width: 700, height: 500)
        let editor = EditorView()
        window.child = editor.root
        window.present()
        addTeardownBlock { window.destroy() }
        if let location { editor.noteLocation = { location } }
        var preferences = Preferences()
        preferences.spellingLanguage = language
        editor.configureSpelling(preferences)
        editor.show(text: text, editable: true)
        editor.onChange = { [weak self] _ in self?.changes += 1 }
        XCTAssertTrue(settle(editor), "spelling never settled")
        return editor
    }

    @discardableResult
    private func settle(_ editor: EditorView) -> Bool {
        spin(until: { editor.spelling.language != nil && editor.highlighter.isComplete && editor.spelling.marks.isComplete }, timeout: 10)
    }

    private func marked(_ editor: EditorView) -> [String] {
        editor.spelling.marks.markedRanges().map { editor.buffer.text(in: $0) }
    }

    nonisolated func testMisspelledProseIsMarkedAndNothingElseAndNoByteChanges() {
        MainActor.assumeIsolated {
            let text = "Shoping list\nThis is a mispelled word.\n- `grpe` and https://exmple.org/brd and notes.md\n```\nlet mispeled = 1\n```\nNASA is fine\n"
            let editor = shownEditor(text)
            XCTAssertEqual(marked(editor), ["Shoping", "mispelled"])
            XCTAssertEqual(editor.text, text)
            XCTAssertEqual(changes, 0, "marking is no edit")
            XCTAssertFalse(editor.buffer.canUndo)
        }
    }

    /// A note switch draws the next note once, with its marks and counts: they are there when
    /// `show` returns, before GTK lays the text out (not in a second frame after it).
    nonisolated func testANoteShownHasItsMarksAndCountsBeforeItsFirstFrame() {
        MainActor.assumeIsolated {
            let editor = shownEditor("First note\nNothing wrong here.\n")
            let lines = (1...40).map { "Line \($0) has a mispelled word." }
            editor.show(text: "Secnd note\n" + lines.joined(separator: "\n"), editable: true)
            let markedLines = Set(editor.spelling.marks.markedRanges().map { editor.buffer.line(atOffset: $0.lowerBound) })
            XCTAssertTrue(markedLines.isSuperset(of: 0...10), "marked at once: lines \(markedLines.sorted())")
            XCTAssertEqual(editor.counts.root.text, "242 words, 1,161 characters")
            XCTAssertTrue(settle(editor))
            XCTAssertEqual(Set(marked(editor)), ["Secnd", "mispelled"])
            XCTAssertEqual(editor.spelling.marks.markedRanges().count, 41)
        }
    }

    nonisolated func testOnlyLinesNearTheViewCarryMarks() {
        MainActor.assumeIsolated {
            let lines = 3000
            let editor = shownEditor("Title\n" + String(repeating: "A line with a mispelled word\n", count: lines))
            let markedLines = Set(editor.spelling.marks.markedRanges().map { editor.buffer.line(atOffset: $0.lowerBound) })
            XCTAssertTrue(markedLines.contains(1))
            XCTAssertLessThanOrEqual(markedLines.count, editor.visibleLines.count + 2 * SpellingMarks.margin + 1)
            XCTAssertFalse(markedLines.contains(lines), "the last line is far from the view")
            // At the end: the end is marked, the top is not any more.
            spin(until: {
                editor.scrollOffset = editor.scrollUpperBoundForTesting
                return editor.visibleLines.contains(lines)
            })
            XCTAssertTrue(spin(until: {
                let now = Set(editor.spelling.marks.markedRanges().map { editor.buffer.line(atOffset: $0.lowerBound) })
                return editor.spelling.marks.isComplete && now.contains(lines) && !now.contains(1)
            }))
            XCTAssertLessThanOrEqual(editor.spelling.marks.markedRanges().count, editor.visibleLines.count + 4 * SpellingMarks.margin + 2)
        }
    }

    nonisolated func testTheWordBeingTypedIsMarkedOnlyOnceTheCursorLeavesIt() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\n")
            editor.buffer.cursorOffset = editor.buffer.characterCount
            for character in "This is mispeled" { editor.textView.type(String(character)) }
            settle(editor)
            XCTAssertEqual(marked(editor), [], "still being typed")
            editor.textView.type(" ")
            XCTAssertTrue(spin(until: { self.marked(editor) == ["mispeled"] }))
            // Back into it and typing: unmarked again while typed, marked when left by a click elsewhere.
            editor.buffer.cursorOffset = editor.buffer.characterCount - 2
            editor.textView.type("x")
            settle(editor)
            XCTAssertEqual(marked(editor), [])
            editor.buffer.cursorOffset = 0
            XCTAssertTrue(spin(until: { self.marked(editor) == ["mispelexd"] }))
        }
    }

    nonisolated func testMarksFollowEditsUndoAndAMegabytePaste() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\nA mispelled word\n")
            editor.buffer.replace(6..<6, with: "New line above\n")
            editor.buffer.cursorOffset = 0
            XCTAssertTrue(spin(until: { editor.spelling.marks.isComplete && self.marked(editor) == ["mispelled"] }))
            XCTAssertEqual(editor.spelling.marks.markedRanges().first.map { editor.buffer.line(atOffset: $0.lowerBound) }, 2)
            editor.buffer.undo()
            XCTAssertEqual(editor.text, "Title\nA mispelled word\n")
            XCTAssertTrue(spin(until: { editor.spelling.marks.isComplete && editor.spelling.marks.markedRanges().first.map { editor.buffer.line(atOffset: $0.lowerBound) } == 1 }))
            // A megabyte pasted at the end: marked near the view only, its bytes as pasted.
            let paste = String(repeating: "Some prose with a wrng word in it, and more words after that.\n", count: 17_000)
            let before = editor.text
            editor.buffer.replace(editor.buffer.characterCount..<editor.buffer.characterCount, with: paste)
            editor.buffer.cursorOffset = 0
            settle(editor)
            XCTAssertEqual(editor.text, before + paste)
            let marks = editor.spelling.marks.markedRanges()
            XCTAssertTrue(marks.allSatisfy { editor.buffer.text(in: $0) == "mispelled" || editor.buffer.text(in: $0) == "wrng" })
            XCTAssertLessThan(marks.count, 400, "only lines near the view")
            editor.buffer.undo()
            XCTAssertEqual(editor.text, before)
        }
    }

    nonisolated func testAFenceTypedAboveTurnsMarkedProseIntoCode() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\nmispelled one\nmispelled two\n")
            XCTAssertEqual(marked(editor).count, 2)
            editor.buffer.replace(6..<6, with: "```\n")
            editor.buffer.cursorOffset = 0
            XCTAssertTrue(spin(until: { editor.spelling.marks.isComplete && self.marked(editor).isEmpty }))
        }
    }

    nonisolated func testASuggestionReplacesTheWordAsOneUndoableEdit() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\nThis is a mispelled word\n")
            let offset = (editor.text as NSString).range(of: "mispelled").location + 3
            editor.spelling.prepareMenu(atOffset: offset)
            let suggestions = editor.spelling.offeredSuggestions
            XCTAssertTrue(suggestions.contains("misspelled"), "\(suggestions)")
            XCTAssertLessThanOrEqual(suggestions.count, 5)
            XCTAssertEqual(editor.spelling.menuSections[0].count, suggestions.count)
            XCTAssertTrue(editor.textView.activateAction("spelling.suggestion-\(suggestions.firstIndex(of: "misspelled")!)"))
            XCTAssertEqual(editor.text, "Title\nThis is a misspelled word\n")
            XCTAssertTrue(spin(until: { editor.spelling.marks.isComplete && self.marked(editor).isEmpty }))
            editor.buffer.undo()
            XCTAssertEqual(editor.text, "Title\nThis is a mispelled word\n")
            // Off a marked word the menu has no spelling items.
            editor.spelling.prepareMenu(atOffset: 2)
            XCTAssertEqual(editor.spelling.menuSections[0].count + editor.spelling.menuSections[1].count, 0)
        }
    }

    nonisolated func testAddToDictionaryAndIgnoreAllUnmarkEveryOccurrence() {
        MainActor.assumeIsolated {
            let added = "Quorblin" + String((0..<4).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
            let ignored = "Zemplarq"
            let editor = shownEditor("Title\n\(added) and \(ignored)\nagain \(added) and \(ignored)\n")
            XCTAssertEqual(marked(editor), [added, ignored, added, ignored])
            editor.spelling.prepareMenu(atOffset: 6)
            XCTAssertTrue(editor.textView.activateAction("spelling.add"))
            XCTAssertTrue(spin(until: { editor.spelling.marks.isComplete && self.marked(editor) == [ignored, ignored] }))
            let offset = (editor.text as NSString).range(of: ignored).location
            editor.spelling.prepareMenu(atOffset: offset)
            XCTAssertTrue(editor.textView.activateAction("spelling.ignore"))
            XCTAssertTrue(spin(until: { editor.spelling.marks.isComplete && self.marked(editor).isEmpty }))
            // The added word is in the personal word list; a new broker (a restart) knows it.
            XCTAssertTrue(SpellingBroker().dictionary(for: "en_US")?.isCorrect(added) ?? false)
            XCTAssertFalse(SpellingBroker().dictionary(for: "en_US")?.isCorrect(ignored) ?? true)
        }
    }

    nonisolated func testF7SelectsTheNextMisspelledWordAndWrapsAround() {
        MainActor.assumeIsolated {
            let lines = (0..<400).map { $0 == 10 ? "first wrng here" : $0 == 390 ? "far awway down" : "fine words only" }
            let editor = shownEditor("Title\n" + lines.joined(separator: "\n") + "\n")
            editor.buffer.cursorOffset = 0
            XCTAssertTrue(editor.spelling.selectNextMisspelling())
            XCTAssertEqual(editor.buffer.text(in: editor.buffer.selection), "wrng")
            XCTAssertTrue(editor.spelling.selectNextMisspelling(), "past the view: checked as the search reaches it")
            XCTAssertEqual(editor.buffer.text(in: editor.buffer.selection), "awway")
            XCTAssertTrue(editor.spelling.selectNextMisspelling())
            XCTAssertEqual(editor.buffer.text(in: editor.buffer.selection), "wrng", "wrapped around")
            XCTAssertTrue(editor.spelling.selectNextMisspelling(backward: true))
            XCTAssertEqual(editor.buffer.text(in: editor.buffer.selection), "awway")
            XCTAssertEqual(changes, 0)
        }
    }

    nonisolated func testANotesOwnLanguageChecksItAndIsKeptInTheLibrary() throws {
        try MainActor.assumeIsolated {
            let library = makeFolder()
            let editor = shownEditor("Titel\nRechtschreibung und Rechtschreibng\n", location: NoteLocation(library: library, noteID: "Work/note-1.md"))
            XCTAssertEqual(editor.spelling.language, "en_US")
            editor.spelling.chooseNoteLanguage("de_DE")
            XCTAssertTrue(spin(until: { editor.spelling.language == "de_DE" && editor.spelling.marks.isComplete && self.marked(editor) == ["Rechtschreibng"] }))
            XCTAssertEqual(NoteLanguages(library: library).language(ofNoteAt: "Work/note-1.md"), "de_DE")
            let file = try String(contentsOf: library.appendingPathComponent(".notula/languages.txt"), encoding: .utf8)
            XCTAssertTrue(file.contains("note-1.md\tde_DE"), file)
            XCTAssertEqual(editor.text, "Titel\nRechtschreibung und Rechtschreibng\n")
        }
    }

    nonisolated func testALanguageThatCannotBeSavedIsSaidAndNothingChanges() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 256)
            try disk.remountReadOnly()
            let (top, editor, _) = makeEditorWindow()
            editor.noteLocation = { NoteLocation(library: disk.url, noteID: "note.md") }
            var preferences = Preferences()
            preferences.spellingLanguage = "en_US"
            editor.configureSpelling(preferences)
            editor.show(text: "Title\nA mispelled word\n", editable: true)
            XCTAssertTrue(settle(editor))
            editor.spelling.chooseNoteLanguage("de_DE")
            XCTAssertEqual(top.received.count, 1, "said once, through the error chain")
            XCTAssertEqual((top.received.first as? OperationError)?.action, .chooseLanguage, "\(top.received)")
            XCTAssertNil(editor.spelling.noteLanguage)
            XCTAssertEqual(editor.spelling.language, "en_US")
            XCTAssertEqual(marked(editor), ["mispelled"])
            XCTAssertEqual(editor.text, "Title\nA mispelled word\n")
        }
    }

    nonisolated func testSpellingOffMarksNothing() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\nA mispelled word\n")
            XCTAssertEqual(marked(editor), ["mispelled"])
            var preferences = Preferences()
            preferences.checkSpelling = false
            editor.configureSpelling(preferences)
            XCTAssertEqual(marked(editor), [])
            XCTAssertNil(editor.spelling.language)
        }
    }

    /// Nothing to check, nothing loaded: an editor that has shown no note takes no dictionary
    /// (an empty library's window keeps Hunspell's ~9 MB out), and takes one with its first note.
    nonisolated func testNoDictionaryIsTakenBeforeANoteIsShown() {
        MainActor.assumeIsolated {
            _ = shownEditor("Title\nwords\n")  // loaded: a check would now take it at once
            let window = Window()
            let editor = EditorView()
            window.child = editor.root
            window.present()
            addTeardownBlock { window.destroy() }
            var preferences = Preferences()
            preferences.spellingLanguage = "en_US"
            editor.configureSpelling(preferences)
            XCTAssertNil(editor.spelling.language)
            editor.show(text: "Title\nA mispelled word\n", editable: true)
            XCTAssertTrue(settle(editor), "spelling never settled")
            XCTAssertEqual(editor.spelling.language, "en_US")
        }
    }
}

import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// How text comes into the real editor (GtkSourceView): a paste through GTK's clipboard and
/// random typing, replacing and deleting keep the note's line breaks exactly as `LineBreaks`
/// says, undo and redo put back exactly what was there, and the Markdown keys hand a key
/// they act on to the input method first.
final class EditorInputTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func shownEditor(_ text: String) -> EditorView {
        let window = Window()
        window.setDefaultSize(width: 600, height: 400)
        let editor = EditorView()
        window.child = editor.root
        window.present()
        addTeardownBlock { window.destroy() }
        XCTAssertTrue(editor.show(text: text, editable: true), "the editor holds the file's text exactly")
        return editor
    }

    /// Pastes `text` at the cursor through GTK's clipboard, as Ctrl+V does.
    private func paste(_ text: String, into editor: EditorView) {
        let before = editor.text
        editor.textView.copyToClipboard(text)
        XCTAssertTrue(editor.textView.activateAction("clipboard.paste"))
        XCTAssertTrue(spin(until: { editor.text != before }), "the paste did not arrive")
    }

    nonisolated func testPastingWindowsTextGivesTheNotesLineBreaks() {
        MainActor.assumeIsolated {
            let file = Data("Windows note\r\nline two\r\n".utf8)
            let decoded = NoteEncoding.decode(file)
            let editor = shownEditor(decoded.text)
            editor.buffer.cursorOffset = editor.buffer.characterCount
            paste("a\r\nb\r\n", into: editor)
            paste("c\rd\ne\r\n", into: editor)
            XCTAssertEqual(editor.text, "Windows note\nline two\na\nb\nc\nd\ne\n")
            XCTAssertEqual(decoded.encoding.encode(editor.text), Data("Windows note\r\nline two\r\na\r\nb\r\nc\r\nd\r\ne\r\n".utf8))
            editor.buffer.undo()
            XCTAssertEqual(editor.text, "Windows note\nline two\na\nb\n", "a paste is one undo step")
            editor.buffer.undo()
            XCTAssertEqual(editor.text, decoded.text)
        }
    }

    /// The clipboard answers a moment after Ctrl+V: a key typed meanwhile goes after the pasted
    /// text, as it was typed after the paste, and a selection at Ctrl+V is what the paste replaces.
    nonisolated func testKeysTypedBeforeThePasteArrivesGoAfterIt() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\nab cd")
            editor.buffer.cursorOffset = 7  // after "a"
            editor.textView.copyToClipboard("PASTED")
            XCTAssertTrue(editor.textView.activateAction("clipboard.paste"))
            editor.buffer.replace(7..<7, with: "x")  // typed before the clipboard answered
            XCTAssertTrue(spin(until: { editor.text.contains("PASTED") }), "the paste did not arrive")
            XCTAssertEqual(editor.text, "Title\naPASTEDxb cd")
            editor.buffer.selection = 16..<18  // "cd"
            editor.textView.copyToClipboard("EF")
            XCTAssertTrue(editor.textView.activateAction("clipboard.paste"))
            XCTAssertTrue(spin(until: { editor.text.contains("EF") }), "the paste did not arrive")
            XCTAssertEqual(editor.text, "Title\naPASTEDxb EF")
        }
    }

    nonisolated func testReplaceAllWithWindowsTextGivesTheNotesLineBreaks() {
        MainActor.assumeIsolated {
            let decoded = NoteEncoding.decode(Data("Pets\r\ncat\r\nold cat\r\n".utf8))
            let editor = shownEditor(decoded.text)
            editor.findBar.open(replacing: true)
            editor.findBar.findEntry.text = "cat"
            spin(until: { editor.findBar.countText.contains("2") })
            editor.findBar.replaceEntry.text = "dog\r\nand\rbird"  // pasted into the field from Windows text
            XCTAssertEqual(editor.findBar.replaceEntry.text, "dog\r\nand\rbird", "the field keeps what was pasted")
            XCTAssertEqual(editor.findBar.replaceAll(), 2)
            XCTAssertEqual(editor.text, "Pets\ndog\nand\nbird\nold dog\nand\nbird\n")
            XCTAssertEqual(decoded.encoding.encode(editor.text), Data("Pets\r\ndog\r\nand\r\nbird\r\nold dog\r\nand\r\nbird\r\n".utf8))
            editor.buffer.undo()
            XCTAssertEqual(editor.text, decoded.text, "still one undo step")
        }
    }

    nonisolated func testRestoringAVersionGivesTheNotesLineBreaks() {
        MainActor.assumeIsolated {
            // A version kept while the file was mixed, restored into the note now CRLF.
            let decoded = NoteEncoding.decode(Data("Note\r\nnew\r\n".utf8))
            let editor = shownEditor(decoded.text)
            editor.replaceTextAsEdit("Note\r\nold\nlines\r\r\n")
            XCTAssertEqual(editor.text, "Note\nold\nlines\n\n")
            XCTAssertEqual(decoded.encoding.encode(editor.text), Data("Note\r\nold\r\nlines\r\n\r\n".utf8))
            editor.buffer.undo()
            XCTAssertEqual(editor.text, decoded.text, "a restore is one undo step")
            // A reload from disk is not an edit: the file's text goes in exactly.
            editor.replaceText("Note\r\nmixed\nnow\r")
            XCTAssertEqual(editor.text, "Note\r\nmixed\nnow\r")
        }
    }

    /// What the editor's text must be after an edit made as `TextBuffer` makes it: a
    /// replacement deletes, then inserts where it deleted, each edit guarded.
    private func model(_ text: inout [Unicode.Scalar], replacing range: Range<Int>, with replacement: String) {
        func make(_ edit: LineBreaks.Edit) -> Int {
            let snapshot = text
            let made = LineBreaks.guarded(edit) { snapshot.indices.contains($0) ? snapshot[$0] : nil } ?? edit
            text.replaceSubrange(made.range, with: Array(made.text.unicodeScalars))
            return made.range.lowerBound + made.text.unicodeScalars.count
        }
        var at = range.lowerBound
        if !range.isEmpty { at = make(LineBreaks.Edit(range: range, text: "")) }
        if !replacement.isEmpty { _ = make(LineBreaks.Edit(range: at..<at, text: replacement)) }
    }

    private static let pieces = ["a", "é", "😀", " ", "- ", "\n", "\r\n", "\r", "\r\n"]

    /// Seeded random typing, replacing, deleting, pasting, undo and redo on the real buffer of
    /// LF, CRLF and mixed notes: the buffer holds what `LineBreaks` says after every edit, the
    /// saved bytes have no "\r\r\n" an edit made and an LF or CRLF note's every line ends in its
    /// convention; undo and redo give back texts that were there, byte for byte.
    nonisolated func testRandomEditsOnTheRealBufferKeepTheNotesLineBreaks() {
        MainActor.assumeIsolated {
            var seed: UInt64 = 7
            func random(upTo bound: Int) -> Int {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Int((seed >> 33) % UInt64(max(bound, 1)))
            }
            var edits = 0
            let files = ["Title\nline\n- item\n", "Title\r\nline\r\n- item\r\n", "Title\r\nline\nold\rmac\r\n- item\r\n", "a\rb\r\nc\r\r\nd"]
            for (round, file) in (0..<24).map({ ($0, files[$0 % files.count]) }) {
                let decoded = NoteEncoding.decode(Data(file.utf8))
                let editor = shownEditor(decoded.text)
                var text = Array(decoded.text.unicodeScalars)
                var seen: Set<String> = [decoded.text]
                for step in 0..<30 {
                    let current = String(String.UnicodeScalarView(text))
                    let context = "round \(round) step \(step): \(file.debugDescription) → \(current.debugDescription)"
                    let piece = (0..<1 + random(upTo: 4)).map { _ in Self.pieces[random(upTo: Self.pieces.count)] }.joined()
                    let lower = random(upTo: text.count + 1)
                    let upper = min(text.count, lower + random(upTo: 4))
                    // GTK's own editing never starts or ends inside a "\r\n" (its undo of such an edit upsets Pango).
                    let cutsPair = { (offset: Int) in offset > 0 && offset < text.count && text[offset - 1] == "\r" && text[offset] == "\n" }
                    guard !cutsPair(lower), !cutsPair(upper) else { continue }
                    let operation = random(upTo: 5)
                    switch operation {
                    case 0:  // typing at the cursor
                        editor.buffer.cursorOffset = lower
                        editor.textView.type(piece)
                        model(&text, replacing: lower..<lower, with: piece)
                    case 1:
                        editor.buffer.replace(lower..<upper, with: piece)
                        model(&text, replacing: lower..<upper, with: piece)
                    case 2:
                        guard upper > lower else { continue }
                        editor.buffer.replace(lower..<upper, with: "")
                        model(&text, replacing: lower..<upper, with: "")
                    case 3:  // a paste at the cursor
                        editor.buffer.cursorOffset = lower
                        paste(piece, into: editor)
                        model(&text, replacing: lower..<lower, with: piece)
                    default:
                        guard editor.buffer.canUndo else { continue }
                        editor.buffer.undo()
                        XCTAssertTrue(seen.contains(editor.text), "undo gave a text that never was: \(editor.text.debugDescription), \(context)")
                        editor.buffer.redo()
                        XCTAssertEqual(editor.text, current, "redo: \(context)")
                        continue
                    }
                    edits += 1
                    let shown = String(String.UnicodeScalarView(text))
                    seen.insert(shown)
                    guard editor.text == shown else {
                        return XCTFail("\(operation) \(lower)..<\(upper) \(piece.debugDescription): the editor holds \(editor.text.debugDescription), expected \(shown.debugDescription), \(context)")
                    }
                    let saved = decoded.encoding.encode(editor.text)
                    XCTAssertLessThanOrEqual(saved.occurrences(of: "\r\r\n"),
                                             decoded.encoding.encode(current).occurrences(of: "\r\r\n"), context)
                    switch decoded.encoding.lineEnding {
                    case .lf: XCTAssertFalse(saved.contains(0x0D), context)
                    case .crlf: XCTAssertEqual(saved.filter { $0 == 0x0A }.count, saved.occurrences(of: "\r\n"), context)
                        XCTAssertEqual(saved.filter { $0 == 0x0D }.count, saved.occurrences(of: "\r\n"), context)
                    case .mixed: break
                    }
                }
            }
            XCTAssertGreaterThan(edits, 300)
        }
    }

    nonisolated func testAMarkdownKeyGoesToTheInputMethodFirst() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\n- milk")
            editor.buffer.cursorOffset = editor.buffer.characterCount
            var asked = 0
            // The input method takes Enter (it confirms a composition): the list is not continued.
            XCTAssertTrue(editor.keys.handle(Key.returnKey, 0, inputMethodFirst: { asked += 1; return true }))
            XCTAssertEqual(editor.text, "Title\n- milk")
            XCTAssertEqual(asked, 1)
            // It commits what it had and lets Enter through: the Markdown key acts on the text as it is then.
            XCTAssertTrue(editor.keys.handle(Key.returnKey, 0, inputMethodFirst: { asked += 1; editor.textView.type("é"); return false }))
            XCTAssertEqual(editor.text, "Title\n- milké\n- ")
            XCTAssertEqual(asked, 2)
            // A key the Markdown keys leave alone is not handed over here (the view does, once).
            editor.show(text: "Title\nplain", editable: true)
            editor.buffer.cursorOffset = editor.buffer.characterCount
            XCTAssertFalse(editor.keys.handle(Key.returnKey, 0, inputMethodFirst: { asked += 1; return false }))
            XCTAssertFalse(editor.keys.handle(Key.tab, 0, inputMethodFirst: { asked += 1; return false }))
            XCTAssertEqual(asked, 2)
        }
    }

    /// Vim keys on: the editor starts in Vim's normal mode, where keys are commands (the
    /// Markdown keys stand aside) and the command bar shows; off again (GtkSourceView's input
    /// method then reports no texts at all), keys are text. On and off again and again.
    nonisolated func testVimKeysGoOnAndOffAndTheMarkdownKeysStandAsideInNormalMode() {
        MainActor.assumeIsolated {
            let editor = shownEditor("Title\n- milk")
            XCTAssertFalse(editor.vim.takesCommands)
            XCTAssertFalse(editor.vim.root.isVisible)
            for _ in 0..<3 {
                editor.usesVimKeys = true
                XCTAssertTrue(editor.vim.takesCommands, "normal mode")
                XCTAssertTrue(editor.vim.root.isVisible, "the command bar shows")
                XCTAssertTrue(editor.keys.standsAside())
                editor.usesVimKeys = false
                XCTAssertFalse(editor.vim.takesCommands)
                XCTAssertFalse(editor.vim.root.isVisible)
                XCTAssertFalse(editor.keys.standsAside())
                XCTAssertEqual(editor.vim.root.text, "")
            }
            editor.buffer.cursorOffset = editor.buffer.characterCount
            XCTAssertTrue(editor.keys.handle(Key.returnKey, 0))
            XCTAssertEqual(editor.text, "Title\n- milk\n- ")
        }
    }

    nonisolated func testEnterAfterAThematicBreakIsAPlainEnter() {
        MainActor.assumeIsolated {
            for rule in ["* * *", "- - -", "***", "_ _ _"] {
                let editor = shownEditor("Title\n" + rule)
                editor.buffer.cursorOffset = editor.buffer.characterCount
                XCTAssertFalse(editor.keys.handle(Key.returnKey, 0), "Enter after \(rule) is GTK's own")
                XCTAssertFalse(editor.keys.handle(Key.tab, 0), "Tab after \(rule) is GTK's own")
                XCTAssertEqual(editor.text, "Title\n" + rule)
            }
        }
    }
}

private extension Data {
    func occurrences(of text: String) -> Int {
        let needle = [UInt8](text.utf8), bytes = [UInt8](self)
        guard bytes.count >= needle.count else { return 0 }
        return (0...bytes.count - needle.count).filter { bytes[$0..<$0 + needle.count].elementsEqual(needle) }.count
    }
}

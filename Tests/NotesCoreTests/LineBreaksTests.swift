import Foundation
import NotesCore
import XCTest
import TestSupport

/// Line endings from the file to the editor and back, and through every edit: a note's file keeps
/// its convention (LF, CRLF), a mixed one its bytes, and nothing ever writes "\r\r\n".
final class LineBreaksTests: XCTestCase {
    private func decode(_ text: String) -> NoteEncoding.Decoded { NoteEncoding.decode(Data(text.utf8)) }

    func testFilesAreLFCRLFOrMixed() {
        for (file, ending, text) in [
            ("a\nb\n", NoteEncoding.LineEnding.lf, "a\nb\n"), ("one line", .lf, "one line"), ("", .lf, ""),
            ("a\r\nb\r\n", .crlf, "a\nb\n"), ("a\r\nb", .crlf, "a\nb"),
            ("a\r\nb\nc\r\n", .mixed, "a\r\nb\nc\r\n"),      // LF and CRLF lines
            ("a\rb\rc", .mixed, "a\rb\rc"),                  // classic Mac
            ("a\rb\r\n", .mixed, "a\rb\r\n"),                // a lone CR among CRLF lines
            ("a\r\r\nb\r\n", .mixed, "a\r\r\nb\r\n"),        // "\r\r\n" written by another program (or an old Notula)
            ("a\r", .mixed, "a\r"),
        ] {
            let decoded = decode(file)
            XCTAssertEqual(decoded.encoding.lineEnding, ending, file.debugDescription)
            XCTAssertEqual(decoded.text, text, file.debugDescription)
            XCTAssertEqual(decoded.encoding.encode(decoded.text), Data(file.utf8), "unedited, byte for byte: \(file.debugDescription)")
        }
    }

    func testEveryLineBreakIsWrittenInTheNotesConvention() {
        let text = "a\r\nb\rc\nd\r\r\ne\r"  // what GTK shows as a, b, c, d, (blank), e, (empty last line)
        XCTAssertEqual(NoteEncoding(lineEnding: .crlf).encode(text), Data("a\r\nb\r\nc\r\nd\r\n\r\ne\r\n".utf8))
        XCTAssertEqual(NoteEncoding(lineEnding: .lf).encode(text), Data("a\nb\nc\nd\n\ne\n".utf8))
        XCTAssertEqual(NoteEncoding(lineEnding: .mixed).encode(text), Data(text.utf8))
        XCTAssertEqual(NoteEncoding(lineEnding: .crlf, hasByteOrderMark: true).encode("x\ny"),
                       Data([0xEF, 0xBB, 0xBF]) + Data("x\r\ny".utf8))
    }

    func testPastedWindowsTextIsUnified() {
        XCTAssertEqual(LineBreaks.unified("a\r\nb\r\n"), "a\nb\n")
        XCTAssertEqual(LineBreaks.unified("a\rb\r\r\nc\n\r"), "a\nb\n\nc\n\n")
        XCTAssertEqual(LineBreaks.unified("é\r😀"), "é\n😀")
        let edit = LineBreaks.guarded(LineBreaks.Edit(range: 3..<3, text: "a\r\nb\r\n")) { _ in "x" }
        XCTAssertEqual(edit, LineBreaks.Edit(range: 3..<3, text: "a\nb\n"))
        XCTAssertNil(LineBreaks.guarded(LineBreaks.Edit(range: 3..<3, text: "plain\n")) { _ in "x" }, "nothing to change")
    }

    func testAnEditNeverSetsALoneCRAgainstALineBreak() {
        // A mixed note "a\rb\r\nc": deleting "b" would leave "a\r\r\n".
        let text = Array("a\rb\r\nc".unicodeScalars)
        let character = { (offset: Int) in text.indices.contains(offset) ? text[offset] : nil }
        XCTAssertEqual(LineBreaks.guarded(LineBreaks.Edit(range: 2..<3, text: ""), character: character),
                       LineBreaks.Edit(range: 1..<3, text: "\n"))
        // Enter at the start of "b" would make the lone CR and the new LF one break: "a\r\nb".
        XCTAssertEqual(LineBreaks.guarded(LineBreaks.Edit(range: 2..<2, text: "\n"), character: character),
                       LineBreaks.Edit(range: 1..<2, text: "\n\n"))
        XCTAssertNil(LineBreaks.guarded(LineBreaks.Edit(range: 2..<2, text: "x"), character: character))
    }

    // MARK: Random edits

    /// Pieces of files and of pasted or typed text: every kind of line end, and words.
    private static let pieces = ["a", "b", "é", "😀", " ", "- ", "\n", "\r\n", "\r", "\n", "\r\n"]

    private func randomText(_ random: inout SeededRandom, pieces: [String], maximum: Int) -> String {
        (0..<random.next(upTo: maximum + 1)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined()
    }

    /// A file of `kind`: LF or CRLF lines, or lines ending in any of the three (mixed).
    private func randomFile(_ random: inout SeededRandom, _ kind: NoteEncoding.LineEnding) -> String {
        let words = ["a", "b", "é", "😀", " ", "- ", "* * *"]
        let ends = kind == .lf ? ["\n"] : kind == .crlf ? ["\r\n"] : ["\n", "\r\n", "\r"]
        var file = ""
        for _ in 0..<random.next(upTo: 8) {
            file += randomText(&random, pieces: words, maximum: 3) + ends[random.next(upTo: ends.count)]
        }
        return file + randomText(&random, pieces: words, maximum: 2)
    }

    /// The line breaks GTK shows in `text` ("\r\n", "\r" and "\n" each end a line).
    private func lineBreaks<C: Collection>(_ text: C) -> Int where C.Element == Unicode.Scalar {
        var count = 0
        var previous: Unicode.Scalar = "x"
        for char in text {
            if char == "\r" || char == "\n" && previous != "\r" { count += 1 }
            previous = char
        }
        return count
    }

    private func count(_ needle: [UInt8], in data: Data) -> Int {
        let bytes = [UInt8](data)
        guard bytes.count >= needle.count else { return 0 }
        return (0...bytes.count - needle.count).filter { Array(bytes[$0..<$0 + needle.count]) == needle }.count
    }

    /// Random pastes (LF, CRLF, lone CR, mixed) and deletions in LF, CRLF and mixed notes, each
    /// made as the editor makes it (`LineBreaks.guarded`), saved after every one: no "\r\r\n"
    /// ever written by an edit; an LF or CRLF note keeps its convention for every line and reads back as the
    /// editor shows it; no edit makes a line break appear or vanish beyond what it inserts or
    /// deletes; the editor's text never gains a "\r".
    func testRandomPastesKeepEveryNotesLineEndings() {
        var random = SeededRandom(seed: 2024)
        var edits = 0
        for round in 0..<3_000 {
            let kind: NoteEncoding.LineEnding = [.lf, .crlf, .mixed][round % 3]
            let file = randomFile(&random, kind)
            let original = Data(file.utf8)
            let decoded = NoteEncoding.decode(original)
            let encoding = decoded.encoding
            var text = Array(decoded.text.unicodeScalars)
            let carriageReturnsBefore = text.filter { $0 == "\r" }.count
            for step in 0..<12 {
                let lower = random.next(upTo: text.count + 1)
                let edit: LineBreaks.Edit
                if random.chance(0.6) || text.isEmpty {
                    edit = LineBreaks.Edit(range: lower..<lower, text: randomText(&random, pieces: Self.pieces, maximum: 6))
                } else {
                    edit = LineBreaks.Edit(range: lower..<min(text.count, lower + 1 + random.next(upTo: 4)), text: "")
                }
                if edit.range.isEmpty && edit.text.isEmpty { continue }
                let snapshot = text
                let character = { (offset: Int) in snapshot.indices.contains(offset) ? snapshot[offset] : nil }
                let made = LineBreaks.guarded(edit, character: character) ?? edit
                XCTAssertTrue(made.range.lowerBound <= edit.range.lowerBound && made.range.upperBound == edit.range.upperBound)
                XCTAssertTrue(snapshot[made.range.lowerBound..<edit.range.lowerBound].allSatisfy { $0 == "\r" }, "only CRs before the edit change")
                text.replaceSubrange(made.range, with: Array(made.text.unicodeScalars))
                edits += 1
                let saved = encoding.encode(String(String.UnicodeScalarView(text)))
                let context = "round \(round) step \(step): \(file.debugDescription) → \(String(String.UnicodeScalarView(text)).debugDescription)"

                // A file that had "\r\r\n" (another program wrote it) keeps it where the user did not edit; no edit adds one.
                XCTAssertLessThanOrEqual(count([0x0D, 0x0D, 0x0A], in: saved), count([0x0D, 0x0D, 0x0A], in: encoding.encode(String(String.UnicodeScalarView(snapshot)))), context)
                if count([0x0D, 0x0D, 0x0A], in: original) == 0 { XCTAssertEqual(count([0x0D, 0x0D, 0x0A], in: saved), 0, context) }
                XCTAssertLessThanOrEqual(text.filter { $0 == "\r" }.count, carriageReturnsBefore, "an edit brought a CR in: \(context)")
                switch encoding.lineEnding {  // a "CRLF" file without line breaks is an LF note
                case .lf:
                    XCTAssertFalse(saved.contains(0x0D), context)
                case .crlf:
                    XCTAssertEqual(count([0x0A], in: saved), count([0x0D, 0x0A], in: saved), context)
                    XCTAssertEqual(count([0x0D], in: saved), count([0x0D, 0x0A], in: saved), context)
                case .mixed:
                    break
                }
                if encoding.lineEnding != .mixed {
                    // Read back, the file shows what the editor showed.
                    XCTAssertEqual(NoteEncoding.decode(saved).text, String(String.UnicodeScalarView(text)), context)
                }
                // Unless the edit cut a "\r\n" in two, it adds and removes exactly its own line breaks.
                let cutsPair = { (offset: Int) in offset > 0 && offset < snapshot.count && snapshot[offset - 1] == "\r" && snapshot[offset] == "\n" }
                if !cutsPair(edit.range.lowerBound) && !cutsPair(edit.range.upperBound) {
                    let expected = lineBreaks(snapshot) - lineBreaks(snapshot[edit.range]) + lineBreaks(LineBreaks.unified(edit.text).unicodeScalars)
                    XCTAssertEqual(lineBreaks(text), expected, "a line break appeared or vanished: \(context)")
                }
            }
        }
        XCTAssertGreaterThan(edits, 30_000)
    }
}

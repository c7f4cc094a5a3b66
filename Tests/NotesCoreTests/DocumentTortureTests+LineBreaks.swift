import Foundation
import XCTest
@testable import NotesCore

/// Pastes with every kind of line break into the torture's LF and CRLF notes, and the check
/// that each note file keeps its line breaks.
extension DocumentTortureTests {
    /// What a user pastes or drops in: Windows, old Mac and mixed line breaks, "\r\r\n".
    static let pastes = ["pasted\r\nfrom Windows\r\n", "old Mac\rlines\r", "mixed\r\n\rbreaks\n\r", "\r\n", "\r", "tail\r\r\n", "\n\r\n"]

    /// The user pastes at a random place, over a few characters or none. The edit is made as
    /// the editor's buffer makes it: `LineBreaks.guarded` first (the rule `EditorView` gives
    /// GTK), on the text's Unicode scalars (GTK's characters; Swift's `Character` would take
    /// "\r\n" as one).
    func paste() {
        guard let (path, document) = open, !document.state.contains(.editingDisabled), !document.state.contains(.closed) else { return }
        let scalars = Array(document.text.unicodeScalars)
        let start = random.next(upTo: scalars.count + 1)
        let end = min(scalars.count, start + (random.chance(0.3) ? random.next(upTo: 6) : 0))
        let pasted = Self.pastes[random.next(upTo: Self.pastes.count)]
        let asked = LineBreaks.Edit(range: start..<end, text: pasted)
        let edit = LineBreaks.guarded(asked) { $0 >= 0 && $0 < scalars.count ? scalars[$0] : nil } ?? asked
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<edit.range.lowerBound])
        result.append(contentsOf: edit.text.unicodeScalars)
        result.append(contentsOf: scalars[edit.range.upperBound...])
        let text = String(result)
        note("paste \(pasted.debugDescription) over \(start)..<\(end) of \(path) (\(lineEndings[path] == .crlf ? "CRLF" : "LF"))")
        document.edit(text)
        if lineEndings[path] == .crlf { pasteCounts.crlf += 1 } else { pasteCounts.lf += 1 }
        expected[path] = text
        wholeTexts.insert(text)
    }

    /// A note file holds no "\r\r\n", and only its note's line break: "\r\n" in a CRLF note
    /// (no lone "\r" or "\n"), "\n" in an LF note (no "\r" at all). (memchr from break to
    /// break: this test target is built without optimization, and every note is checked at
    /// every step.)
    func checkLineBreaks(_ bytes: Data, of path: String) {
        let isCRLF = lineEndings[path] == .crlf
        let problem = bytes.withUnsafeBytes { raw -> String? in
            guard let base = raw.baseAddress else { return nil }
            func offsets(of byte: UInt8) -> [Int] {
                var found: [Int] = []
                var offset = 0
                while offset < raw.count, let hit = memchr(base + offset, Int32(byte), raw.count - offset) {
                    found.append(base.distance(to: UnsafeRawPointer(hit)))
                    offset = found[found.count - 1] + 1
                }
                return found
            }
            let returns = offsets(of: 0x0D)
            if let at = returns.first(where: { $0 + 2 < raw.count && raw[$0 + 1] == 0x0D && raw[$0 + 2] == 0x0A }) {
                return "\"\\r\\r\\n\" at byte \(at)"
            }
            guard isCRLF else { return returns.first.map { "\"\\r\" at byte \($0) of an LF note" } }
            if let at = returns.first(where: { $0 + 1 >= raw.count || raw[$0 + 1] != 0x0A }) { return "a lone \"\\r\" at byte \(at) of a CRLF note" }
            if let at = offsets(of: 0x0A).first(where: { $0 == 0 || raw[$0 - 1] != 0x0D }) { return "a lone \"\\n\" at byte \(at) of a CRLF note" }
            return nil
        }
        if let problem {
            fail("seed \(seed) step \(step): \(path) holds \(problem): …\(String(decoding: bytes.suffix(60), as: UTF8.self).debugDescription)")
        }
    }
}

/// Line breaks in the editor's text, kept to the note's convention as text comes in. GTK's text
/// buffer ends a line at "\n", "\r\n" and a lone "\r" alike, so text pasted, dropped, typed or
/// replaced in may hold any of them; the file has one (`NoteEncoding`). Every edit of the
/// editor (undo, redo and loading excepted: they put back text that was there) goes through
/// `guarded`: the text it brings has its line breaks unified to "\n" (which an LF or CRLF
/// note writes as its own), and it never sets a lone "\r" of a mixed note against a "\n",
/// which would make "\r\n" of two breaks (a line vanishes) or "\r\r\n" (a blank line that
/// other programs show differently, or not at all).
public enum LineBreaks: Sendable {
    /// `text` with each "\r\n" and lone "\r" as "\n".
    public static func unified(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0D {
                bytes.append(0x0A)
            } else if !(byte == 0x0A && previous == 0x0D) {
                bytes.append(byte)
            }
            previous = byte
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Lines as GTK counts them: ended by "\n", "\r\n", "\r" or U+2029.
    public static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            if afterCR, scalar == "\n" { afterCR = false; continue }
            afterCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2029}" {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }

    /// An edit of the editor's text: the characters (Unicode scalars) in `range` become `text`.
    public struct Edit: Equatable, Sendable {
        public var range: Range<Int>
        public var text: String

        public init(range: Range<Int>, text: String) {
            self.range = range
            self.text = text
        }
    }

    /// What `edit` must become, or nil when it can be made as it is. `character(offset)` reads
    /// the text before the edit (nil outside it). The result covers the edit's range and ends
    /// where the edit's text would: its line breaks are "\n", and the lone "\r"s just before it
    /// become "\n" when what follows it starts with a line break.
    public static func guarded(_ edit: Edit, character: (Int) -> Unicode.Scalar?) -> Edit? {
        let text = unified(edit.text)
        let startsLineBreak: Bool
        if let first = text.unicodeScalars.first {
            startsLineBreak = first == "\n"
        } else {
            // A deletion: what follows it comes next to what precedes it ("\r" + "\r\n" would be "\r\r\n").
            let next = character(edit.range.upperBound)
            startsLineBreak = next == "\n" || next == "\r" && character(edit.range.upperBound + 1) == "\n"
        }
        var start = edit.range.lowerBound
        if startsLineBreak {
            while start > 0, character(start - 1) == "\r" { start -= 1 }
        }
        let carriageReturns = edit.range.lowerBound - start
        guard carriageReturns > 0 || text != edit.text else { return nil }
        return Edit(range: start..<edit.range.upperBound, text: String(repeating: "\n", count: carriageReturns) + text)
    }
}

/// Which one- and two-character strings of letters and digits (a–z, 0–9) a note's folded text
/// contains, as extra tokens of the index's `words` table: "e" and "ev" become the tokens
/// U+E000 "e" and U+E000 "ev" (a character `IndexTerms` never lets into a term, so no word
/// can be taken for one). FTS5's trigrams cannot find words shorter than three characters;
/// looking for them with instr() reads every note's text on each keystroke, and a bit per
/// note in a table of its own was a scan of 100,000 rows (~100 ms); a token's list of notes
/// answers at once, in the same query as the note's other words. Other short words
/// (punctuation, letters that stay non-ASCII when folded) are still looked for with instr().
struct ShortWordTokens {
    /// Starts every short-word token.
    static let marker: Character = "\u{E000}"
    private static let symbols = 36
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    /// The tokens of folded text, separated by spaces, each once, in a fixed order (an FTS5
    /// row is deleted with the very text it was added with).
    static func tokens(of folded: String) -> String {
        var seen = [Bool](repeating: false, count: symbols * symbols + symbols)
        var previous: Int?
        for byte in folded.utf8 {
            let current = symbol(byte)
            if let current {
                seen[symbols * symbols + current] = true
                if let previous { seen[previous * symbols + current] = true }
            }
            previous = current
        }
        var tokens = ""
        for (gram, present) in seen.enumerated() where present {
            tokens.append(marker)
            if gram >= symbols * symbols {
                tokens.append(alphabet[gram - symbols * symbols])
            } else {
                tokens.append(alphabet[gram / symbols])
                tokens.append(alphabet[gram % symbols])
            }
            tokens.append(" ")
        }
        return tokens
    }

    /// The token that says a note contains `word` (folded, one or two characters), or nil
    /// when the word is not made of a–z and 0–9 only.
    static func token(for word: String) -> String? {
        let bytes = Array(word.utf8)
        guard (1...2).contains(bytes.count), bytes.allSatisfy({ symbol($0) != nil }) else { return nil }
        return String(marker) + word
    }

    private static func symbol(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 26 + Int(byte - UInt8(ascii: "0"))
        default: nil
        }
    }
}

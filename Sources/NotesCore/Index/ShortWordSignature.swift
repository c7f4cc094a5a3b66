/// Which one- and two-character strings of letters and digits (a–z, 0–9) a note's folded text
/// contains: 36 + 36 × 36 = 1,332 bits, kept in the index's `grams` table as 21 integers.
/// FTS5's trigrams cannot find words shorter than three characters, and looking for them with
/// instr() reads every note's whole text on each keystroke (30 ms at 10,000 notes, ten times
/// that at 100,000); a bit answers the same question exactly from a short row. Other short
/// words (punctuation, letters that stay non-ASCII when folded) are still looked for with instr().
struct ShortWordSignature: Sendable {
    static let columnCount = 21
    private static let symbols = 36
    /// The column names, "g0" … "g20".
    static let columns = (0..<columnCount).map { "g\($0)" }

    private(set) var words = [Int64](repeating: 0, count: columnCount)

    /// The signature of folded text (what the FTS table holds).
    init(of folded: String) {
        var previous: Int?
        for byte in folded.utf8 {
            let current = Self.symbol(byte)
            if let current {
                set(Self.symbols * Self.symbols + current)
                if let previous { set(previous * Self.symbols + current) }
            }
            previous = current
        }
    }

    private mutating func set(_ bit: Int) {
        words[bit / 64] |= Int64(bitPattern: 1 << UInt64(bit % 64))
    }

    /// The column and mask that say whether a note contains `word` (folded, one or two
    /// characters), or nil when the word is not made of a–z and 0–9 only.
    static func test(for word: String) -> (column: String, mask: Int64)? {
        let symbols = word.utf8.map(symbol)
        let bit: Int
        switch symbols.count {
        case 1:
            guard let only = symbols[0] else { return nil }
            bit = Self.symbols * Self.symbols + only
        case 2:
            guard let first = symbols[0], let second = symbols[1] else { return nil }
            bit = first * Self.symbols + second
        default:
            return nil
        }
        return (columns[bit / 64], Int64(bitPattern: 1 << UInt64(bit % 64)))
    }

    private static func symbol(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 26 + Int(byte - UInt8(ascii: "0"))
        default: nil
        }
    }
}

/// The words and characters of a note (or of the part selected), as a writer counts them:
/// a word is a run of letters and digits, with the apostrophes and hyphens inside it ("don't",
/// "e-mail" are one word each; Markdown's `#`, `-` and `*` are none); characters are what a
/// reader sees as one (an "é" made of two code points is one), line breaks not counted.
public struct TextCounts: Equatable, Sendable {
    public var words: Int
    public var characters: Int

    public init(words: Int, characters: Int) {
        (self.words, self.characters) = (words, characters)
    }

    /// From this size up the window counts away from the main thread: every character is
    /// looked at, a megabyte in ~250 ms (16 KB: ~4 ms).
    public static let countsElsewhereFrom = 16 * 1024

    public init(counting text: String) {
        self.init(counting: text[...])
    }

    public init(counting text: Substring) {
        var words = 0, characters = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            characters += line.count
            words += Self.words(in: line.dropFirst(Self.taskBoxLength(of: line)))
        }
        self.init(words: words, characters: characters)
    }

    private static func words(in line: Substring) -> Int {
        var words = 0
        var inWord = false
        var joinerAfterWord = false  // an apostrophe or hyphen right after a word's letters
        for character in line {
            if character.isLetter || character.isNumber {
                if !inWord && !joinerAfterWord { words += 1 }
                inWord = true
                joinerAfterWord = false
            } else {
                joinerAfterWord = inWord && joiners.contains(character)
                inWord = false
            }
        }
        return words
    }

    /// How long a task's box at the start of a line is ("- [x] ", after any indent): its "x"
    /// is no word.
    private static func taskBoxLength(of line: Substring) -> Int {
        let indent = line.prefix { $0 == " " || $0 == "\t" }.count
        let box = Array(line.dropFirst(indent).prefix(5))
        guard box.count == 5, "-*+".contains(box[0]), box[1] == " ", box[2] == "[", " xX".contains(box[3]), box[4] == "]" else { return 0 }
        return indent + 5
    }

    private static let joiners: Set<Character> = ["'", "’", "-", "‐"]
}

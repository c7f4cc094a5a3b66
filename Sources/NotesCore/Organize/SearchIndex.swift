import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Full-text search over every note's title and body, in memory: each note's text folded
/// once (`TextFolding`) into bytes, searched with memchr + memcmp. A query matches a note when
/// every word of it occurs somewhere in the note. Typing on narrows: a query that extends the
/// last one searches only the last one's matches. Main queue only; entries are read and
/// folded off the main queue (`entries(for:)`) and handed in.
public final class SearchIndex {
    /// One note as search keeps it: its text (for snippets) and that text folded, as bytes.
    /// Made off the main queue (`entries(for:)`, `Entry(text:)`): folding a whole library
    /// takes a while.
    public struct Entry {
        public let text: String
        let folded: [UInt8]

        public init(text: String) {
            self.text = text
            folded = Array(TextFolding.fold(text).utf8)
        }
    }

    private var entries: [String: Entry] = [:]
    private var last: (query: String, result: Set<String>)?

    public init() {}

    public var count: Int { entries.count }

    /// The text indexed for a note.
    public func text(of id: String) -> String? { entries[id]?.text }

    /// Sets (or replaces) a note's entry.
    public func set(_ id: String, _ entry: Entry) {
        entries[id] = entry
        last = nil
    }

    /// Sets a note's text, folding it here (one note: a save, a restore).
    public func set(_ id: String, text: String) {
        set(id, Entry(text: text))
    }

    /// A note moved (another notebook): its entry goes with it.
    public func rename(_ id: String, to newID: String) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        set(newID, entry)
    }

    public func remove(_ id: String) {
        entries[id] = nil
        last = nil
    }

    /// Replaces every note's entry (after a scan).
    public func replaceAll(_ entries: [String: Entry]) {
        self.entries = entries
        last = nil
    }

    /// The ids of the notes that contain every word of `query` (all notes for an empty query).
    public func matches(_ query: String) -> Set<String> {
        let words = TextFolding.words(of: query).map { Array($0.utf8) }
        guard !words.isEmpty else { return Set(entries.keys) }
        let key = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        var candidates: [String]
        if let last, key.hasPrefix(last.query) {
            candidates = Array(last.result)  // typing on only ever narrows
        } else {
            candidates = Array(entries.keys)
        }
        candidates = candidates.filter { id in
            guard let text = entries[id]?.folded else { return false }
            return words.allSatisfy { SearchIndex.contains(text, $0) }
        }
        let result = Set(candidates)
        last = (key, result)
        return result
    }

    /// The line of the note where `query`'s first word occurs, trimmed to about `width`
    /// characters around it, for the list's preview; nil when it does not occur.
    public func snippet(of id: String, for query: String, width: Int = 80) -> String? {
        guard let text = entries[id]?.text, let word = query.split(whereSeparator: { $0.isWhitespace }).first,
              let range = text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) else { return nil }
        let lineStart = text[..<range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let lineEnd = text[range.upperBound...].firstIndex(of: "\n") ?? text.endIndex
        var start = lineStart
        if text.distance(from: lineStart, to: range.lowerBound) > width / 3 {
            start = text.index(range.lowerBound, offsetBy: -(width / 3))
        }
        let end = text.index(start, offsetBy: width, limitedBy: lineEnd) ?? lineEnd
        let line = text[start..<end].trimmingCharacters(in: .whitespaces)
        return (start > lineStart ? "…" : "") + line + (end < lineEnd ? "…" : "")
    }

    /// Reads and folds the notes' whole texts (off the main queue). Unreadable files are left
    /// out; text that is not UTF-8 is read with replacement characters (it is still findable).
    public static func entries(for notes: [NoteSummary]) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for note in notes {
            if let data = RegularFile.contents(of: note.url, followLinks: false) { entries[note.id] = Entry(text: String(decoding: data, as: UTF8.self)) }
        }
        return entries
    }

    /// Byte search: memchr jumps to each place the word's rarest byte occurs (vectorised in
    /// libc; anchoring on "v" of "evening" instead of its "e" skips most of the text), memcmp
    /// checks the whole word there. (memmem is a GNU extension Swift's Glibc does not export.)
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        let anchor = anchorIndex(of: needle)
        let anchorByte = Int32(needle[anchor])
        return haystack.withUnsafeBytes { (text: UnsafeRawBufferPointer) -> Bool in
            needle.withUnsafeBytes { (word: UnsafeRawBufferPointer) -> Bool in
                guard let base = text.baseAddress, let wordBase = word.baseAddress else { return false }
                // Where the anchor byte may be: from `anchor` to the last place the word fits.
                var offset = anchor
                let lastAnchor = text.count - word.count + anchor
                while offset <= lastAnchor {
                    guard let hit = memchr(base + offset, anchorByte, lastAnchor - offset + 1) else { return false }
                    let at = UnsafeRawPointer(hit) - base
                    if memcmp(base + (at - anchor), wordBase, word.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }

    /// The word's least common byte, by how often letters occur in English (other bytes —
    /// digits, punctuation, non-ASCII — count as rare).
    static func anchorIndex(of word: [UInt8]) -> Int {
        var best = 0, bestScore = Int.max
        for (index, byte) in word.enumerated() {
            let score = commonness[Int(byte)]
            if score < bestScore { best = index; bestScore = score }
        }
        return best
    }

    private static let commonness: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for (rank, letter) in "zqxjkvbpygfwmucldrhsnioate ".utf8.enumerated() { table[Int(letter)] = rank + 1 }
        return table
    }()
}

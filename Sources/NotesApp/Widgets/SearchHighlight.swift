import Gtk
import NotesCore

/// Marks a search's words in a row's text (Pango markup), matching as search does: in the
/// text folded by `TextFolding` (case and accents ignored, so "cafe" marks "Café"). A search
/// marks ~200 rows at once: the text is folded once per row and searched byte by byte (a
/// Foundation case- and accent-insensitive search per word took most of a row's bind).
enum SearchHighlight {
    /// `text` escaped for markup, every occurrence of each word of `query` highlighted (whole
    /// characters: an accent typed as a mark of its own goes with its letter).
    static func markup(_ text: String, query: String) -> String {
        let folded = FoldedText(text)
        var marked = [Bool](repeating: false, count: folded.scalarCount)
        var any = false
        for word in TextFolding.words(of: query) {
            folded.forEachOccurrence(of: Array(word.utf8)) { scalars in
                for scalar in scalars { marked[scalar] = true }
                any = true
            }
        }
        guard any else { return Label.escape(text) }
        var result = ""
        var run = ""
        var runIsMarked = false
        var scalar = 0
        for character in text {
            let scalars = character.unicodeScalars.count
            let isMarked = marked[scalar..<(scalar + scalars)].contains(true)
            scalar += scalars
            if isMarked != runIsMarked, !run.isEmpty {
                result += highlighted(run, runIsMarked)
                run = ""
            }
            runIsMarked = isMarked
            run.append(character)
        }
        return result + highlighted(run, runIsMarked)
    }

    /// Whether every word of `query` occurs in `text`.
    static func contains(_ text: String, _ query: String) -> Bool {
        let folded = FoldedText(text)
        return TextFolding.words(of: query).allSatisfy { word in
            var found = false
            folded.forEachOccurrence(of: Array(word.utf8)) { _ in found = true }
            return found
        }
    }

    private static func highlighted(_ run: String, _ isMarked: Bool) -> String {
        isMarked ? "<span background=\"#f8e45c\" foreground=\"#241f31\">" + Label.escape(run) + "</span>" : Label.escape(run)
    }

    /// Each non-ASCII character's folded bytes, folded once (Foundation folds one in ~µs,
    /// and a row of CJK text has ~100 of them).
    private static var foldedScalars: [Unicode.Scalar: [UInt8]] = [:]

    private static func folded(_ scalar: Unicode.Scalar) -> [UInt8] {
        if let known = foldedScalars[scalar] { return known }
        if foldedScalars.count > 20_000 { foldedScalars = [:] }
        let bytes = Array(TextFolding.fold(String(scalar)).utf8)
        foldedScalars[scalar] = bytes
        return bytes
    }

    /// A text folded scalar by scalar, each folded byte knowing the scalar it came from.
    private struct FoldedText {
        private(set) var bytes: [UInt8] = []
        private(set) var scalarOfByte: [Int] = []
        private(set) var scalarCount = 0

        init(_ text: String) {
            bytes.reserveCapacity(text.utf8.count)
            scalarOfByte.reserveCapacity(text.utf8.count)
            for scalar in text.unicodeScalars {
                if scalar.isASCII {
                    let byte = UInt8(scalar.value)
                    bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                    scalarOfByte.append(scalarCount)
                } else {
                    for byte in SearchHighlight.folded(scalar) {
                        bytes.append(byte)
                        scalarOfByte.append(scalarCount)
                    }
                }
                scalarCount += 1
            }
        }

        /// Calls `body` with the scalars of each occurrence of `word` (folded, UTF-8).
        func forEachOccurrence(of word: [UInt8], _ body: (ClosedRange<Int>) -> Void) {
            guard let first = word.first, word.count <= bytes.count else { return }
            var start = 0
            while start + word.count <= bytes.count {
                if bytes[start] == first, bytes[start..<(start + word.count)].elementsEqual(word) {
                    body(scalarOfByte[start]...scalarOfByte[start + word.count - 1])
                }
                start += 1
            }
        }
    }
}

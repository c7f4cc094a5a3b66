/// The words of prose in a line of Markdown: what spelling checks, as ranges of Unicode scalars
/// from the line's start (the editor's character offsets). Never anything that is not prose:
/// Markdown syntax, code spans and fenced code, link addresses, bare and `<…>` addresses,
/// `[[…]]` link targets, HTML tags, `#tags`, e-mail addresses, file names and paths, words with
/// digits or underscores, single letters, and, when asked, ALL-CAPS acronyms. Words joined by
/// apostrophes and hyphens stay one word (don't, Mutter-Kind), as the dictionaries expect.
/// Scripts written without spaces between words (Chinese, Japanese, Thai…) are skipped: no
/// installed dictionary splits them.
public enum ProseWords {
    /// The words of `line` (its text without the line end), the `index`th line of a note,
    /// styled the way the editor styles it.
    public static func ranges(in line: String, index: Int, entering state: MarkdownBlockState,
                              previous: String?, next: String?, skipAllCaps: Bool = true) -> [Range<Int>] {
        guard !state.isInCodeBlock else { return [] }
        let styled = MarkdownLineStyler.style(line, index: index, entering: state, previous: previous, next: next)
        return ranges(in: Array(line.unicodeScalars), spans: styled.spans, skipAllCaps: skipAllCaps)
    }

    /// The words of `chars`, leaving out what `spans` mark as not prose.
    static func ranges(in chars: [Unicode.Scalar], spans: [MarkdownSpan], skipAllCaps: Bool) -> [Range<Int>] {
        var masked = [Bool](repeating: false, count: chars.count)
        for span in spans where notProse.contains(span.style) {
            for offset in span.range.clamped(to: 0..<chars.count) { masked[offset] = true }
        }
        maskWikiTargets(chars, &masked)
        maskTagsAndHTML(chars, &masked)

        var words: [Range<Int>] = []
        var start = 0
        while start < chars.count {
            // A token: a run of neither space nor masked characters.
            guard !masked[start], !isSpace(chars[start]) else { start += 1; continue }
            var end = start
            while end < chars.count, !masked[end], !isSpace(chars[end]) { end += 1 }
            if !isAddressOrFileName(chars[start..<end]) {
                words += wordsOf(chars, in: start..<end, skipAllCaps: skipAllCaps)
            }
            start = end
        }
        return words
    }

    private static let notProse: Set<MarkdownStyle> = [.code, .codeBlock, .url, .syntax, .rule, .listMarker, .taskOpen, .taskDone]

    /// The words of one token: letters joined by apostrophes or hyphens.
    private static func wordsOf(_ chars: [Unicode.Scalar], in token: Range<Int>, skipAllCaps: Bool) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = token.lowerBound
        while index < token.upperBound {
            guard isWordCharacter(chars[index]) else { index += 1; continue }
            var end = index + 1
            while end < token.upperBound {
                if isWordCharacter(chars[end]) {
                    end += 1
                } else if isJoiner(chars[end]), end + 1 < token.upperBound, isWordCharacter(chars[end + 1]) {
                    end += 2
                } else {
                    break
                }
            }
            // A word glued to digits or underscores is a code, a number or an identifier.
            let glued = index > token.lowerBound && isGlue(chars[index - 1]) || end < token.upperBound && isGlue(chars[end])
            if !glued, isCheckable(chars[index..<end], skipAllCaps: skipAllCaps) { words.append(index..<end) }
            index = end
        }
        return words
    }

    private static func isCheckable(_ word: ArraySlice<Unicode.Scalar>, skipAllCaps: Bool) -> Bool {
        if word.allSatisfy({ $0.isASCII }) {
            // Most words: the same questions without looking up Unicode's tables.
            let letters = word.filter { isASCIILetter($0) }
            guard letters.count > 1, !word.contains(where: { isASCIIDigit($0) }) else { return false }
            return !skipAllCaps || !letters.allSatisfy { ("A"..."Z").contains($0) }
        }
        let letters = word.filter { $0.properties.isAlphabetic }
        guard letters.count > 1 else { return false }
        if word.contains(where: { $0.properties.numericType != nil || isUnspacedScript($0) }) { return false }
        if skipAllCaps, letters.allSatisfy({ $0.properties.isUppercase }) { return false }
        return true
    }

    /// Letters, marks and digits: what words are made of.
    public static func isWordCharacter(_ char: Unicode.Scalar) -> Bool {
        if char.isASCII { return isASCIILetter(char) || isASCIIDigit(char) }
        let properties = char.properties
        return properties.isAlphabetic || properties.generalCategory == .nonspacingMark
            || properties.generalCategory == .spacingMark || properties.numericType != nil
    }

    private static func isJoiner(_ char: Unicode.Scalar) -> Bool {
        char == "'" || char == "\u{2019}" || char == "-" || char == "\u{2010}" || char == "\u{2011}"
    }

    private static func isGlue(_ char: Unicode.Scalar) -> Bool {
        char.isASCII ? char == "_" || isASCIIDigit(char) : char.properties.numericType != nil
    }

    // ASCII answers to Unicode's questions (the same answers: in ASCII only A–Z and a–z are
    // alphabetic, only 0–9 numeric, only tab to carriage return and space white), without the
    // table lookups that cost most of checking a line.
    private static func isASCIILetter(_ char: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(char) || ("A"..."Z").contains(char)
    }

    private static func isASCIIDigit(_ char: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(char)
    }

    private static func isSpace(_ char: Unicode.Scalar) -> Bool {
        char.isASCII ? char == " " || ("\t"..."\r").contains(char) : char.properties.isWhitespace
    }

    /// Scripts written without spaces between words.
    private static func isUnspacedScript(_ char: Unicode.Scalar) -> Bool {
        if char.properties.isIdeographic { return true }
        switch char.value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return true
        default: return false
        }
    }

    /// Addresses and names, not words: web addresses, e-mail addresses, paths and file names
    /// (a dot, slash or backslash between two word characters: notes.md, a/b).
    private static func isAddressOrFileName(_ token: ArraySlice<Unicode.Scalar>) -> Bool {
        let chars = Array(token)
        if chars.contains("@") || chars.count > 3 && (0..<chars.count - 2).contains(where: { chars[$0] == ":" && chars[$0 + 1] == "/" && chars[$0 + 2] == "/" }) {
            return true
        }
        if starts(chars, with: "www.") || starts(chars, with: "mailto:") { return true }
        guard chars.count > 2 else { return false }
        for index in 1..<chars.count - 1 where chars[index] == "." || chars[index] == "/" || chars[index] == "\\" {
            if isWordCharacter(chars[index - 1]) && isWordCharacter(chars[index + 1]) { return true }
        }
        return false
    }

    /// Whether `chars` begin with `prefix` (ASCII, any case).
    private static func starts(_ chars: [Unicode.Scalar], with prefix: String) -> Bool {
        guard chars.count >= prefix.unicodeScalars.count else { return false }
        return zip(chars, prefix.unicodeScalars).allSatisfy { char, wanted in
            char == wanted || ("A"..."Z").contains(char) && Unicode.Scalar(char.value + 32) == wanted
        }
    }

    /// `[[Target]]` and `[[Target|shown text]]`: the target is a note's title, not prose; the
    /// shown text is.
    private static func maskWikiTargets(_ chars: [Unicode.Scalar], _ masked: inout [Bool]) {
        var index = 0
        while index + 1 < chars.count {
            guard chars[index] == "[", chars[index + 1] == "[" else { index += 1; continue }
            var end = index + 2
            var bar: Int?
            while end + 1 < chars.count, !(chars[end] == "]" && chars[end + 1] == "]") {
                if chars[end] == "|", bar == nil { bar = end }
                end += 1
            }
            guard end + 1 < chars.count else { return }
            for offset in index..<(bar.map { $0 + 1 } ?? end) { masked[offset] = true }
            masked[end] = true
            masked[end + 1] = true
            index = end + 2
        }
    }

    /// `#tags` after a space or at the start, and HTML tags (`<span class="x">`, `</b>`).
    private static func maskTagsAndHTML(_ chars: [Unicode.Scalar], _ masked: inout [Bool]) {
        for index in chars.indices where !masked[index] {
            if chars[index] == "#", index + 1 < chars.count, isWordCharacter(chars[index + 1]),
               index == 0 || isSpace(chars[index - 1]) || chars[index - 1] == "(" {
                var end = index + 1
                while end < chars.count, isWordCharacter(chars[end]) || chars[end] == "/" || chars[end] == "-" || chars[end] == "_" { end += 1 }
                for offset in index..<end { masked[offset] = true }
            } else if chars[index] == "<", index + 1 < chars.count,
                      chars[index + 1] == "/" || chars[index + 1] == "!" || chars[index + 1].isASCII && chars[index + 1].properties.isAlphabetic,
                      let close = chars[(index + 1)...].firstIndex(of: ">") {
                for offset in index...close { masked[offset] = true }
            }
        }
    }
}

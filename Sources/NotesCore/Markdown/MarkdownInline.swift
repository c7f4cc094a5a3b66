/// Inline Markdown within one line: code spans first (nothing inside them is Markdown), then
/// autolinks, `[[note links]]`, `[text](address)` links, bare web addresses, `#tags`, and
/// emphasis (`**`, `__`, `*`, `_`, `~~`) matched with CommonMark's flanking rules and
/// delimiter stack, simplified.
enum MarkdownInline {
    static func style(_ chars: [Unicode.Scalar], in range: Range<Int>, into spans: inout [MarkdownSpan]) {
        var scan = Scan(chars: chars, range: range)
        scan.run()
        spans += scan.spans
    }

    /// Where the run of exactly `length` backticks that closes a code span starts, looking
    /// from `start` up to `end`; nil when the span is never closed (CommonMark).
    static func closingBackticks(in chars: [Unicode.Scalar], from start: Int, length: Int, end: Int) -> Int? {
        var search = start
        while search < end {
            guard chars[search] == "`" else { search += 1; continue }
            var runEnd = search
            while runEnd < end, chars[runEnd] == "`" { runEnd += 1 }
            if runEnd - search == length { return search }
            search = runEnd
        }
        return nil
    }

    static func links(in line: String) -> [MarkdownLink] {
        let chars = Array(line.unicodeScalars)
        var scan = Scan(chars: chars, range: 0..<chars.count)
        scan.run()
        return scan.links
    }

    /// The `[[note links]]` and `#tags` of a line (outside code spans, escapes and addresses).
    static func references(in chars: [Unicode.Scalar]) -> (noteLinks: [WikiLink], tags: [TagMention]) {
        var scan = Scan(chars: chars, range: 0..<chars.count)
        scan.run()
        return (scan.wikiLinks, scan.tags)
    }

    private struct Delimiter {
        var character: Unicode.Scalar
        var start: Int
        var count: Int
        let originalCount: Int
        let canOpen: Bool
        let canClose: Bool
    }

    private struct Scan {
        let chars: [Unicode.Scalar]
        let range: Range<Int>
        /// Characters already explained (code, link syntax, addresses, escapes).
        var taken: [Bool]
        var spans: [MarkdownSpan] = []
        var links: [MarkdownLink] = []
        var wikiLinks: [WikiLink] = []
        var tags: [TagMention] = []

        init(chars: [Unicode.Scalar], range: Range<Int>) {
            self.chars = chars
            self.range = range
            taken = Array(repeating: false, count: chars.count)
        }

        mutating func run() {
            guard !range.isEmpty else { return }
            escapesAndCode()
            autolinks()
            noteLinks()
            bracketLinks()
            bareAddresses()
            hashTags()
            emphasis()
        }

        private mutating func take(_ range: Range<Int>, _ style: MarkdownStyle?) {
            for index in range { taken[index] = true }
            if let style, !range.isEmpty { spans.append(MarkdownSpan(range, style)) }
        }

        private func isFree(_ range: Range<Int>) -> Bool { !range.contains { taken[$0] } }

        private mutating func escapesAndCode() {
            var index = range.lowerBound
            while index < range.upperBound {
                let char = chars[index]
                if char == "\\", index + 1 < range.upperBound, chars[index + 1].isASCII, MarkdownInline.isPunctuation(chars[index + 1]) {
                    take(index..<index + 1, .syntax)
                    take(index + 1..<index + 2, nil)
                    index += 2
                    continue
                }
                guard char == "`" else { index += 1; continue }
                var runEnd = index
                while runEnd < range.upperBound, chars[runEnd] == "`" { runEnd += 1 }
                let length = runEnd - index
                guard let closing = MarkdownInline.closingBackticks(in: chars, from: runEnd, length: length, end: range.upperBound) else { take(index..<runEnd, nil); index = runEnd; continue }
                take(index..<runEnd, .syntax)
                take(runEnd..<closing, .code)
                take(closing..<closing + length, .syntax)
                index = closing + length
            }
        }

        /// `<https://…>`, `<mailto:…>`, `<someone@example.org>`.
        private mutating func autolinks() {
            var index = range.lowerBound
            while index < range.upperBound {
                guard chars[index] == "<", !taken[index] else { index += 1; continue }
                var end = index + 1
                while end < range.upperBound, chars[end] != ">", chars[end] != "<", chars[end] != " " { end += 1 }
                guard end < range.upperBound, chars[end] == ">", end > index + 1, isFree(index..<end + 1) else { index += 1; continue }
                let inner = String(String.UnicodeScalarView(chars[index + 1..<end]))
                let hasScheme = inner.range(of: "^[A-Za-z][A-Za-z0-9+.-]{1,31}:", options: .regularExpression) != nil
                let isMail = !hasScheme && inner.contains("@") && !inner.hasPrefix("@")
                guard hasScheme || isMail else { index += 1; continue }
                take(index..<index + 1, .syntax)
                take(index + 1..<end, .link)
                take(end..<end + 1, .syntax)
                links.append(MarkdownLink(range: index..<end + 1, address: isMail ? "mailto:" + inner : inner))
                index = end + 1
            }
        }

        /// `[[Title]]`, `[[Title|shown text]]`, `[[Title#heading]]`: a link to the note titled
        /// so (Obsidian's, Foam's and Zettlr's syntax). The target is drawn as a link unless
        /// there is shown text, which is then the link.
        private mutating func noteLinks() {
            var index = range.lowerBound
            while index + 3 < range.upperBound {
                guard chars[index] == "[", chars[index + 1] == "[", !taken[index], !taken[index + 1] else { index += 1; continue }
                var end = index + 2
                var bar: Int?
                while end + 1 < range.upperBound, !(chars[end] == "]" && chars[end + 1] == "]"), chars[end] != "[", !taken[end] {
                    if chars[end] == "|", bar == nil { bar = end }
                    end += 1
                }
                guard end + 1 < range.upperBound, chars[end] == "]", chars[end + 1] == "]",
                      let link = WikiLink(chars, open: index, bar: bar, close: end) else { index += 1; continue }
                take(index..<index + 2, .syntax)
                if let bar {
                    take(index + 2..<bar + 1, .syntax)
                    take(bar + 1..<end, nil)
                    if end > bar + 1 { spans.append(MarkdownSpan(bar + 1..<end, .noteLink)) }
                } else {
                    take(index + 2..<end, .noteLink)
                }
                take(end..<end + 2, .syntax)
                wikiLinks.append(link)
                index = end + 2
            }
        }

        /// `#word`, `#work/meetings` after a space, the line's start or an opening bracket
        /// (not `a#b`, `&#123;`, a URL's `#fragment`, nor a heading's `# `); digits alone
        /// (`#1`) are a number, not a tag.
        private mutating func hashTags() {
            var index = range.lowerBound
            while index + 1 < range.upperBound {
                defer { index += 1 }
                guard chars[index] == "#", !taken[index] else { continue }
                if index > range.lowerBound {
                    let before = chars[index - 1]
                    guard isSpace(before) || before == "(" || before == "[" || before == "," else { continue }
                }
                var end = index + 1
                while end < range.upperBound, !taken[end], TagMention.isTagCharacter(chars[end]) { end += 1 }
                while end > index + 1, chars[end - 1] == "/" || chars[end - 1] == "-" { end -= 1 }
                guard end > index + 1, let tag = TagMention(chars, range: index..<end) else { continue }
                take(index..<end, .tag)
                tags.append(tag)
                index = end - 1
            }
        }

        /// `[text](address "title")` and images `![alt](address)`.
        private mutating func bracketLinks() {
            var index = range.lowerBound
            while index < range.upperBound {
                guard chars[index] == "[", !taken[index], let close = matching(from: index, open: "[", close: "]"),
                      close + 1 < range.upperBound, chars[close + 1] == "(", !taken[close + 1],
                      let end = matching(from: close + 1, open: "(", close: ")") else {
                    index += 1
                    continue
                }
                let start = index > range.lowerBound && chars[index - 1] == "!" && !taken[index - 1] ? index - 1 : index
                var addressStart = close + 2
                while addressStart < end, chars[addressStart] == " " { addressStart += 1 }
                var addressEnd = addressStart
                if addressStart < end, chars[addressStart] == "<" {
                    while addressEnd < end, chars[addressEnd] != ">" { addressEnd += 1 }
                    addressEnd = min(addressEnd + 1, end)
                } else {
                    while addressEnd < end, chars[addressEnd] != " " { addressEnd += 1 }
                }
                take(start..<index + 1, .syntax)
                if close > index + 1 { spans.append(MarkdownSpan(index + 1..<close, .link)) }
                take(close..<close + 2, .syntax)
                take(close + 2..<end, .url)
                take(end..<end + 1, .syntax)
                var addressRange = addressStart..<addressEnd
                if addressRange.count >= 2, chars[addressStart] == "<", chars[addressEnd - 1] == ">" {
                    addressRange = addressStart + 1..<addressEnd - 1
                }
                let address = String(String.UnicodeScalarView(chars[addressRange]))
                links.append(MarkdownLink(range: start..<end + 1, address: address, addressRange: addressRange))
                index = end + 1
            }
        }

        /// The index of the bracket closing the one at `start`, within the line, nesting.
        private func matching(from start: Int, open: Unicode.Scalar, close: Unicode.Scalar) -> Int? {
            var depth = 0
            var index = start
            while index < range.upperBound {
                if taken[index] && index != start { index += 1; continue }
                if chars[index] == open { depth += 1 } else if chars[index] == close {
                    depth -= 1
                    if depth == 0 { return index }
                }
                index += 1
            }
            return nil
        }

        /// `https://…`, `http://…` and `www.…` in running text.
        private mutating func bareAddresses() {
            var index = range.lowerBound
            while index < range.upperBound {
                let atWordStart = index == range.lowerBound || chars[index - 1] == " " || chars[index - 1] == "(" || chars[index - 1] == "\t"
                guard atWordStart, !taken[index], chars[index] == "h" || chars[index] == "w",
                      let prefix = ["https://", "http://", "www."].first(where: { hasPrefix($0, at: index) }) else {
                    index += 1
                    continue
                }
                var end = index
                while end < range.upperBound, !taken[end], chars[end] != " ", chars[end] != "\t", chars[end] != "<" { end += 1 }
                while end > index, ".,;:!?'\"".unicodeScalars.contains(chars[end - 1]) { end -= 1 }
                if end > index, chars[end - 1] == ")", !chars[index..<end - 1].contains("(") { end -= 1 }
                guard end - index > prefix.unicodeScalars.count else { index = end + 1; continue }
                take(index..<end, .link)
                let text = String(String.UnicodeScalarView(chars[index..<end]))
                links.append(MarkdownLink(range: index..<end, address: prefix == "www." ? "https://" + text : text))
                index = end
            }
        }

        private func hasPrefix(_ prefix: String, at index: Int) -> Bool {
            var position = index
            for scalar in prefix.unicodeScalars {
                guard position < range.upperBound, chars[position] == scalar else { return false }
                position += 1
            }
            return true
        }

        // MARK: Emphasis

        private mutating func emphasis() {
            var stack: [Delimiter] = []
            var index = range.lowerBound
            while index < range.upperBound {
                let char = chars[index]
                guard char == "*" || char == "_" || char == "~", !taken[index] else { index += 1; continue }
                var end = index
                while end < range.upperBound, chars[end] == char, !taken[end] { end += 1 }
                let before: Unicode.Scalar = index > range.lowerBound ? chars[index - 1] : " "
                let after: Unicode.Scalar = end < range.upperBound ? chars[end] : " "
                let left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
                let right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
                let canOpen = char == "_" ? left && (!right || isPunctuation(before)) : left
                let canClose = char == "_" ? right && (!left || isPunctuation(after)) : right
                var closer = Delimiter(character: char, start: index, count: end - index, originalCount: end - index,
                                       canOpen: canOpen, canClose: canClose)
                if canClose { match(&closer, in: &stack) }
                if closer.count > 0, canOpen { stack.append(closer) }
                index = end
            }
        }

        private mutating func match(_ closer: inout Delimiter, in stack: inout [Delimiter]) {
            while closer.count > 0 {
                guard let openerIndex = stack.lastIndex(where: { opener in
                    guard opener.character == closer.character, opener.canOpen, opener.count > 0 else { return false }
                    if closer.character == "~" { return opener.count >= 2 && closer.count >= 2 }
                    // CommonMark's rule of 3.
                    if (opener.canClose || closer.canOpen), (opener.originalCount + closer.originalCount) % 3 == 0,
                       opener.originalCount % 3 != 0 || closer.originalCount % 3 != 0 { return false }
                    return true
                }) else { return }
                var opener = stack[openerIndex]
                let used = closer.character == "~" ? 2 : (opener.count >= 2 && closer.count >= 2 ? 2 : 1)
                let style: MarkdownStyle = closer.character == "~" ? .strikethrough : (used == 2 ? .bold : .italic)
                let openerMarks = opener.start + opener.count - used..<opener.start + opener.count
                let closerMarks = closer.start..<closer.start + used
                take(openerMarks, .syntax)
                take(closerMarks, .syntax)
                spans.append(MarkdownSpan(openerMarks.upperBound..<closerMarks.lowerBound, style))
                opener.count -= used
                closer.count -= used
                closer.start += used
                stack.removeSubrange(openerIndex + 1..<stack.count)
                if opener.count == 0 { stack.remove(at: openerIndex) } else { stack[openerIndex] = opener }
            }
        }

        private func isSpace(_ char: Unicode.Scalar) -> Bool { char.properties.isWhitespace }

        private func isPunctuation(_ char: Unicode.Scalar) -> Bool { MarkdownInline.isPunctuation(char) }
    }

    /// CommonMark's punctuation: Unicode punctuation and symbols.
    static func isPunctuation(_ char: Unicode.Scalar) -> Bool {
        switch char.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}

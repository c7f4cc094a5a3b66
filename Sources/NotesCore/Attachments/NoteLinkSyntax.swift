import Foundation

/// Link addresses Markdown writes in other ways than `[text](address)`: reference definitions
/// (`[id]: attachments/x.png "Title"`, up to three spaces in, `<…>` allowed) and HTML
/// attributes (`<img src="…">`, `<a href='…'>`, unquoted too). Each is found with where its
/// address is written in the line (scalar offsets), so it can be rewritten in place.
/// HTML inside a code span (`` `<img src="x">` ``) is not a link and is left out.
enum NoteLinkSyntax {
    /// Whether the line may hold such a link (a cheap look before parsing).
    static func mayHoldLink(_ scalars: [Unicode.Scalar]) -> Bool {
        let indent = scalars.prefix { $0 == " " }.count
        if indent <= 3, scalars.dropFirst(indent).first == "[" { return true }
        return scalars.contains("<") && scalars.contains("=")
    }

    /// The reference definition and HTML links of a line (its break left out).
    static func links(in scalars: [Unicode.Scalar]) -> [MarkdownLink] {
        var links: [MarkdownLink] = []
        if let definition = referenceDefinition(in: scalars) { links.append(definition) }
        links += htmlLinks(in: scalars)
        return links
    }

    /// `[label]: destination` with nothing after it but an optional title; footnotes (`[^1]:`) are not links.
    static func referenceDefinition(in chars: [Unicode.Scalar]) -> MarkdownLink? {
        var index = chars.prefix { $0 == " " }.count
        guard index <= 3, index < chars.count, chars[index] == "[" else { return nil }
        index += 1
        guard index < chars.count, chars[index] != "^", chars[index] != "]" else { return nil }
        while index < chars.count, chars[index] != "]" {
            if chars[index] == "\\" { index += 1 } else if chars[index] == "[" { return nil }
            index += 1
        }
        guard index + 1 < chars.count, chars[index] == "]", chars[index + 1] == ":" else { return nil }
        index += 2
        while index < chars.count, chars[index] == " " || chars[index] == "\t" { index += 1 }
        guard index < chars.count else { return nil }
        let address: Range<Int>
        var end: Int
        if chars[index] == "<" {
            guard let close = chars[(index + 1)...].firstIndex(where: { $0 == ">" || $0 == "<" }), chars[close] == ">" else { return nil }
            address = (index + 1)..<close
            end = close + 1
        } else {
            end = index
            while end < chars.count, chars[end] != " ", chars[end] != "\t" { end += 1 }
            address = index..<end
        }
        guard !address.isEmpty else { return nil }
        // After it: nothing, or a title ("…", '…' or (…)) and nothing else.
        var rest = end
        while rest < chars.count, chars[rest] == " " || chars[rest] == "\t" { rest += 1 }
        if rest < chars.count {
            guard rest > end else { return nil }
            let open = chars[rest]
            let close: Unicode.Scalar = open == "(" ? ")" : open
            guard open == "\"" || open == "'" || open == "(" else { return nil }
            var last = chars.count - 1
            while last > rest, chars[last] == " " || chars[last] == "\t" { last -= 1 }
            guard last > rest, chars[last] == close else { return nil }
        }
        return MarkdownLink(range: 0..<chars.count, address: string(chars[address]), addressRange: address)
    }

    /// The `src` and `href` attributes of the HTML tags of a line, outside code spans.
    static func htmlLinks(in chars: [Unicode.Scalar]) -> [MarkdownLink] {
        let code = codeSpans(in: chars)
        var links: [MarkdownLink] = []
        var index = 0
        while index < chars.count {
            defer { index += 1 }
            guard chars[index] == "<", index + 1 < chars.count, isLetter(chars[index + 1]),
                  !code.contains(where: { $0.contains(index) }) else { continue }
            let tagStart = index
            var cursor = index + 1
            while cursor < chars.count, isLetter(chars[cursor]) || ("0"..."9").contains(chars[cursor]) { cursor += 1 }
            // Attributes, until the tag's ">".
            while cursor < chars.count, chars[cursor] != ">" {
                guard isSpace(chars[cursor]) || chars[cursor] == "/" else { break }
                while cursor < chars.count, isSpace(chars[cursor]) || chars[cursor] == "/" { cursor += 1 }
                let nameStart = cursor
                while cursor < chars.count, !isSpace(chars[cursor]), !"=>/\"'".unicodeScalars.contains(chars[cursor]) { cursor += 1 }
                let name = string(chars[nameStart..<cursor]).lowercased()
                var look = cursor
                while look < chars.count, isSpace(chars[look]) { look += 1 }
                guard look < chars.count, chars[look] == "=" else { continue }
                look += 1
                while look < chars.count, isSpace(chars[look]) { look += 1 }
                guard look < chars.count else { break }
                let value: Range<Int>
                if chars[look] == "\"" || chars[look] == "'" {
                    guard let close = chars[(look + 1)...].firstIndex(of: chars[look]) else { cursor = chars.count; break }
                    value = (look + 1)..<close
                    cursor = close + 1
                } else {
                    var end = look
                    while end < chars.count, !isSpace(chars[end]), chars[end] != ">" { end += 1 }
                    value = look..<end
                    cursor = end
                }
                if (name == "src" || name == "href"), !value.isEmpty {
                    links.append(MarkdownLink(range: tagStart..<min(cursor + 1, chars.count), address: string(chars[value]), addressRange: value))
                }
            }
            index = max(index, cursor - 1)
        }
        return links
    }

    /// The code spans of a line: a run of backticks up to the next run of the same length.
    static func codeSpans(in chars: [Unicode.Scalar]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var index = 0
        while index < chars.count {
            guard chars[index] == "`" else { index += 1; continue }
            var end = index
            while end < chars.count, chars[end] == "`" { end += 1 }
            let length = end - index
            if let closing = MarkdownInline.closingBackticks(in: chars, from: end, length: length, end: chars.count) {
                let closed = closing + length
                spans.append(index..<closed)
                index = closed
            } else {
                index = end
            }
        }
        return spans
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    private static func string<C: Collection>(_ chars: C) -> String where C.Element == Unicode.Scalar {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: chars)
        return String(view)
    }
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A Tomboy, Gnote or tomboy-ng note (their shared `.note` XML, namespace
/// `http://beatniksoftware.com/tomboy`) as a Markdown note: the first line is the title;
/// bold `**`, italic `*`, strikethrough `~~`, highlight `==` (as Obsidian and many Markdown
/// editors read it), monospace as code spans, a whole line in large or huge type as a heading
/// (`###`, `##`), small type as plain text, bulleted lists with nesting, links to other notes
/// as `[[Title]]`, web links as `<https://…>`. Text that Markdown would read as syntax is
/// escaped, so the note reads as it did. The dates (`create-date`, `last-change-date`), the
/// notebook (tag `system:notebook:NAME`) and whether it is a template (`system:template`)
/// come along. Malformed XML, unknown tags and bytes that are not UTF-8 are converted as far
/// as readable, each said in `problems`.
public struct TomboyNote: Sendable, Equatable {
    public var title: String
    public var markdown: String
    public var created: Date?
    public var changed: Date?
    public var notebook: String?
    public var isTemplate: Bool
    /// What could not be converted exactly (English, for the import's report).
    public var problems: [Problem]

    public enum Problem: Sendable, Equatable {
        case notUTF8
        case malformed(line: Int, column: Int)
        case unknownTags([String])
        case noContent
    }

    /// Parses the bytes of a `.note` file (never fails: what cannot be read is a problem).
    public static func parse(_ data: Data) -> TomboyNote {
        var problems: [Problem] = []
        var bytes = data
        if String(data: data, encoding: .utf8) == nil {
            problems.append(.notUTF8)
            bytes = Data(String(decoding: data, as: UTF8.self).utf8)  // each bad byte becomes U+FFFD
        }
        let reader = Reader()
        let parser = XMLParser(data: bytes)
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        // Where the XML breaks off or goes wrong (libxml2 may read on past an error): the
        // first error, or the end when the note never closed.
        if !parser.parse() || reader.error != nil || !reader.closedNote {
            let at = reader.error ?? (parser.lineNumber, parser.columnNumber)
            problems.append(.malformed(line: at.line, column: at.column))
        }
        if !reader.unknown.isEmpty { problems.append(.unknownTags(reader.unknown.sorted())) }
        var lines = reader.content.render()
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        let contentTitle = lines.first?.trimmingCharacters(in: .whitespaces) ?? ""
        var title = reader.title.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty { title = contentTitle }
        if lines.isEmpty {
            if !reader.sawContent { problems.append(.noContent) }
            lines = [Markdown.escape(title, atLineStart: true)]
        } else if contentTitle.isEmpty {
            lines.insert(Markdown.escape(title, atLineStart: true), at: 0)
        }
        return TomboyNote(title: title.isEmpty ? contentTitle : title, markdown: lines.joined(separator: "\n") + "\n",
                          created: TomboyDate.parse(reader.created), changed: TomboyDate.parse(reader.changed),
                          notebook: reader.notebook, isTemplate: reader.isTemplate, problems: problems)
    }

    // MARK: Reading the XML

    /// The styles a stretch of text carries.
    struct Style: OptionSet, Hashable {
        let rawValue: Int
        static let bold = Style(rawValue: 1)
        static let italic = Style(rawValue: 2)
        static let strikethrough = Style(rawValue: 4)
        static let highlight = Style(rawValue: 8)
        static let monospace = Style(rawValue: 16)
        static let large = Style(rawValue: 32)
        static let huge = Style(rawValue: 64)
        static let internalLink = Style(rawValue: 128)
        static let urlLink = Style(rawValue: 256)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var title = "", created = "", changed = ""
        var notebook: String?
        var isTemplate = false
        var sawContent = false
        var closedNote = false
        var error: (line: Int, column: Int)?
        var unknown = Set<String>()
        let content = Content()
        private var path: [String] = []
        private var styles: [Style] = []
        private var text = ""

        private static let styleTags: [String: Style] = [
            "bold": .bold, "italic": .italic, "strikethrough": .strikethrough, "highlight": .highlight,
            "strikeout": .strikethrough,  // tomboy-ng's name for it
            "monospace": .monospace, "size:large": .large, "size:huge": .huge, "size:small": [], "size:normal": [],
            "link:internal": .internalLink, "link:url": .urlLink, "link:broken": [],
            // tomboy-ng's and Gnote's extras read as plain text
            "underline": [], "url": .urlLink,
        ]
        private static let metadata: Set<String> = [
            "note", "title", "text", "last-change-date", "last-metadata-change-date", "create-date", "cursor-position",
            "selection-bound-position", "width", "height", "x", "y", "tags", "tag", "open-on-startup", "pinned",
        ]

        private var inContent: Bool { path.contains("note-content") }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            path.append(name)
            guard inContent else {
                if !Self.metadata.contains(name) { unknown.insert(name) }
                return
            }
            sawContent = true
            switch name {
            case "note-content": break
            case "list": content.openList()
            case "list-item": content.openItem()
            default:
                if let style = Self.styleTags[name] { styles.append(style) } else {
                    unknown.insert(name)
                    styles.append([])
                }
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil { error = (parser.lineNumber, parser.columnNumber) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { _ = path.popLast() }
            if name == "note", path.count == 1 { closedNote = true }
            guard inContent else {
                let value = text
                text = ""
                switch name {
                case "title": title = value
                case "create-date": created = value.trimmingCharacters(in: .whitespacesAndNewlines)
                case "last-change-date": changed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                case "tag":
                    let tag = value.trimmingCharacters(in: .whitespacesAndNewlines)
                    if tag == "system:template" { isTemplate = true }
                    if tag.hasPrefix("system:notebook:") { notebook = String(tag.dropFirst("system:notebook:".count)) }
                default: break
                }
                return
            }
            switch name {
            case "note-content": break
            case "list": content.closeList()
            case "list-item": content.closeItem()
            default: _ = styles.popLast()
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inContent {
                content.append(string, style: styles.reduce(into: Style()) { $0.formUnion($1) })
            } else {
                text += string
            }
        }
    }

    // MARK: Lines and runs

    /// The note's text as lines of styled runs, each line with the list depth it is in.
    final class Content {
        struct Line {
            var runs: [(text: String, style: Style)] = []
            /// The depth of the list item this line starts (nil: not a list item).
            var item: Int?
        }
        private(set) var lines: [Line] = [Line()]
        private var depth = 0
        private var itemStarts = false

        func openList() { depth += 1 }
        func closeList() { depth = max(0, depth - 1) }
        func openItem() {
            // An item starts a line of its own.
            if !(lines[lines.count - 1].runs.isEmpty) { lines.append(Line()) }
            itemStarts = true
        }
        func closeItem() {}

        func append(_ string: String, style: Style) {
            for (index, part) in string.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { lines.append(Line()) }
                guard !part.isEmpty else { continue }
                if itemStarts, lines[lines.count - 1].runs.isEmpty {
                    lines[lines.count - 1].item = max(1, depth)
                    itemStarts = false
                }
                lines[lines.count - 1].runs.append((String(part), style))
            }
        }

        func render() -> [String] {
            lines.enumerated().map { index, line in Markdown.line(line, isTitle: index == 0) }
        }
    }

    /// Markdown for runs of styled text.
    enum Markdown {
        static func line(_ line: Content.Line, isTitle: Bool) -> String {
            if isTitle { return escape(line.runs.map(\.text).joined(), atLineStart: true) }
            // A whole line in large or huge type is a heading.
            let visible = line.runs.filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
            var heading = ""
            if line.item == nil, !visible.isEmpty {
                if visible.allSatisfy({ $0.style.contains(.huge) }) { heading = "## " }
                else if visible.allSatisfy({ $0.style.contains(.large) || $0.style.contains(.huge) }) { heading = "### " }
            }
            var groups: [(text: String, style: Style)] = []
            for run in line.runs {
                let style = run.style.subtracting([.large, .huge])
                if let last = groups.last, last.style == style { groups[groups.count - 1].text += run.text } else { groups.append((run.text, style)) }
            }
            var out = ""
            for (index, group) in groups.enumerated() {
                out += render(group.text, style: group.style, atLineStart: index == 0 && heading.isEmpty && line.item == nil)
            }
            if let depth = line.item {
                return String(repeating: "  ", count: depth - 1) + "- " + out.drop(while: { $0 == " " })
            }
            return heading.isEmpty ? out : heading + out.trimmingCharacters(in: .whitespaces)
        }

        private static func render(_ text: String, style: Style, atLineStart: Bool) -> String {
            if style.contains(.internalLink) {
                let title = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "]]", with: "] ]")
                return title.isEmpty ? text : "[[\(title)]]"
            }
            if style.contains(.urlLink) {
                let address = text.trimmingCharacters(in: .whitespaces)
                if !address.isEmpty, !address.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" }) {
                    let target = address.contains("://") || address.hasPrefix("mailto:") ? address : "https://" + address
                    return "<\(target)>"
                }
            }
            // Spaces stay outside the markers: `** bold**` is no emphasis.
            let leading = String(text.prefix(while: { $0 == " " || $0 == "\t" }))
            let trailing = String(text.reversed().prefix(while: { $0 == " " || $0 == "\t" }).reversed())
            guard leading.count < text.count else { return text }
            let core = String(text.dropFirst(leading.count).dropLast(trailing.count))
            var inner: String
            if style.contains(.monospace) {
                let fence = String(repeating: "`", count: longestRun(of: "`", in: core) + 1)
                let pad = core.hasPrefix("`") || core.hasSuffix("`") ? " " : ""
                inner = fence + pad + core + pad + fence
            } else {
                inner = escape(core, atLineStart: atLineStart && leading.isEmpty)
            }
            if style.contains(.highlight) { inner = "==\(inner)==" }
            if style.contains(.strikethrough) { inner = "~~\(inner)~~" }
            if style.contains(.italic) { inner = "*\(inner)*" }
            if style.contains(.bold) { inner = "**\(inner)**" }
            return leading + inner + trailing
        }

        private static func longestRun(of character: Character, in text: String) -> Int {
            var longest = 0, current = 0
            for c in text {
                current = c == character ? current + 1 : 0
                longest = max(longest, current)
            }
            return longest
        }

        /// Plain text that Markdown must not read as syntax.
        static func escape(_ text: String, atLineStart: Bool) -> String {
            var out = ""
            let characters = Array(text)
            for (index, c) in characters.enumerated() {
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + 1 < characters.count ? characters[index + 1] : " "
                switch c {
                case "\\", "*", "`", "[", "]", "<":
                    out += "\\" + String(c)
                case ">" where index == 0 && atLineStart:
                    out += "\\>"
                case "_" where !(before.isLetter || before.isNumber) || !(after.isLetter || after.isNumber):
                    out += "\\_"
                case "~" where after == "~" || before == "~":
                    out += "\\~"
                case "=" where after == "=":
                    out += "\\="
                default:
                    out.append(c)
                }
            }
            guard atLineStart else { return out }
            // Block syntax at the start of a line: headings, list items, numbered items.
            if out.hasPrefix("#") || out.hasPrefix("+ ") || out.hasPrefix("- ") || out.hasPrefix("-\t") { return "\\" + out }
            let digits = out.prefix(while: \.isNumber)
            if !digits.isEmpty, digits.count <= 9, out.dropFirst(digits.count).hasPrefix(". ") || out.dropFirst(digits.count).hasPrefix(") ") {
                return digits + "\\" + out.dropFirst(digits.count)
            }
            return out
        }
    }
}

/// Tomboy's dates: `2026-01-05T10:00:00.0000000+01:00` (seven fractional digits, an offset).
enum TomboyDate {
    static func parse(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[from..<from + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard scalars.count >= 19, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
        var index = 19
        var fraction = 0.0
        if index < scalars.count, scalars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                fraction += Double(scalars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < scalars.count {
            let sign = scalars[index]
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), let hours = number(index + 1, 2), let minutes = number(index + 4, 2) {
                offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            } else if sign != UInt8(ascii: "Z") {
                return nil
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)) else {
            return nil
        }
        return date.addingTimeInterval(fraction - Double(offset))
    }
}

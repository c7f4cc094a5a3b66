import Foundation

/// A note as it prints: its Markdown rendered, not its raw text. Headings in large bold type,
/// lists with bullets, numbers and task boxes, code and tables in monospace, quotes indented,
/// pictures of the library drawn; every syntax character (`#`, `**`, `[[`, `- [ ]`) hidden.
/// The blocks are Pango markup, so this stays free of GTK and is tested without a display.
public struct PrintableNote: Sendable {
    public static let bodySize = 11.0
    public static let codeSize = 9.5
    /// Points per indentation step.
    public static let indent = 18.0
    /// About the most text one block holds: Pango lays a block out in one go, and the printer
    /// lays out a slice of blocks between two frames (a paragraph of 300 KB took a third of a
    /// second). A longer paragraph goes on in a new block at a line break of its source (its
    /// line then ends early on paper); code and tables print as before.
    public static let mostBlockCharacters = 2_000

    public let blocks: [PrintBlock]

    /// What prints in place of a picture that cannot be read: its description, in italics.
    public static func missingPictureMarkup(_ alt: String) -> String {
        "<span font_family=\"sans-serif\" size=\"\(Int(bodySize * 1024))\" style=\"italic\">\(Builder.escaped(alt.isEmpty ? "?" : alt))</span>"
    }

    /// `noteID` and `library` resolve the note's pictures; without them pictures print as
    /// their descriptions.
    public init(text: String, noteID: String? = nil, library: URL? = nil) {
        let tree = MarkdownTree(note: text)
        var builder = Builder()
        if let noteID, let library {
            let resolver = LibraryLinkResolver(library: library)
            let location = NoteLocation(library: library, noteID: noteID)
            builder.picturePath = { address in
                // Only a regular file goes to the printer's picture loader (a FIFO would never end).
                guard case .success(.file(let url)) = resolver.resolve(address, from: location),
                      let (fd, _) = try? RegularFile.openForReading(url.path, followLinks: true) else { return nil }
                close(fd)
                return url.path
            }
        }
        builder.add(children: tree.root, level: 0)
        blocks = builder.blocks
    }

    /// Gathers the blocks, walking the tree's block nodes.
    private struct Builder {
        var blocks: [PrintBlock] = []
        var picturePath: (String) -> String? = { _ in nil }
        /// The marker waiting for the next block (a list item's first paragraph).
        var pendingMarker: String?
        var tight = false

        mutating func add(children node: MarkdownTree.Node, level: Int) {
            for child in node.children { add(child, level: level) }
        }

        mutating func add(_ node: MarkdownTree.Node, level: Int) {
            switch node.kind {
            case "heading":
                let level = min(max(node.headingLevel, 1), 6)
                let size = [20.0, 16, 14, 12.5, 12, 11][level - 1]
                append(.text(markup: span(size: size, bold: true) + inlines(node) + "</span>"), level: 0,
                       space: [14.0, 12, 10, 8, 8, 8][level - 1], keep: true)
            case "paragraph":
                let children = node.children
                if children.count == 1, children[0].kind == "image", let path = picturePath(children[0].url) {
                    append(.picture(path: path, alt: children[0].plainText), level: level, space: 6)
                } else {
                    for (index, part) in Self.parts(of: children.map { ($0.kind, inline($0)) }).enumerated() {
                        append(.text(markup: span(size: PrintableNote.bodySize) + part + "</span>"), level: level, space: index == 0 ? (tight ? 2 : 6) : 0)
                    }
                }
            case "code_block":
                var code = node.literal
                if code.hasSuffix("\n") { code.removeLast() }
                appendLines(code, level: level)
            case "block_quote":
                let start = blocks.count
                add(children: node, level: level + 1)
                for index in start..<blocks.count {
                    if case .text(let markup) = blocks[index].content {
                        blocks[index].content = .text(markup: "<span foreground=\"#5e5c64\" style=\"italic\">\(markup)</span>")
                    }
                }
            case "list":
                let wasTight = tight
                tight = node.isTightList
                var number = node.listStart
                for item in node.children {
                    if let done = item.task {
                        pendingMarker = done ? "☑" : "☐"
                    } else if node.isOrderedList {
                        pendingMarker = "\(number)."
                        number += 1
                    } else {
                        pendingMarker = level % 2 == 0 ? "•" : "◦"
                    }
                    let before = blocks.count
                    add(children: item, level: level + 1)
                    if blocks.count == before {  // an empty item still shows its marker
                        append(.text(markup: span(size: PrintableNote.bodySize) + "</span>"), level: level + 1, space: 2)
                    }
                }
                tight = wasTight
            case "thematic_break":
                append(.rule, level: level, space: 8)
            case "table":
                appendLines(table(node), level: level)
            default:
                // Anything cmark may add later prints as its text, never lost.
                let text = node.plainText
                if !text.isEmpty { append(.text(markup: span(size: PrintableNote.bodySize) + Self.escaped(text) + "</span>"), level: level, space: 6) }
            }
        }

        /// A paragraph's inlines (kind and markup) as the markup of its blocks: cut only at a
        /// break between lines (not printed: the next block starts a line anyway).
        static func parts(of inlines: [(kind: String, markup: String)]) -> [String] {
            var parts: [String] = [], current = "", count = 0
            for (kind, markup) in inlines {
                if count >= PrintableNote.mostBlockCharacters, kind == "softbreak" || kind == "linebreak" {
                    parts.append(current)
                    current = ""
                    count = 0
                    continue
                }
                current += markup
                count += markup.count
            }
            return parts + [current]
        }

        /// Monospace lines (code, a table) in blocks of at most about `mostBlockCharacters`.
        private mutating func appendLines(_ text: String, level: Int) {
            var chunk: [Substring] = [], count = 0, first = true
            func flush() {
                append(.text(markup: monospace(Self.escaped(chunk.joined(separator: "\n")))), level: level, space: first ? 6 : 0)
                chunk = []
                count = 0
                first = false
            }
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if count >= PrintableNote.mostBlockCharacters { flush() }
                chunk.append(line)
                count += line.count + 1
            }
            flush()
        }

        private mutating func append(_ content: PrintBlock.Content, level: Int, space: Double, keep: Bool = false) {
            blocks.append(PrintBlock(content, level: level, marker: pendingMarker, spaceBefore: blocks.isEmpty ? 0 : space, keepWithNext: keep))
            pendingMarker = nil
        }

        private func span(size: Double, bold: Bool = false) -> String {
            let weight = bold ? " weight=\"bold\"" : ""
            return "<span font_family=\"sans-serif\" size=\"\(Int(size * 1024))\"\(weight)>"
        }

        private func monospace(_ escaped: String) -> String {
            "<span font_family=\"monospace\" size=\"\(Int(PrintableNote.codeSize * 1024))\">\(escaped)</span>"
        }

        /// A table as aligned monospace columns, a line under the header row.
        private func table(_ node: MarkdownTree.Node) -> String {
            let rows = node.children.map { row in (row.isHeaderRow, row.children.map { $0.plainText.replacingOccurrences(of: "\n", with: " ") }) }
            let columns = rows.map(\.1.count).max() ?? 0
            var widths = [Int](repeating: 0, count: columns)
            for (_, cells) in rows {
                for (index, cell) in cells.enumerated() { widths[index] = max(widths[index], cell.count) }
            }
            var lines: [String] = []
            for (isHeader, cells) in rows {
                let padded = (0..<columns).map { index -> String in
                    let cell = index < cells.count ? cells[index] : ""
                    return cell + String(repeating: " ", count: widths[index] - cell.count)
                }
                lines.append(padded.joined(separator: " │ "))
                if isHeader { lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")) }
            }
            return lines.joined(separator: "\n")
        }

        /// A block's inlines as Pango markup.
        private func inlines(_ node: MarkdownTree.Node) -> String {
            node.children.map(inline).joined()
        }

        private func inline(_ node: MarkdownTree.Node) -> String {
            switch node.kind {
            case "text": return Self.escaped(node.literal)
            case "softbreak": return " "
            case "linebreak": return "\n"
            case "code": return "<span font_family=\"monospace\" background=\"#f0efed\">\(Self.escaped(node.literal))</span>"
            case "emph": return "<i>\(inlines(node))</i>"
            case "strong": return "<b>\(inlines(node))</b>"
            case "strikethrough": return "<s>\(inlines(node))</s>"
            case "link": return "<span foreground=\"#1a5fb4\" underline=\"single\">\(inlines(node))</span>"
            case "image": return "<i>\(Self.escaped(node.plainText))</i>"
            default:
                let inner = inlines(node)
                return inner.isEmpty ? Self.escaped(node.literal) : inner
            }
        }

        static func escaped(_ text: String) -> String { NoteHTMLExport.escaped(text) }
    }
}

import CCmark
import Foundation

/// A note's Markdown as cmark-gfm's syntax tree (GitHub's CommonMark: tables, task lists,
/// strikethrough, autolinks): the thin wrapper under the HTML export and the printed page,
/// so both read Markdown exactly as one library does. The tree is owned here and freed with it.
///
/// The note is read as the editor shows it: the first line is the title (a heading even
/// without `#`), `[[Title]]` links are links, and HTML written in a note is text: an export
/// shows what the note says, and runs nothing from it.
final class MarkdownTree {
    let root: Node

    /// Resolves a `[[link]]` to an address, or nil to show its text without a link.
    typealias NoteLinkAddress = (WikiLink) -> String?
    /// Rewrites the address of a link (`isPicture` false) or a picture, or keeps it.
    typealias Address = (_ address: String, _ isPicture: Bool) -> String

    init(note text: String, noteLinkAddress: NoteLinkAddress = { _ in nil }, address: Address = { address, _ in address }) {
        Self.registerExtensions
        let parser = cmark_parser_new(CMARK_OPT_DEFAULT)!
        defer { cmark_parser_free(parser) }
        for name in ["table", "strikethrough", "tasklist", "autolink"] {
            if let extensionPointer = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, extensionPointer)
            }
        }
        let markdown = Self.titledAsHeading(text)
        markdown.withCString { cmark_parser_feed(parser, $0, strlen($0)) }
        root = Node(cmark_parser_finish(parser)!)
        Self.rewrite(root, noteLinkAddress, address)
    }

    deinit { cmark_node_free(root.pointer) }

    /// The body's HTML (no document around it). Every address is checked first (`safeAddress`),
    /// and written HTML is text by now, so nothing unsafe passes.
    func html() -> String {
        let extensions = cmark_llist_append(cmark_get_default_mem_allocator(), nil, UnsafeMutableRawPointer(cmark_find_syntax_extension("table")))
        defer { cmark_llist_free(cmark_get_default_mem_allocator(), extensions) }
        guard let chars = cmark_render_html(root.pointer, CMARK_OPT_UNSAFE, extensions) else { return "" }
        defer { free(chars) }
        return String(cString: chars)
    }

    private static let registerExtensions: Void = cmark_gfm_core_extensions_ensure_registered()

    /// The first non-blank line is the note's title, as the editor draws it (and the list
    /// names it): a level-one heading unless it is one already.
    static func titledAsHeading(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let first = lines.first, first.allSatisfy({ $0.isWhitespace || $0 == "\u{FEFF}" }) { lines.removeFirst() }
        guard let first = lines.first else { return text }
        let hashes = first.prefix { $0 == "#" }.count
        let afterHashes = first.dropFirst(hashes).first
        if (1...6).contains(hashes), afterHashes == nil || afterHashes == " " || afterHashes == "\t" { return lines.joined(separator: "\n") }
        return "# " + lines.joined(separator: "\n")
    }

    // MARK: Rewriting the tree

    private static func rewrite(_ node: Node, _ noteLinkAddress: NoteLinkAddress, _ address: Address) {
        mergeTexts(under: node)
        for child in node.children {
            switch child.kind {
            case "html_inline":
                child.replace(with: .text, literal: child.literal)
            case "html_block":
                child.replace(with: .codeBlock, literal: child.literal)
            case "text":
                splitNoteLinks(child, noteLinkAddress)
            case "link", "image":
                // Checked as written, before a library picture becomes a `data:` address.
                let isImage = child.kind == "image"
                child.url = address(safeAddress(child.url, isImage: isImage), isImage)
                rewrite(child, noteLinkAddress, address)
            default:
                rewrite(child, noteLinkAddress, address)
            }
        }
    }

    /// cmark keeps brackets as texts of their own ("[", "[", "Title", "]", "]"): joined, a
    /// `[[link]]` can be found in one text.
    private static func mergeTexts(under node: Node) {
        var previous: Node?
        for child in node.children {
            if child.kind == "text", let earlier = previous {
                earlier.literal += child.literal
                child.remove()
            } else {
                previous = child.kind == "text" ? child : nil
            }
        }
    }

    private static func splitNoteLinks(_ text: Node, _ noteLinkAddress: NoteLinkAddress) {
        let literal = text.literal
        guard literal.contains("[[") else { return }
        let scalars = Array(literal.unicodeScalars)
        let links = WikiLink.links(inLine: literal)
        guard !links.isEmpty else { return }
        func piece(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
        var position = 0
        for link in links {
            if link.range.lowerBound > position { text.insertBefore(Node.make(.text, literal: piece(position..<link.range.lowerBound))) }
            let shown = link.shown ?? link.title
            if let address = noteLinkAddress(link) {
                let linkNode = Node.make(.link, literal: nil)
                linkNode.url = address
                linkNode.append(Node.make(.text, literal: shown))
                text.insertBefore(linkNode)
            } else {
                text.insertBefore(Node.make(.text, literal: shown))
            }
            position = link.range.upperBound
        }
        if position < scalars.count { text.insertBefore(Node.make(.text, literal: piece(position..<scalars.count))) }
        text.remove()
    }

    /// Addresses a browser would run or that read the reader's own disk are dropped: script
    /// schemes, and `data:` anywhere but a raster picture's `<img>` (an SVG can hold script,
    /// and a link to data is a page the note's author wrote). Everything else is kept as written.
    static func safeAddress(_ address: String, isImage: Bool) -> String {
        let lower = address.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        for scheme in ["javascript:", "vbscript:", "file:"] where lower.hasPrefix(scheme) { return "" }
        if lower.hasPrefix("data:") {
            let raster = ["png", "jpeg", "jpg", "gif", "webp", "bmp"].contains { lower.hasPrefix("data:image/\($0);") || lower.hasPrefix("data:image/\($0),") }
            return isImage && raster ? address : ""
        }
        return address
    }

    // MARK: Nodes

    /// One node of the tree: valid while its tree lives.
    struct Node {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        enum NewKind { case text, codeBlock, link }

        static func make(_ kind: NewKind, literal: String?) -> Node {
            let type: cmark_node_type
            switch kind {
            case .text: type = CMARK_NODE_TEXT
            case .codeBlock: type = CMARK_NODE_CODE_BLOCK
            case .link: type = CMARK_NODE_LINK
            }
            let node = Node(cmark_node_new(type)!)
            if let literal { cmark_node_set_literal(node.pointer, literal) }
            return node
        }

        /// cmark's name of the node's type: "paragraph", "heading", "item", "table_cell", …
        var kind: String { String(cString: cmark_node_get_type_string(pointer)) }

        var children: [Node] {
            var nodes: [Node] = []
            var child = cmark_node_first_child(pointer)
            while let current = child {
                nodes.append(Node(current))
                child = cmark_node_next(current)
            }
            return nodes
        }

        var literal: String {
            get { cmark_node_get_literal(pointer).map { String(cString: $0) } ?? "" }
            nonmutating set { cmark_node_set_literal(pointer, newValue) }
        }

        var url: String {
            get { cmark_node_get_url(pointer).map { String(cString: $0) } ?? "" }
            nonmutating set { cmark_node_set_url(pointer, newValue) }
        }

        var headingLevel: Int { Int(cmark_node_get_heading_level(pointer)) }
        var isOrderedList: Bool { cmark_node_get_list_type(pointer) == CMARK_ORDERED_LIST }
        var isTightList: Bool { cmark_node_get_list_tight(pointer) != 0 }
        var listStart: Int { Int(cmark_node_get_list_start(pointer)) }
        /// A task list item ("- [ ]" / "- [x]"): nil for any other item.
        var task: Bool? {
            guard kind == "tasklist" else { return nil }
            return cmark_gfm_extensions_get_tasklist_item_checked(pointer)
        }
        var isHeaderRow: Bool { cmark_gfm_extensions_get_table_row_is_header(pointer) != 0 }

        /// The text of the node's inlines, without any syntax.
        var plainText: String {
            switch kind {
            case "text", "code": return literal
            case "softbreak": return " "
            case "linebreak": return "\n"
            default: return children.map(\.plainText).joined()
            }
        }

        func insertBefore(_ node: Node) { cmark_node_insert_before(pointer, node.pointer) }
        func append(_ node: Node) { cmark_node_append_child(pointer, node.pointer) }

        func remove() {
            cmark_node_unlink(pointer)
            cmark_node_free(pointer)
        }

        func replace(with kind: NewKind, literal: String) {
            insertBefore(Node.make(kind, literal: literal))
            remove()
        }
    }
}

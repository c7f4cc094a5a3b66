/// What a run of Markdown text is, for the editor to draw it (one text tag per case). Styling
/// never changes the text: syntax characters stay, dimmed (`syntax`).
public enum MarkdownStyle: String, CaseIterable, Sendable {
    /// The note's first line, which names it.
    case title
    case heading1, heading2, heading3, heading4, heading5, heading6
    case bold, italic, strikethrough
    /// Inline `code`.
    case code
    /// Lines of a fenced code block, fences included.
    case codeBlock
    /// A block quote line.
    case quote
    /// `-`, `*`, `+`, `1.` before a list item.
    case listMarker
    /// `[ ]` / `[x]` of a task item.
    case taskOpen, taskDone
    /// `---` and the like.
    case rule
    /// The text of a link (also bare and <…> addresses).
    case link
    /// The address of a `[text](address)` link.
    case url
    /// The target (or shown text) of a `[[note link]]`.
    case noteLink
    /// A `#tag`.
    case tag
    /// `#`, `**`, `_`, `` ` ``, `>`, brackets: drawn dimmed.
    case syntax

    public static func heading(_ level: Int) -> MarkdownStyle {
        [.heading1, .heading2, .heading3, .heading4, .heading5, .heading6][min(max(level, 1), 6) - 1]
    }
}

/// A styled run of one line, in characters (Unicode scalars) from the line's start.
public struct MarkdownSpan: Equatable, Sendable {
    public var range: Range<Int>
    public var style: MarkdownStyle

    public init(_ range: Range<Int>, _ style: MarkdownStyle) {
        self.range = range
        self.style = style
    }
}

/// A link found in a line: where it is drawn and where it goes.
public struct MarkdownLink: Equatable, Sendable {
    /// The whole link, syntax included, in characters from the line's start.
    public var range: Range<Int>
    public var address: String
    /// Where `address` is written in the line (inside `<…>` when it is so written), for
    /// `[text](address)` and `![alt](address)` links; nil for autolinks and bare addresses.
    public var addressRange: Range<Int>?

    public init(range: Range<Int>, address: String, addressRange: Range<Int>? = nil) {
        self.range = range
        self.address = address
        self.addressRange = addressRange
    }

    /// Whether Notula hands the address to the desktop: web and mail addresses only (a
    /// note from elsewhere must not open local files or run other schemes' handlers).
    public var isOpenable: Bool {
        let lower = address.lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && address.count > 8
            || lower.hasPrefix("mailto:") && address.count > 7
    }
}

/// One block of a printed note, ready to lay out: a paragraph, heading, list item, code, table
/// or quote as Pango markup (fonts and styles inside), a rule, or a picture. The printer only
/// flows these down the pages: what a note looks like printed is decided in `PrintableNote`.
public struct PrintBlock: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        /// Pango markup: the block's whole text with its fonts.
        case text(markup: String)
        /// A thematic break (`---`): a thin line across.
        case rule
        /// A picture of the library (an absolute path), drawn fitted to the page; `alt` stands
        /// in for it when it cannot be read.
        case picture(path: String, alt: String)
    }

    public var content: Content
    /// Indentation steps from the left margin (list nesting, quotes).
    public var level: Int
    /// Drawn in the margin before the block's first line: "•", "3.", "☐", "☑".
    public var marker: String?
    /// Space above the block, in points.
    public var spaceBefore: Double
    /// A heading: kept on the page of the line that follows it.
    public var keepWithNext: Bool

    public init(_ content: Content, level: Int = 0, marker: String? = nil, spaceBefore: Double = 0, keepWithNext: Bool = false) {
        self.content = content
        self.level = level
        self.marker = marker
        self.spaceBefore = spaceBefore
        self.keepWithNext = keepWithNext
    }
}

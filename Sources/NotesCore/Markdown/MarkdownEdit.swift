/// One change a Markdown key makes: replace `range` with `replacement`, then select
/// `selection`. Offsets are characters (Unicode scalars) of the text the edit was made for.
public struct MarkdownEdit: Equatable, Sendable {
    public var range: Range<Int>
    public var replacement: String
    public var selection: Range<Int>

    public init(range: Range<Int>, replacement: String, selection: Range<Int>) {
        self.range = range
        self.replacement = replacement
        self.selection = selection
    }

    /// The same edit for text that starts `offset` characters later (a line within a note).
    public func shifted(by offset: Int) -> MarkdownEdit {
        MarkdownEdit(range: range.lowerBound + offset..<range.upperBound + offset, replacement: replacement,
                     selection: selection.lowerBound + offset..<selection.upperBound + offset)
    }
}

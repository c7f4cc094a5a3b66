/// What a line of Markdown inherits from the lines above it: only whether it is inside a
/// fenced code block (and which fence closes it). Everything else is decided by the line
/// itself and its neighbours, so restyling after an edit stops as soon as this state matches.
public struct MarkdownBlockState: Equatable, Sendable {
    /// The fence that opened the current code block: its character and length.
    public var fence: (character: Unicode.Scalar, length: Int)?

    public init() {}

    public static let outside = MarkdownBlockState()

    public var isInCodeBlock: Bool { fence != nil }

    public static func == (lhs: MarkdownBlockState, rhs: MarkdownBlockState) -> Bool {
        lhs.fence?.character == rhs.fence?.character && lhs.fence?.length == rhs.fence?.length
    }
}

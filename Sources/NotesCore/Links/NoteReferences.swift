import Foundation

/// What a note's text points at: its `[[Title]]` links, its relative Markdown links to other
/// notes (`[text](Other%20note.md)`, `../Work/Plan.md`), and its `#tags` — in prose only:
/// fenced code, code spans, escapes and web addresses hold none. The library index keeps
/// them (`LibraryIndex+Links`) for backlinks, the tag list and renames.
public struct NoteReferences: Equatable, Sendable {
    public struct Link: Equatable, Sendable {
        /// `Target.title(key)` or `Target.note(path)`, as the index stores it.
        public var target: String
        /// The line (0-based) and its text, trimmed and shortened, for the backlinks list.
        public var line: Int
        public var context: String
    }

    public var links: [Link] = []
    /// Each tag once: its key (`TagMention.key`) and how it was first written.
    public var tags: [(key: String, written: String)] = []

    public static func == (lhs: NoteReferences, rhs: NoteReferences) -> Bool {
        lhs.links == rhs.links && lhs.tags.map(\.key) == rhs.tags.map(\.key) && lhs.tags.map(\.written) == rhs.tags.map(\.written)
    }

    /// How a link's target is stored: a title's key, or a note's library-relative path.
    public enum Target {
        public static func title(_ key: String) -> String { "t:" + key }
        public static func note(_ path: String) -> String { "p:" + path }
    }

    /// The longest line kept as a backlink's context.
    static let contextLength = 160

    /// The references of `text`, the note `noteID` (library-relative: relative links are read
    /// from its folder). Lines are split at "\n" (a "\r" before it is left out).
    public init(text: String, noteID: String) {
        let folder = (noteID as NSString).deletingLastPathComponent
        var state = MarkdownBlockState.outside
        var seenTags: Set<String> = []
        var lineNumber = 0
        for rawLine in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            defer { lineNumber += 1 }
            var scalars = Array(rawLine)
            if scalars.last == "\r" { scalars.removeLast() }
            let entering = state
            let line = String(String.UnicodeScalarView(scalars))
            if scalars.contains("`") || scalars.contains("~") { state = MarkdownLineStyler.exitState(of: line, entering: entering) }
            guard !entering.isInCodeBlock, !state.isInCodeBlock,
                  scalars.contains("[") || scalars.contains("#") else { continue }
            let (noteLinks, tags) = MarkdownInline.references(in: scalars)
            var targets = noteLinks.map { Target.title($0.key) }
            if scalars.contains("]") {
                for link in MarkdownEditing.links(in: line) where link.addressRange != nil {
                    guard case .success(let path) = LibraryLinkResolver.relativePath(of: link.address, fromFolder: folder),
                          !path.isEmpty, NoteLibrary.isNoteFileName((path as NSString).lastPathComponent) else { continue }
                    targets.append(Target.note(path))
                }
            }
            if !targets.isEmpty {
                let context = String(line.trimmingCharacters(in: .whitespaces).prefix(Self.contextLength))
                for target in targets { links.append(Link(target: target, line: lineNumber, context: context)) }
            }
            for tag in tags where seenTags.insert(tag.key).inserted {
                self.tags.append((tag.key, tag.name))
            }
        }
    }
}

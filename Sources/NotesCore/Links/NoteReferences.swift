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
    /// from its folder). Lines are split at "\n" (a "\r" before it is left out). Indexing
    /// reads every note's text through here: a line is looked at closer only when its bytes
    /// hold `[`, `#` or a fence's first characters (most lines of most notes hold none).
    public init(text: String, noteID: String) {
        let folder = (noteID as NSString).deletingLastPathComponent
        var state = MarkdownBlockState.outside
        var seenTags: Set<String> = []
        var lineNumber = 0
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                var mayReference = false
                while end < bytes.count, bytes[end] != 0x0A {
                    if bytes[end] == 0x5B || bytes[end] == 0x23 { mayReference = true }  // "[" "#"
                    end += 1
                }
                defer {
                    lineNumber += 1
                    start = end + 1
                }
                var lineEnd = end
                if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let entering = state
                if Self.mayBeFence(bytes, start, lineEnd) {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]), as: UTF8.self)
                    state = MarkdownLineStyler.exitState(of: line, entering: entering)
                }
                guard mayReference, !entering.isInCodeBlock, !state.isInCodeBlock else { continue }
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]), as: UTF8.self)
                add(line: line, number: lineNumber, folder: folder, seenTags: &seenTags)
            }
        }
    }

    /// Up to three spaces, then three backticks or tildes: a line that may open or close a fence.
    private static func mayBeFence(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var first = start
        while first < end, first - start < 3, bytes[first] == 0x20 { first += 1 }
        guard first + 2 < end, bytes[first] == 0x60 || bytes[first] == 0x7E else { return false }
        return bytes[first + 1] == bytes[first] && bytes[first + 2] == bytes[first]
    }

    private mutating func add(line: String, number: Int, folder: String, seenTags: inout Set<String>) {
        let scalars = Array(line.unicodeScalars)
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
            for target in targets { links.append(Link(target: target, line: number, context: context)) }
        }
        for tag in tags where seenTags.insert(tag.key).inserted {
            self.tags.append((tag.key, tag.name))
        }
    }
}

import Foundation

/// A `#tag` added to or removed from a note's text, as Add Tag… and Remove Tag… do for many
/// notes at once. An added tag goes at the note's end: onto its last line when that line holds
/// only tags, else on a line of its own; removal takes the tag's mentions out of the prose
/// (never out of code), and a line left empty by it goes too. The file's line breaks and
/// byte-order mark stay as they were (`NoteEncoding`).
public enum TagEdit {
    /// "trip", "#trip", " #Trip/2026 " → the tag as written without `#`; nil when it is no tag.
    public static func name(from input: String) -> String? {
        var trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("#") { trimmed.removeFirst() }
        let chars = Array(("#" + trimmed).unicodeScalars)
        guard !trimmed.isEmpty, chars.dropFirst().allSatisfy(TagMention.isTagCharacter),
              let mention = TagMention(chars, range: 0..<chars.count) else { return nil }
        return mention.name
    }

    /// The note's bytes with `tag` at its end, or nil when it holds the tag already (in any
    /// case or accents) or is not text Notula may change.
    public static func adding(_ tag: String, to data: Data) -> Data? {
        let decoded = NoteEncoding.decode(data)
        guard decoded.problem == nil, !tags(of: decoded.text).contains(TitleKey.of(tag)) else { return nil }
        var lines = decoded.text.components(separatedBy: "\n")
        let endsWithBreak = lines.count > 1 && lines.last == ""
        if endsWithBreak { lines.removeLast() }
        if let last = lines.last, isTagsOnly(last) {
            lines[lines.count - 1] = last + " #" + tag
        } else if lines == [""] {
            lines = ["#" + tag]
        } else {
            lines.append("#" + tag)
        }
        return decoded.encoding.encode(lines.joined(separator: "\n") + (endsWithBreak ? "\n" : ""))
    }

    /// The note's bytes without its mentions of `tag` (the tag itself, not the tags inside it:
    /// removing `#work` keeps `#work/meetings`), or nil when it has none.
    public static func removing(_ tag: String, from data: Data) -> Data? {
        let decoded = NoteEncoding.decode(data)
        guard decoded.problem == nil else { return nil }
        let key = TitleKey.of(tag)
        var changed = false
        var inFence = false
        var lines: [String] = []
        for line in decoded.text.components(separatedBy: "\n") {
            if isFence(line) { inFence.toggle() }
            guard !inFence, !isFence(line), line.contains("#") else {
                lines.append(line)
                continue
            }
            var chars = Array(line.unicodeScalars)
            let mentions = MarkdownInline.references(in: chars).tags.filter { $0.key == key }
            guard !mentions.isEmpty else {
                lines.append(line)
                continue
            }
            changed = true
            for mention in mentions.reversed() {
                var range = mention.range
                // One space goes with it: the one after, or the one before at the line's end.
                if range.upperBound < chars.count, chars[range.upperBound] == " " {
                    range = range.lowerBound..<(range.upperBound + 1)
                } else if range.lowerBound > 0, chars[range.lowerBound - 1] == " " {
                    range = (range.lowerBound - 1)..<range.upperBound
                }
                chars.removeSubrange(range)
            }
            let left = String(String.UnicodeScalarView(chars))
            if left.trimmingCharacters(in: .whitespaces).isEmpty { continue }  // the line held only it
            lines.append(left)
        }
        guard changed else { return nil }
        return decoded.encoding.encode(lines.joined(separator: "\n"))
    }

    /// The keys of the tags `text` mentions.
    static func tags(of text: String) -> Set<String> {
        Set(NoteReferences(text: text, noteID: "").tags.map(\.key))
    }

    /// A line of tags and spaces only ("#trip #family").
    private static func isTagsOnly(_ line: String) -> Bool {
        let chars = Array(line.unicodeScalars)
        let tags = MarkdownInline.references(in: chars).tags
        guard !tags.isEmpty else { return false }
        var covered = Array(repeating: false, count: chars.count)
        for tag in tags { for i in tag.range { covered[i] = true } }
        return chars.indices.allSatisfy { covered[$0] || chars[$0] == " " || chars[$0] == "\t" }
    }

    private static func isFence(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
    }
}

/// A `#tag` of a line. Tags nest with `/` (`#work/meetings` is inside `#work`) and are
/// matched without regard to case or accents (`TitleKey`), shown as first written.
public struct TagMention: Equatable, Sendable {
    /// The tag with its `#`, in characters (Unicode scalars) from the line's start.
    public var range: Range<Int>
    /// The tag as written, without `#`.
    public var name: String

    /// Nil when the characters after `#` are digits only (`#1` is a number).
    init?(_ chars: [Unicode.Scalar], range: Range<Int>) {
        let body = chars[(range.lowerBound + 1)..<range.upperBound]
        let name = String(String.UnicodeScalarView(body))
        guard let first = body.first, first != "/", first != "-", body.contains(where: { $0.properties.isAlphabetic }),
              !name.contains("//") else { return nil }
        self.range = range
        self.name = name
    }

    /// Letters, digits, `_`, `-` and `/` (nesting).
    public static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "-" || scalar == "/" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            || scalar.properties.generalCategory == .nonspacingMark
    }

    /// The key a tag is counted and filtered by.
    public var key: String { TitleKey.of(name) }

    /// `work/meetings` → ["work", "work/meetings"]: the tag and every tag it is inside.
    public static func lineage(of key: String) -> [String] {
        var found: [String] = []
        var path = ""
        for part in key.split(separator: "/") {
            path = path.isEmpty ? String(part) : path + "/" + part
            found.append(path)
        }
        return found
    }
}

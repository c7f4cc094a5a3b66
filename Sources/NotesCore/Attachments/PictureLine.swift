/// A line that holds only a Markdown image — `![alt](address "title")`, spaces around allowed —
/// which the editor shows as a picture below the line. Anything else on the line (text, a
/// second image, a link around the image) makes it an ordinary line.
public struct PictureLine: Hashable, Sendable {
    /// The alt text (backslash escapes removed): what screen readers say for the picture.
    public var alt: String
    /// The address as written (still percent-encoded; `<…>` brackets removed).
    public var address: String
    public var title: String?

    public init(alt: String, address: String, title: String? = nil) {
        self.alt = alt
        self.address = address
        self.title = title
    }

    /// The picture a line shows, or nil. Cheap for ordinary lines (one scan for "![").
    public static func parse(_ line: String) -> PictureLine? {
        var scalars = Substring(line).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        guard scalars.starts(with: "![".unicodeScalars), scalars.last == ")" else { return nil }
        var rest = scalars.dropFirst(2)
        // The alt text: up to the matching "]", nested brackets balanced, escapes kept out.
        var alt = String.UnicodeScalarView()
        var depth = 0
        while true {
            guard let scalar = rest.popFirst() else { return nil }
            if scalar == "\\", let next = rest.first, PictureLine.isEscapable(next) {
                alt.append(next)
                rest.removeFirst()
                continue
            }
            if scalar == "[" { depth += 1 }
            if scalar == "]" {
                if depth == 0 { break }
                depth -= 1
            }
            alt.append(scalar)
        }
        guard rest.popFirst() == "(" else { return nil }
        skipSpaces(&rest)
        var address = String.UnicodeScalarView()
        if rest.first == "<" {
            rest.removeFirst()
            while true {
                guard let scalar = rest.popFirst(), scalar != "\n" else { return nil }
                if scalar == ">" { break }
                if scalar == "\\", let next = rest.first, next == "<" || next == ">" {
                    address.append(next)
                    rest.removeFirst()
                    continue
                }
                address.append(scalar)
            }
        } else {
            var parentheses = 0
            while let scalar = rest.first {
                if scalar == " " || scalar == "\t" { break }
                if scalar == "(" { parentheses += 1 }
                if scalar == ")" {
                    if parentheses == 0 { break }
                    parentheses -= 1
                }
                address.append(scalar)
                rest.removeFirst()
            }
        }
        skipSpaces(&rest)
        var title: String?
        if let open = rest.first, open == "\"" || open == "'" || open == "(" {
            let close: Unicode.Scalar = open == "(" ? ")" : open
            rest.removeFirst()
            var text = String.UnicodeScalarView()
            while true {
                guard let scalar = rest.popFirst() else { return nil }
                if scalar == "\\", let next = rest.first, PictureLine.isEscapable(next) {
                    text.append(next)
                    rest.removeFirst()
                    continue
                }
                if scalar == close { break }
                text.append(scalar)
            }
            title = String(text)
            skipSpaces(&rest)
        }
        // Only the closing parenthesis may be left.
        guard rest.count == 1, rest.first == ")", !address.isEmpty else { return nil }
        return PictureLine(alt: String(alt), address: String(address), title: title)
    }

    /// ASCII punctuation, which a backslash escapes in CommonMark.
    static func isEscapable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars.contains(scalar)
    }

    private static func skipSpaces(_ scalars: inout Substring.UnicodeScalarView.SubSequence) {
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    }

    /// The name to show and say for a picture without alt text: the address's last part.
    public var fileName: String {
        let path = address.split(separator: "#", maxSplits: 1).first.map(String.init) ?? address
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.removingPercentEncoding ?? last
    }
}

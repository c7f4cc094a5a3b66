import Foundation

/// A note, or a notebook's notes, as one self-contained HTML file: GitHub's Markdown through
/// cmark-gfm (tables, task lists, strikethrough), a little CSS, and every picture of the
/// library embedded as a `data:` address, so the file can be mailed or moved alone.
///
/// The result is well-formed XML as well as HTML (cmark closes every element and writes void
/// ones as `<br />`), so any reader or converter can take it.
public struct NoteHTMLExport: Sendable {
    /// A note to export: its id in the library (for its pictures' paths) and its text.
    public struct Note: Sendable {
        public var id: String
        public var text: String

        public init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    public let library: URL
    /// Pictures larger than this stay links: a file meant to be mailed should not carry a
    /// video-sized picture silently.
    private let largestEmbeddedPicture = 32 * 1024 * 1024

    public init(library: URL) {
        self.library = library
    }

    /// One note's page, titled with its title.
    public func document(for note: Note) -> String {
        document(title: NoteText.title(of: note.text), notes: [note])
    }

    /// A notebook's page: its name, a contents list, then each note. `[[links]]` and
    /// relative links between these notes lead within the page.
    public func document(notebook name: String, notes: [Note]) -> String {
        document(title: name, notes: notes, contents: true)
    }

    /// The notes of the notebook at `path` (its notebooks inside too), by title: the notes
    /// the list shows for it, found as the library finds them (no symbolic links followed,
    /// conflict copies left with their note, nothing but regular files opened). A note that
    /// cannot be read is left out and named in `unread`.
    public func notes(inNotebook path: String) -> (notes: [Note], unread: [String]) {
        var notes: [Note] = [], unread: [String] = []
        let folders = [path] + NoteLibrary(folder: library).notebooks().filter { $0.hasPrefix(path + "/") }
        for folder in folders {
            let names = (try? FolderEntries.read(library.appendingPathComponent(folder).path).map(\.name)) ?? []
            for name in NoteLibrary.classify(names).own {
                let id = folder + "/" + name
                if let (data, _) = try? RegularFile.read(library.appendingPathComponent(id)) {
                    notes.append(Note(id: id, text: NoteEncoding.decode(data).text))
                } else {
                    unread.append(id)
                }
            }
        }
        notes.sort { NoteText.title(of: $0.text).localizedStandardCompare(NoteText.title(of: $1.text)) == .orderedAscending }
        return (notes, unread)
    }

    /// The notes `ids` (library-relative, as the list has them), in that order; one that
    /// cannot be read (gone, not a regular file) is left out and named in `unread`.
    public func notes(ids: [String]) -> (notes: [Note], unread: [String]) {
        var notes: [Note] = [], unread: [String] = []
        for id in ids {
            if let (data, _) = try? RegularFile.read(library.appendingPathComponent(id)) {
                notes.append(Note(id: id, text: NoteEncoding.decode(data).text))
            } else {
                unread.append(id)
            }
        }
        return (notes, unread)
    }

    private func document(title: String, notes: [Note], contents: Bool = false) -> String {
        var anchors: [String: String] = [:]  // note id → anchor
        var anchorsByTitle: [String: String] = [:]  // title key → anchor (the first note of a title wins)
        for (index, note) in notes.enumerated() {
            anchors[note.id] = "note-\(index + 1)"
            let key = TitleKey.of(NoteText.title(of: note.text))
            if anchorsByTitle[key] == nil { anchorsByTitle[key] = "note-\(index + 1)" }
        }
        let resolver = LibraryLinkResolver(library: library)
        var body = ""
        if contents, notes.count > 1 {
            body += "<nav class=\"contents\">\n<ul>\n"
            for note in notes {
                body += "<li><a href=\"#\(anchors[note.id]!)\">\(Self.escaped(NoteText.title(of: note.text)))</a></li>\n"
            }
            body += "</ul>\n</nav>\n"
        }
        for note in notes {
            let location = NoteLocation(library: library, noteID: note.id)
            let tree = MarkdownTree(note: note.text, noteLinkAddress: { link in
                anchorsByTitle[link.key].map { "#\($0)" }
            }, address: { address, isPicture in
                guard case .success(let target) = resolver.resolve(address, from: location) else { return address }
                switch target {
                case .note(let id): return anchors[id].map { "#\($0)" } ?? address
                case .file(let url): return isPicture ? (embedded(url) ?? address) : address
                }
            })
            body += "<article id=\"\(anchors[note.id]!)\">\n\(tree.html())</article>\n"
        }
        return """
        <!DOCTYPE html>
        <html>
        <head>
        <meta charset="utf-8" />
        <meta name="generator" content="Notula" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>\(Self.escaped(title))</title>
        <style>
        \(Self.style)
        </style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    /// The picture as a `data:` address, or nil when it cannot be read, is no regular file (a
    /// FIFO would never end) or is no picture a browser shows.
    private func embedded(_ url: URL) -> String? {
        guard let (data, _) = try? RegularFile.read(url, followLinks: true, maximumBytes: largestEmbeddedPicture),
              let format = PictureFormat.of(data) else { return nil }
        return "data:\(format.mediaType);base64,\(data.base64EncodedString())"
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for char in text {
            switch char {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(char)
            }
        }
        return result
    }

    private static let style = """
    body { font-family: Cantarell, "Noto Sans", "DejaVu Sans", sans-serif; line-height: 1.5; max-width: 46em; margin: 2em auto; padding: 0 1em; color: #241f31; }
    article + article { border-top: 1px solid #deddda; margin-top: 2em; }
    nav.contents { border-bottom: 1px solid #deddda; }
    code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 0.92em; background: #f6f5f4; border-radius: 4px; }
    code { padding: 0 0.2em; }
    pre { padding: 0.6em 0.8em; overflow-x: auto; }
    pre code { padding: 0; background: none; }
    blockquote { margin-left: 0; padding-left: 1em; border-left: 3px solid #c0bfbc; color: #5e5c64; }
    table { border-collapse: collapse; }
    th, td { border: 1px solid #c0bfbc; padding: 0.25em 0.6em; }
    li:has(> input[type=checkbox]) { list-style: none; margin-left: -1.4em; }
    img { max-width: 100%; }
    """
}

import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Every way a note can link a file counts — reference definitions, HTML `src`/`href`, and
/// as a last safety net the file's name anywhere in a note — so Remove Unused and Empty Trash
/// never remove a file a note reaches; moving a note rewrites those links too, nothing else.
final class AttachmentLinkFormsTests: XCTestCase {
    private var root: TemporaryFolder!
    private var library: URL!

    override func setUp() {
        root = TemporaryFolder()
        library = root.url.appendingPathComponent("Notes")
    }

    private func write(_ path: String, _ text: String) throws {
        let url = library.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func exists(_ path: String) -> Bool { FileSystem.exists(library.appendingPathComponent(path).path) }

    func testReferenceDefinitionsAndHTMLAttributesAreLinks() {
        let text = """
        [id]: attachments/ref.png "Title"
           [angle]: <attachments/a b.png> 'T'
            [code]: attachments/indented.png
        [^1]: footnote.png
        [words]: attachments/x.png and more words
        Inline <img alt="x" src="attachments/html.png"> and <A HREF='attachments/f.pdf'>f</A> <img src=attachments/bare.png>
        `<img src="attachments/span.png">` <a href="https://x.org/a.png"> [t](attachments/inline.png)
        """
        XCTAssertEqual(NoteLinks.addresses(in: text).sorted(), ["attachments/a b.png", "attachments/bare.png", "attachments/f.pdf",
                                                                "attachments/html.png", "attachments/inline.png", "attachments/ref.png",
                                                                "https://x.org/a.png"])
    }

    func testNoFileAnyNoteReachesIsUnusedOrRemoved() throws {
        let names = ["ref.png", "angle ref.png", "html.png", "href.pdf", "named.png", "Über Plan.png", "CASE.png", "trashed.png", "orphan.png"]
        for name in names { try write("attachments/\(name)", name) }
        try write("Work/refs.md", "Text [x][id]\n\n[id]: ../attachments/ref.png \"A picture\"\n  [b]: <../attachments/angle ref.png>\n")
        try write("html.md", "<p><img src=\"attachments/html.png\" width=3></p>\r\n<a href='attachments/href.pdf'>the file</a>\r\n")
        // Only named: not a link at all, or a link Notula cannot read (an absolute path).
        try write("mentions.md", "The picture named.png is on the share.\n![](/home/me/Notes/attachments/%C3%9Cber%20Plan.png)\nsee case.PNG\n")
        try write("gone.md", "<img src=\"attachments/trashed.png\">\n")
        let trash = LibraryTrash(library: library)
        try trash.trash(relativePath: "gone.md")
        let usage = AttachmentUsage(library: library)
        XCTAssertEqual(try usage.unused(), ["attachments/orphan.png"])
        XCTAssertEqual(try usage.remove(names.map { "attachments/\($0)" }), ["attachments/orphan.png"])
        for name in names.dropLast() { XCTAssertTrue(exists("attachments/\(name)"), name) }

        // Empty Trash: the deleted note's HTML link counts (its file goes when nobody else has it) …
        XCTAssertEqual(try trash.empty(), 1)
        XCTAssertFalse(exists("attachments/trashed.png"))
        // … and a file another note only names stays.
        try write("gone2.md", "[r][r]\n\n[r]: attachments/named.png\n")
        try trash.trash(relativePath: "gone2.md")
        XCTAssertEqual(try trash.empty(), 1)
        XCTAssertTrue(exists("attachments/named.png"), "mentions.md names it")
        try write("mentions.md", "nothing\n")
        XCTAssertEqual(try usage.unused(), ["attachments/CASE.png", "attachments/named.png", "attachments/Über Plan.png"])
    }

    func testMovingANoteRewritesReferenceDefinitionsAndHTMLOnly() throws {
        let text = "# Note\r\n[x][id] <img src=\"attachments/a b.png\" alt='attachments/a.png'>\r\n"
            + "`<img src=\"attachments/code.png\">` <a href='attachments/f.pdf#p2'>f</a> <a href=\"#top\">top</a> <a href=\"https://x.org/y\">y</a>\r\n"
            + "[id]: attachments/ref.png \"Title\"\r\n   [b]: <attachments/Report 2026.pdf>\r\n[^1]: attachments/foot.png\r\n"
            + "```\r\n[c]: attachments/fenced.png\r\n```\r\n"
        try write("note.md", text)
        let notebooks = Notebooks(library: library)
        try notebooks.create("Work")
        let moved = try notebooks.move(note: "note.md", to: "Work")
        let expected = "# Note\r\n[x][id] <img src=\"../attachments/a b.png\" alt='attachments/a.png'>\r\n"
            + "`<img src=\"attachments/code.png\">` <a href='../attachments/f.pdf#p2'>f</a> <a href=\"#top\">top</a> <a href=\"https://x.org/y\">y</a>\r\n"
            + "[id]: ../attachments/ref.png \"Title\"\r\n   [b]: <../attachments/Report 2026.pdf>\r\n[^1]: attachments/foot.png\r\n"
            + "```\r\n[c]: attachments/fenced.png\r\n```\r\n"
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent(moved), encoding: .utf8), expected)
        XCTAssertEqual(try notebooks.move(note: moved, to: ""), "note.md")
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("note.md"), encoding: .utf8), text, "back: the same bytes")
    }
}

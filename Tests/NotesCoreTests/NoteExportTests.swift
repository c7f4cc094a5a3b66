import Foundation
import TestSupport
import XCTest
@testable import NotesCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A note and a notebook as HTML (cmark-gfm) and as printed blocks: what a reader of the file
/// or the page sees — headings, list items, task boxes, tables, pictures — and never the
/// Markdown's syntax; the HTML read back by an XML parser, so it is well-formed.
final class NoteExportTests: XCTestCase {
    private let sample = """
        Trip plan
        Some **bold**, *italic*, ~~gone~~ and `code` words, see [[Packing]] and [[Nowhere|elsewhere]].

        ## Before leaving
        - [ ] Book the train
        - [x] Pack the tent
        - Passports
          - Ann's
          1. first
          2. second

        | Day | Place |
        |-----|:-----:|
        | Mon | Lyon & <Dijon> |

        > Quoted *words*

        ```
        let x = 1 < 2
        ```

        <b>raw</b> & <script>alert(1)</script>

        ---
        [click](javascript:alert(1)) <https://example.org>
        """

    /// The HTML parsed as XML: fails the test unless it is well-formed.
    private func parsed(_ html: String, file: StaticString = #filePath, line: UInt = #line) throws -> XMLDocument {
        do {
            return try XMLDocument(xmlString: html, options: [])
        } catch {
            XCTFail("not well-formed: \(error)\n\(html)", file: file, line: line)
            throw error
        }
    }

    private func texts(_ document: XMLDocument, _ path: String) throws -> [String] {
        try document.nodes(forXPath: path).map { ($0.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    func testNoteHTMLIsWellFormedWithHeadingsListsTasksAndTables() throws {
        let folder = TemporaryFolder()
        let html = NoteHTMLExport(library: folder.url).document(for: .init(id: "Trip plan.md", text: sample))
        let document = try parsed(html)
        XCTAssertEqual(try texts(document, "/html/head/title"), ["Trip plan"])
        XCTAssertEqual(try texts(document, "//h1"), ["Trip plan"], "the first line is the title")
        XCTAssertEqual(try texts(document, "//h2"), ["Before leaving"])
        let items = try texts(document, "//li")
        XCTAssertTrue(items.contains("Book the train"), "\(items)")
        XCTAssertTrue(items.contains("Ann's"), "\(items)")
        XCTAssertEqual(try texts(document, "//ol/li"), ["first", "second"])
        let boxes = try document.nodes(forXPath: "//li/input[@type='checkbox']") as! [XMLElement]
        XCTAssertEqual(boxes.count, 2, "two task boxes")
        XCTAssertNil(boxes[0].attribute(forName: "checked"))
        XCTAssertNotNil(boxes[1].attribute(forName: "checked"), "the done task is checked")
        XCTAssertEqual(try texts(document, "//table//th"), ["Day", "Place"])
        XCTAssertEqual(try texts(document, "//table//td"), ["Mon", "Lyon & <Dijon>"])
        XCTAssertEqual(try texts(document, "//del"), ["gone"])
        XCTAssertEqual(try texts(document, "//strong"), ["bold"])
        XCTAssertEqual(try texts(document, "//blockquote//em"), ["words"])
        XCTAssertEqual(try texts(document, "//pre/code"), ["let x = 1 < 2"])
        // A [[link]] shows its title (or shown text); with no such note in the file, no link.
        let paragraph = try texts(document, "//p")[0]
        XCTAssertTrue(paragraph.contains("see Packing and elsewhere."), paragraph)
        XCTAssertFalse(html.contains("[["), "no link syntax left")
        // HTML written in the note is shown as written, never run.
        XCTAssertTrue(try document.nodes(forXPath: "//script").isEmpty)
        XCTAssertTrue(try texts(document, "//body").joined().contains("<script>alert(1)</script>"), "the raw HTML is kept as text")
        XCTAssertFalse(html.contains("javascript:"), "a script address is dropped")
        XCTAssertEqual(try texts(document, "//a[@href='https://example.org']"), ["https://example.org"])
        XCTAssertFalse(html.contains("**") || html.contains("- [ ]") || html.contains("## "), "no Markdown syntax in the page")
    }

    func testDataAddressesAreKeptOnlyForRasterPicturesInImages() throws {
        let folder = TemporaryFolder()
        let svg = "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"
        let text = """
        Data
        ![dot](data:image/png;base64,iVBORw0KGgo=) ![vector](\(svg)) [page](data:text/html,<b>x</b>)
        [picture link](data:image/png;base64,iVBORw0KGgo=) [svg link](\(svg))
        """
        let html = NoteHTMLExport(library: folder.url).document(for: .init(id: "Data.md", text: text))
        let document = try parsed(html)
        let sources = try document.nodes(forXPath: "//img/@src").compactMap(\.stringValue)
        XCTAssertEqual(sources.filter { $0.hasPrefix("data:") }, ["data:image/png;base64,iVBORw0KGgo="], "only the raster picture")
        XCTAssertFalse(html.contains("svg+xml"), "an SVG data address (it can hold script) is dropped")
        XCTAssertFalse(html.contains("data:text"), "a data page is dropped")
        let links = try document.nodes(forXPath: "//a/@href").compactMap(\.stringValue)
        XCTAssertFalse(links.contains { $0.hasPrefix("data:") }, "no link leads to data: \(links)")
    }

    func testNotebookHTMLLinksItsNotesWithinThePageAndEmbedsPictures() throws {
        let folder = TemporaryFolder()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try FileManager.default.createDirectory(at: folder.file("Trips/attachments"), withIntermediateDirectories: true)
        try png.write(to: folder.file("Trips/attachments/map.png"))
        let notes: [NoteHTMLExport.Note] = [
            .init(id: "Trips/Trip plan.md", text: "Trip plan\nSee [[packing]] and [the list](Packing.md).\n\n![Map of the route](attachments/map.png)\n\n![Gone](attachments/none.png)"),
            .init(id: "Trips/Packing.md", text: "# Packing\n- Tent\n"),
        ]
        let html = NoteHTMLExport(library: folder.url).document(notebook: "Trips", notes: notes)
        let document = try parsed(html)
        XCTAssertEqual(try texts(document, "/html/head/title"), ["Trips"])
        XCTAssertEqual(try texts(document, "//nav//a"), ["Trip plan", "Packing"], "a contents list")
        XCTAssertEqual(try texts(document, "//article/h1"), ["Trip plan", "Packing"])
        let packingAnchor = try XCTUnwrap((try document.nodes(forXPath: "//article[h1='Packing']/@id")).first?.stringValue)
        XCTAssertEqual(try texts(document, "//article[1]//a[@href='#\(packingAnchor)']"), ["packing", "the list"],
                       "the [[link]] (any case) and the relative link lead to the note in the page")
        let sources = try document.nodes(forXPath: "//img/@src").compactMap(\.stringValue)
        XCTAssertEqual(sources.first, "data:image/png;base64," + png.base64EncodedString(), "the picture is in the file")
        XCTAssertEqual(sources.last, "attachments/none.png", "a missing picture keeps its address")
        XCTAssertEqual(try document.nodes(forXPath: "//img/@alt").compactMap(\.stringValue).first, "Map of the route")
    }

    /// A notebook's notes as the list shows them: its notebooks inside too, a conflict copy
    /// left with its note, a symbolic link not followed, a FIFO never opened (it would never
    /// end), an unreadable note named; a picture that is a FIFO stays a link, and prints as its
    /// description.
    func testNotebookNotesAreTheListsAndHostileFilesNeverHang() throws {
        let folder = TemporaryFolder()
        let manager = FileManager.default
        try manager.createDirectory(at: folder.file("Trips/Later/attachments"), withIntermediateDirectories: true)
        try "Lyon\n![Map](attachments/pipe.png)\n".write(to: folder.file("Trips/Later/Lyon.md"), atomically: false, encoding: .utf8)
        try "Dijon\n".write(to: folder.file("Trips/Dijon.md"), atomically: false, encoding: .utf8)
        try "Dijon\nother device\n".write(to: folder.file("Trips/Dijon.sync-conflict-20240101-120000-ABCDEFG.md"), atomically: false, encoding: .utf8)
        try "Outside\n".write(to: folder.file("Outside.md"), atomically: false, encoding: .utf8)
        try manager.createSymbolicLink(atPath: folder.file("Trips/Link.md").path, withDestinationPath: folder.file("Outside.md").path)
        XCTAssertEqual(mkfifo(folder.file("Trips/Pipe.md").path, 0o600), 0)
        XCTAssertEqual(mkfifo(folder.file("Trips/Later/attachments/pipe.png").path, 0o600), 0)
        let export = NoteHTMLExport(library: folder.url)
        let (notes, unread) = export.notes(inNotebook: "Trips")
        XCTAssertEqual(notes.map(\.id), ["Trips/Dijon.md", "Trips/Later/Lyon.md"])
        XCTAssertEqual(Set(unread), ["Trips/Link.md", "Trips/Pipe.md"])
        let html = export.document(notebook: "Trips", notes: notes)
        XCTAssertTrue(html.contains("src=\"attachments/pipe.png\""), "the FIFO picture stays a link")
        let printable = PrintableNote(text: notes[1].text, noteID: notes[1].id, library: folder.url)
        XCTAssertFalse(printable.blocks.contains { if case .picture = $0.content { return true } else { return false } })
    }

    func testPrintedNoteHidesTheSyntaxAndKeepsTheShape() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("attachments"), withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.file("attachments/map.png"))
        let printable = PrintableNote(text: sample + "\n\n![Map](attachments/map.png)\n", noteID: "Trip plan.md", library: folder.url)
        let blocks = printable.blocks
        func markup(_ block: PrintBlock) -> String {
            if case .text(let markup) = block.content { return markup }
            return ""
        }
        // Each block's markup is valid Pango markup, which is XML inside a root element.
        for block in blocks where !markup(block).isEmpty {
            XCTAssertNoThrow(try XMLDocument(xmlString: "<markup>\(markup(block))</markup>", options: []), markup(block))
        }
        let all = blocks.map(markup).joined(separator: "\n")
        XCTAssertTrue(markup(blocks[0]).contains("weight=\"bold\"") && markup(blocks[0]).contains(">Trip plan<"), "the title as a heading")
        XCTAssertTrue(blocks[0].keepWithNext)
        XCTAssertTrue(all.contains("<b>bold</b>") && all.contains("<i>italic</i>") && all.contains("<s>gone</s>"))
        XCTAssertTrue(all.contains("see Packing and elsewhere."))
        XCTAssertEqual(blocks.compactMap(\.marker), ["☐", "☑", "•", "◦", "1.", "2."])
        XCTAssertEqual(blocks.first { $0.marker == "◦" }?.level, 2, "a nested item is indented once more")
        XCTAssertTrue(all.contains("Day │ Place") && all.contains("Mon │ Lyon &amp; &lt;Dijon&gt;"), "the table in columns")
        XCTAssertTrue(all.contains("let x = 1 &lt; 2"))
        XCTAssertTrue(blocks.contains { $0.content == .rule })
        XCTAssertEqual(blocks.last?.content, .picture(path: folder.file("attachments/map.png").path, alt: "Map"))
        for syntax in ["**", "## ", "[[", "- [ ]", "```", "|-----|"] {
            XCTAssertFalse(all.contains(syntax), "\(syntax) printed")
        }
    }

    func testEmptyAndHeadingFirstNotes() {
        XCTAssertEqual(MarkdownTree.titledAsHeading(""), "")
        XCTAssertEqual(MarkdownTree.titledAsHeading("\n\nTitle\nbody"), "# Title\nbody")
        XCTAssertEqual(MarkdownTree.titledAsHeading("## Title\nbody"), "## Title\nbody")
        XCTAssertEqual(MarkdownTree.titledAsHeading("#tag line\nbody"), "# #tag line\nbody")
        XCTAssertTrue(PrintableNote(text: "").blocks.isEmpty)
        let html = NoteHTMLExport(library: TemporaryFolder().url).document(for: .init(id: "a.md", text: ""))
        XCTAssertTrue(html.contains("<title>New Note</title>"))
    }

    /// A paragraph, a code block or a table of hundreds of KB prints in blocks of about 2,000
    /// characters (the printer lays out a slice of blocks between two frames), every word kept
    /// and in order.
    func testLongBlocksPrintInPiecesAndLoseNothing() {
        let words = (0..<40_000).map { "w\($0)" }
        let lines = stride(from: 0, to: words.count, by: 8).map { words[$0..<min($0 + 8, words.count)].joined(separator: " ") }
        let paragraph = lines.joined(separator: "\n")
        let code = "```\n" + lines.joined(separator: "\n") + "\n```"
        for (name, text) in [("paragraph", "Long\n\n" + paragraph + "\n"), ("code", "Long\n\n" + code + "\n")] {
            let blocks = PrintableNote(text: text).blocks.dropFirst()  // the title
            XCTAssertGreaterThan(blocks.count, 100, name)
            var printed: [String] = []
            for (index, block) in blocks.enumerated() {
                guard case .text(let markup) = block.content else { return XCTFail("\(name): not text") }
                let plain = markup.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
                XCTAssertLessThan(plain.count, PrintableNote.mostBlockCharacters + 200, "\(name) block \(index)")
                XCTAssertEqual(block.spaceBefore, index == 0 ? 6 : 0, "\(name): the pieces follow each other")
                printed += plain.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            }
            XCTAssertEqual(printed, words, name)
        }
    }
}

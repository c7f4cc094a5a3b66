import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Notes from Gnote, Tomboy and tomboy-ng (`.note` XML, written here as Gnote 43 writes them)
/// and folders of Markdown files, imported into a library: formatting, nested lists, links,
/// notebooks, dates, templates, collisions, malformed files; the source never changed.
final class NoteImportTests: XCTestCase {
    private func note(_ title: String, _ content: String, created: String = "2019-03-04T05:06:07.1234567+01:00",
                      changed: String = "2021-11-12T13:14:15.0000000+00:00", tags: [String] = []) -> String {
        let tagXML = tags.isEmpty ? "" : "<tags>" + tags.map { "<tag>\($0)</tag>" }.joined() + "</tags>"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <note version="0.3" xmlns:link="http://beatniksoftware.com/tomboy/link" xmlns:size="http://beatniksoftware.com/tomboy/size" xmlns="http://beatniksoftware.com/tomboy">
              <title>\(title)</title>
              <text xml:space="preserve"><note-content version="0.1">\(content)</note-content></text>
              <last-change-date>\(changed)</last-change-date>
              <last-metadata-change-date>\(changed)</last-metadata-change-date>
              <create-date>\(created)</create-date>
              <cursor-position>0</cursor-position>
              <selection-bound-position>-1</selection-bound-position>
              <width>450</width>
              <height>360</height>
              <x>0</x>
              <y>0</y>
              \(tagXML)
              <open-on-startup>False</open-on-startup>
            </note>
            """
    }

    func testEveryFormattingElementBecomesMarkdown() {
        let content = """
            Formatting
            
            Plain, <bold>bold</bold>, <italic>italic</italic>, <strikethrough>gone</strikethrough>, <highlight>marked</highlight>, <monospace>code()</monospace> and <bold><italic>both</italic></bold>.
            <size:huge>Huge heading</size:huge>
            <size:large>Large heading</size:large>
            A <size:small>small</size:small> and <size:large>large</size:large> word.
            See <link:internal>Other note</link:internal>, <link:url>https://example.org/a?b=1</link:url>, <link:url>www.gnome.org</link:url> and <link:broken>Gone note</link:broken>.
            <bold>bold with trailing space </bold>then text.
            <list><list-item dir="ltr">first
            </list-item><list-item dir="ltr">second with <bold>bold</bold>
            <list><list-item dir="ltr">nested one
            </list-item><list-item dir="ltr">nested two
            <list><list-item dir="ltr">deeper</list-item></list></list-item></list></list-item><list-item dir="ltr">third</list-item></list>
            After the list.
            """
        let parsed = TomboyNote.parse(Data(note("Formatting", content).utf8))
        XCTAssertEqual(parsed.title, "Formatting")
        XCTAssertEqual(parsed.problems, [])
        XCTAssertEqual(parsed.markdown, """
            Formatting
            
            Plain, **bold**, *italic*, ~~gone~~, ==marked==, `code()` and ***both***.
            ## Huge heading
            ### Large heading
            A small and large word.
            See [[Other note]], <https://example.org/a?b=1>, <https://www.gnome.org> and Gone note.
            **bold with trailing space** then text.
            - first
            - second with **bold**
              - nested one
              - nested two
                - deeper
            - third
            After the list.
            
            """)
    }

    func testTextThatMarkdownWouldReadAsSyntaxIsEscaped() {
        let content = "Escapes\n# not a heading\n- not a list\n1. not numbered\n> not a quote\nstars *a* [[x]] `tick` &lt;tag&gt; snake_case _under_ a~~b\n<monospace>a `tick`</monospace>"
        let parsed = TomboyNote.parse(Data(note("Escapes", content).utf8))
        XCTAssertEqual(parsed.markdown, """
            Escapes
            \\# not a heading
            \\- not a list
            1\\. not numbered
            \\> not a quote
            stars \\*a\\* \\[\\[x\\]\\] \\`tick\\` \\<tag> snake_case \\_under\\_ a\\~\\~b
            `` a `tick` ``
            
            """)
    }

    func testDatesNotebookAndTemplate() throws {
        let parsed = TomboyNote.parse(Data(note("Dated", "Dated\nbody", tags: ["system:notebook:Work Stuff"]).utf8))
        XCTAssertEqual(parsed.notebook, "Work Stuff")
        XCTAssertFalse(parsed.isTemplate)
        XCTAssertEqual(try XCTUnwrap(parsed.created).timeIntervalSince1970, 1_551_672_367.1234567, accuracy: 0.001, "05:06:07+01:00 is 04:06:07 UTC")
        XCTAssertEqual(try XCTUnwrap(parsed.changed).timeIntervalSince1970, 1_636_722_855, accuracy: 0.001)
        let template = TomboyNote.parse(Data(note("New Note Template", "New Note Template\nDescribe", tags: ["system:template"]).utf8))
        XCTAssertTrue(template.isTemplate)
    }

    func testMalformedUnknownAndNotUTF8AreImportedAsFarAsReadable() {
        let broken = TomboyNote.parse(Data(note("Broken", "Broken\nfirst line <bold>bold</bold>\nsecond <bold>never closed").utf8).prefix(700))
        XCTAssertTrue(broken.problems.contains { if case .malformed = $0 { return true } else { return false } }, "\(broken.problems)")
        XCTAssertTrue(broken.markdown.hasPrefix("Broken\nfirst line **bold**\n"), broken.markdown)
        let unknown = TomboyNote.parse(Data(note("Unknown", "Unknown\n<sparkle>shiny</sparkle> text").utf8))
        XCTAssertEqual(unknown.problems, [.unknownTags(["sparkle"])])
        XCTAssertEqual(unknown.markdown, "Unknown\nshiny text\n", "unknown tags keep their text")
        var bytes = Data(note("Latin", "Latin\ncaf\u{E9}").utf8)
        let e = bytes.range(of: Data("caf\u{E9}".utf8))!
        bytes.replaceSubrange(e, with: Data([0x63, 0x61, 0x66, 0xE9]))  // "café" in Latin-1
        let latin = TomboyNote.parse(bytes)
        XCTAssertTrue(latin.problems.contains(.notUTF8))
        XCTAssertEqual(latin.markdown, "Latin\ncaf\u{FFFD}\n")
    }

    func testImportWritesNotesWithTheirDatesAndNotebooksAndOverwritesNothing() throws {
        let root = TemporaryFolder()
        let source = root.file("gnote"), library = root.file("Notes")
        try FileManager.default.createDirectory(at: source.appendingPathComponent("Backup"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let files = [
            "a.note": note("Shopping", "Shopping\nmilk", tags: ["system:notebook:Home"]),
            "b.note": note("Shopping", "Shopping\nbread"),  // the same title
            "c.note": note("New Note Template", "New Note Template\n", tags: ["system:template"]),
            "d.note": note("Work", "Work\nsee <link:internal>Shopping</link:internal>", tags: ["system:notebook:../Evil/Name"]),
            "e.note": "not xml at all \u{0}",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: source.appendingPathComponent(name)) }
        try Data(note("Deleted", "Deleted\n").utf8).write(to: source.appendingPathComponent("Backup/x.note"))
        let before = try snapshot(source)
        let existing = library.appendingPathComponent("Mine.md")
        try Data("Mine\n".utf8).write(to: existing)

        let sources = NoteImport.noteFiles(in: source)
        XCTAssertEqual(sources.map(\.lastPathComponent), ["a.note", "b.note", "c.note", "d.note", "e.note"], "Backup/ (deleted notes) is not read")
        var steps: [Int] = []
        let report = NoteImport.run(sources, into: library) { done, _ in steps.append(done); return true }
        XCTAssertEqual(steps, [1, 2, 3, 4, 5])
        XCTAssertEqual(report.imported.count, 3)
        XCTAssertEqual(report.skipped.map(\.file), ["c.note", "e.note"])
        XCTAssertEqual(report.skipped.first?.outcome, .skippedTemplate)
        XCTAssertEqual(try snapshot(source), before, "the source folder is only read")
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "Mine\n")

        let notes = try NoteLibrary(folder: library).scan()
        XCTAssertEqual(Set(notes.map(\.title)), ["Mine", "Shopping", "Work"])
        let home = try XCTUnwrap(notes.first { $0.id.hasPrefix("Home/") })
        XCTAssertEqual(home.title, "Shopping")
        XCTAssertEqual(home.created.timeIntervalSince1970, 1_551_672_367, accuracy: 1, "the creation date from the file name")
        XCTAssertEqual(home.modified.timeIntervalSince1970, 1_636_722_855, accuracy: 1, "the last change as the file's time")
        let work = try XCTUnwrap(notes.first { $0.title == "Work" })
        XCTAssertEqual(work.notebook, "-Evil-Name", "a notebook name no folder can have is repaired, inside the library")
        XCTAssertEqual(try String(contentsOf: work.url, encoding: .utf8), "Work\nsee [[Shopping]]\n")

        // Importing the same notes again imports none of them twice (and overwrites nothing).
        let again = NoteImport.run(sources, into: library)
        XCTAssertEqual(again.imported.count, 0)
        XCTAssertEqual(again.items.filter { $0.outcome == .alreadyImported }.map(\.file), ["a.note", "b.note", "d.note"])
        XCTAssertEqual(try NoteLibrary(folder: library).scan().count, 4)
        // Cancelled after the first file: that note stays, the report says so.
        try Data(note("Later", "Later\n").utf8).write(to: source.appendingPathComponent("0.note"))
        let cancelled = NoteImport.run(NoteImport.noteFiles(in: source), into: library) { _, _ in false }
        XCTAssertTrue(cancelled.wasCancelled)
        XCTAssertEqual(cancelled.items.map(\.file), ["0.note"])
        XCTAssertEqual(cancelled.imported.count, 1)
    }

    /// An import killed at any instant, then run again: every note once, none half written, and
    /// the report counts those already imported. (The journal's two steps, planned then done,
    /// around each note's atomic creation, checked at each instant a stop can come.)
    func testAnImportStoppedAnywhereAndRunAgainMakesNoDuplicate() throws {
        let root = TemporaryFolder()
        let source = root.file("gnote")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        for number in 0..<6 { try Data(note("Note \(number)", "Note \(number)\ntext \(number)").utf8).write(to: source.appendingPathComponent("\(number).note")) }
        let files = NoteImport.noteFiles(in: source)
        let markdown = root.file("vault")
        try FileManager.default.createDirectory(at: markdown.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        for number in 0..<4 { try Data("# Page \(number)\n".utf8).write(to: markdown.appendingPathComponent(number % 2 == 0 ? "p\(number).md" : "Sub/p\(number).md")) }
        for stopAfter in 0...files.count {
            let library = root.file("Notes \(stopAfter)")
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            // A stop after `stopAfter` notes, then one between a note's plan and its creation.
            if stopAfter > 0 { _ = NoteImport.run(files, into: library) { done, _ in done < stopAfter } }
            if stopAfter < files.count {
                let planned = NoteFileName.make(date: Date())
                try ImportJournal(library: library).plan(ImportJournal.key(of: files[stopAfter]), as: planned)
            }
            let report = NoteImport.run(files, into: library)
            let titles = try NoteLibrary(folder: library).scan().map(\.title).sorted()
            XCTAssertEqual(titles, (0..<6).map { "Note \($0)" }, "stopped after \(stopAfter)")
            XCTAssertEqual(report.imported.count + report.items.filter { $0.outcome == .alreadyImported }.count, files.count)
            XCTAssertEqual(report.items.filter { $0.outcome == .alreadyImported }.count, min(stopAfter, files.count), "stopped after \(stopAfter)")
            XCTAssertTrue(NoteImport.run(files, into: library).imported.isEmpty, "a third run imports nothing")

            if stopAfter % 4 > 0 {
                _ = MarkdownFolderImport.run(MarkdownFolderImport.noteFiles(in: markdown), from: markdown, into: library) { done, _ in done < stopAfter % 4 }
            }
            let vault = MarkdownFolderImport.run(MarkdownFolderImport.noteFiles(in: markdown), from: markdown, into: library)
            XCTAssertEqual(vault.imported.count, 4 - min(stopAfter % 4, 4), "stopped after \(stopAfter % 4)")
            XCTAssertEqual(try NoteLibrary(folder: library).scan().filter { $0.title.hasPrefix("# Page") || $0.title.hasPrefix("Page") }.count, 4)
        }
    }

    /// The journal comes from disk (a sync client may bring a damaged one): nothing in it
    /// crashes the import or stops it; unreadable lines are left out.
    func testADamagedImportJournalIsReadAsFarAsItParses() throws {
        let root = TemporaryFolder()
        let library = root.file("Notes")
        try FileManager.default.createDirectory(at: library.appendingPathComponent(".notula"), withIntermediateDirectories: true)
        let outside = root.file("outside.md")
        let source = root.file("gnote")
        let planted = "planned\t" + LibraryTrash.encode(source.appendingPathComponent("1.note").path) + "\t../outside.md\n"
        var junk = Data(("done\t%ZZ\tx\nplanned\t\t\n\u{0}\u{1}garbage\tdone\n" + planted).utf8)
        junk.append(Data((0..<2000).map { UInt8($0 % 251) }))
        try junk.write(to: library.appendingPathComponent(".notula/imported"))
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data(note("One", "One\n").utf8).write(to: source.appendingPathComponent("1.note"))
        let first = NoteImport.run(NoteImport.noteFiles(in: source), into: library)
        XCTAssertEqual(first.imported.count, 1)
        XCTAssertFalse(first.imported[0].noteID?.contains("..") ?? true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside.path), "a planned id out of the library is never created")
        XCTAssertEqual(NoteImport.run(NoteImport.noteFiles(in: source), into: library).imported.count, 0)
    }

    func testATwentyMegabyteNoteIsImportedWhole() throws {
        let root = TemporaryFolder()
        let source = root.file("tomboy"), library = root.file("Notes")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let line = String(repeating: "word ", count: 20) + "\n"
        let body = String(repeating: line, count: 20 * 1024 * 1024 / line.utf8.count)
        try Data(note("Big", "Big\n" + body).utf8).write(to: source.appendingPathComponent("big.note"))
        let report = NoteImport.run(NoteImport.noteFiles(in: source), into: library)
        let id = try XCTUnwrap(report.imported.first?.noteID)
        let written = try Data(contentsOf: library.appendingPathComponent(id))
        XCTAssertEqual(written.count, "Big\n".utf8.count + body.utf8.count, "every line")
    }

    func testAMarkdownFolderKeepsItsNotebooksPicturesAndNames() throws {
        let root = TemporaryFolder()
        let vault = root.file("Vault"), library = root.file("Notes")
        for folder in ["Vault/Projects/Deep", "Vault/.obsidian", "Vault/assets", "Notes/Projects"] {
            try FileManager.default.createDirectory(at: root.file(folder), withIntermediateDirectories: true)
        }
        try Data("Plan\n![shot](../assets/shot%201.png) and [doc](../assets/doc.pdf) [web](https://x.org)\n".utf8)
            .write(to: vault.appendingPathComponent("Projects/Plan.md"))
        try Data("Deep note\n".utf8).write(to: vault.appendingPathComponent("Projects/Deep/Deep.markdown"))
        try Data("Plain text\n".utf8).write(to: vault.appendingPathComponent("todo.txt"))
        try Data("{}".utf8).write(to: vault.appendingPathComponent(".obsidian/app.json"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: vault.appendingPathComponent("assets/shot 1.png"))
        try Data("%PDF".utf8).write(to: vault.appendingPathComponent("assets/doc.pdf"))
        try Data("Mine\n".utf8).write(to: library.appendingPathComponent("Projects/Plan.md"))
        let files = MarkdownFolderImport.noteFiles(in: vault)
        XCTAssertEqual(files, ["Projects/Deep/Deep.markdown", "Projects/Plan.md", "todo.txt"])
        let report = MarkdownFolderImport.run(files, from: vault, into: library)
        XCTAssertEqual(report.imported.map(\.noteID), ["Projects/Deep/Deep.markdown", "Projects/Plan 2.md", "todo.txt"])
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("Projects/Plan.md"), encoding: .utf8), "Mine\n")
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent("assets/shot 1.png")), Data([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("assets/doc.pdf"), encoding: .utf8), "%PDF")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent(".obsidian").path))
    }

    /// A name that is not UTF-8 ("caf\xe9.md" from an old Latin-1 disk) is found and imported
    /// by its bytes: a listing through Foundation lost such names.
    func testImportsFindNamesThatAreNotUTF8ByTheirBytes() throws {
        let root = TemporaryFolder()
        let vault = root.file("Vault"), gnote = root.file("gnote"), library = root.file("Notes")
        for folder in [vault, gnote, library] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let latin1 = PathBytes.string(Array("caf".utf8) + [0xE9] + Array(".md".utf8))
        try AtomicFileWriter.write(Data("Café\n".utf8), to: vault.appendingPathComponent(latin1))
        XCTAssertEqual(MarkdownFolderImport.noteFiles(in: vault), [latin1])
        XCTAssertEqual(MarkdownFolderImport.run([latin1], from: vault, into: library).imported.map(\.noteID), [latin1])
        XCTAssertTrue(RegularFile.isRegular(library.appendingPathComponent(latin1).path), "imported under its own bytes")
        let odd = PathBytes.string([0xFF] + Array(".note".utf8))
        try AtomicFileWriter.write(Data("<note/>".utf8), to: gnote.appendingPathComponent(odd))
        XCTAssertEqual(NoteImport.noteFiles(in: gnote).map(\.lastPathComponent), [odd])
    }

    /// Notes written by the real Gnote 43 (scripts/make-gnote-fixtures.py): its own first-start
    /// notes, a notebook's template, every formatting element and nested lists.
    func testNotesWrittenByRealGnote() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gnote")
        let notes = NoteImport.noteFiles(in: folder).map { TomboyNote.parse(try! Data(contentsOf: $0)) }
        XCTAssertEqual(notes.map(\.title).sorted(), ["Every format", "Lists & more Notebook Template", "Nested lists", "Start Here", "Using Links in Gnote"])
        for note in notes { XCTAssertEqual(note.problems, [], note.title) }
        let byTitle = Dictionary(uniqueKeysWithValues: notes.map { ($0.title, $0) })
        XCTAssertEqual(byTitle["Every format"]?.markdown, """
            Every format
            
            **bold** *italic* ~~struck~~ ==highlighted== `mono` small
            ### Large line
            ## Huge line
            Link to [[Nested lists]] and <https://wiki.gnome.org/Apps/Gnote>.
            
            """)
        XCTAssertEqual(byTitle["Nested lists"]?.markdown, """
            Nested lists
            
            - one
              - one.a
                - one.a.i
              - one.b
            - two
            After.
            
            """)
        XCTAssertEqual(byTitle["Nested lists"]?.notebook, "Lists & more")
        XCTAssertEqual(byTitle["Lists & more Notebook Template"]?.isTemplate, true)
        XCTAssertTrue(byTitle["Start Here"]?.markdown.contains("**Welcome to Gnote!**") == true)
        XCTAssertTrue(byTitle["Start Here"]?.markdown.contains("We've created a note called [[Using Links in Gnote]].") == true)
        for note in notes {
            XCTAssertNotNil(note.created, note.title)
            XCTAssertNotNil(note.changed, note.title)
            XCTAssertGreaterThanOrEqual(note.changed ?? .distantPast, note.created ?? .distantFuture, note.title)
        }
    }

    /// A note written by the real tomboy-ng 0.36 (scripts/make-tomboy-ng-fixtures.sh, its own
    /// Markdown import): `<strikeout>` is its strikethrough, a heading is huge bold type, and
    /// its list lines are plain text (escaped so they stay text).
    func testNoteWrittenByRealTomboyNG() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tomboy-ng")
        let notes = NoteImport.noteFiles(in: folder).map { TomboyNote.parse(try! Data(contentsOf: $0)) }
        XCTAssertEqual(notes.map(\.title), ["Shopping"])
        let note = try XCTUnwrap(notes.first)
        XCTAssertEqual(note.problems, [])
        let lines = note.markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(Array(lines.prefix(3)), ["Shopping", "Some **bold** and *italic* and `mono` words, ~~gone~~.", "## **Large line**"])
        XCTAssertTrue(lines.contains("\\- one"), "tomboy-ng's plain \"- one\" stays text: \(lines)")
        XCTAssertNotNil(note.created)
        XCTAssertNotNil(note.changed)
    }

    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: url)
            }
        }
        return files
    }
}

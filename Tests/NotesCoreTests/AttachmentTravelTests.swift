import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Notes travel — between notebooks, into the Trash and back, with the whole library to
/// another folder or disk — and after every step every link of every note still leads to its
/// file, and the files are there. Attachments never become notes or notebooks.
final class AttachmentTravelTests: XCTestCase {
    private var root: TemporaryFolder!
    private var library: URL!
    private var notebooks: Notebooks!
    private var trash: LibraryTrash!

    static let top = "# Top\n![](attachments/shared.png)\n[Report 2026.pdf](attachments/Report%202026.pdf)\nSee [work](Work/w.md) and <https://example.org> and [web](https://example.org/a.png).\n"
    static let work = "# Work\r\n![chart](../attachments/chart.png \"Chart\")\r\n[Report](<../attachments/Report 2026.pdf>)\r\nOut: [x](../../outside.txt)\r\n"
    static let deep = "# Deep\n![](../../attachments/shared.png)\n```\n![](attachments/code.png)\n```\n[up](../../top.md#heading) ![n](../../attachments/%C3%9Cbersicht.png)\n"

    override func setUp() {
        root = TemporaryFolder()
        library = root.url.appendingPathComponent("Notes")
        try? makeLibrary(at: library)
        notebooks = Notebooks(library: library)
        trash = LibraryTrash(library: library)
    }

    private func makeLibrary(at library: URL) throws {
        let files: [String: String] = ["top.md": Self.top, "Work/w.md": Self.work, "Work/Q1/deep.md": Self.deep,
                                       "attachments/shared.png": "png", "attachments/chart.png": "chart",
                                       "attachments/Report 2026.pdf": "%PDF", "attachments/Übersicht.png": "ü",
                                       "attachments/orphan.png": "nobody"]
        for (path, text) in files {
            let url = library.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    private func exists(_ path: String, in library: URL? = nil) -> Bool {
        FileSystem.exists((library ?? self.library).appendingPathComponent(path).path)
    }

    private func text(_ id: String) throws -> String {
        try XCTUnwrap(String(data: Data(contentsOf: library.appendingPathComponent(id)), encoding: .utf8))
    }

    /// Every link outside code blocks of every note (the Trash's read from where they were)
    /// resolves inside the library to something that is there; web addresses aside, and the
    /// one link that was meant to lead out still does. With `notesToo` links to notes must
    /// find them too (no note is in the Trash). Returns how many links were checked.
    @discardableResult
    private func assertEveryLinkResolves(in library: URL? = nil, notesToo: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Int {
        let library = library ?? self.library!
        let resolver = LibraryLinkResolver(library: library)
        var checked = 0
        try? AttachmentUsage(library: library).forEachNote { url, noteID in
            guard let text = NoteLinks.text(ofNoteAt: url) else { return XCTFail("unreadable \(noteID)", file: file, line: line) }
            NoteLinks.rewrite(text) { found in
                guard !found.inCode else { return nil }
                let address = found.link.address
                switch resolver.resolve(address, from: NoteLocation(library: library, noteID: noteID)) {
                case .success(.file(let target)):
                    // The link that led out of the library is left as it was, wherever it leads now.
                    if address.contains("outside") { return nil }
                    XCTAssertTrue(FileSystem.exists(target.path), "\(noteID): \(address) → \(target.path)", file: file, line: line)
                    checked += 1
                case .success(.note(let id)):
                    if address.contains("outside") { return nil }
                    if notesToo { XCTAssertTrue(FileSystem.exists(library.appendingPathComponent(id).path), "\(noteID): \(address) → \(id)", file: file, line: line) }
                    checked += 1
                case .failure(let refusal):
                    XCTAssertEqual(refusal, address.hasPrefix("https:") ? LinkRefusal.notRelative : .outsideLibrary, "\(noteID): \(address)", file: file, line: line)
                }
                return nil
            }
        }
        return checked
    }

    private func modificationDate(_ id: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(id).path)[.modificationDate] as? Date
    }

    func testMovingNotesBetweenNotebooksRewritesOnlyTheirRelativeLinks() throws {
        XCTAssertEqual(assertEveryLinkResolves(notesToo: true), 8)
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: old, .posixPermissions: 0o640], ofItemAtPath: library.appendingPathComponent("top.md").path)

        let moved = try notebooks.move(note: "top.md", to: "Work/Q1")
        XCTAssertEqual(moved, "Work/Q1/top.md")
        XCTAssertEqual(try text(moved), "# Top\n![](../../attachments/shared.png)\n[Report 2026.pdf](../../attachments/Report%202026.pdf)\n"
                       + "See [work](../w.md) and <https://example.org> and [web](https://example.org/a.png).\n")
        XCTAssertGreaterThan(try modificationDate(moved)?.timeIntervalSince1970 ?? 0, old.timeIntervalSince1970, "rewritten: its time is never set back")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(moved).path)[.posixPermissions] as? Int, 0o640)
        // deep.md linked "../../top.md", which moved: its link followed, nothing else changed.
        XCTAssertEqual(try text("Work/Q1/deep.md"), Self.deep.replacingOccurrences(of: "../../top.md", with: "top.md"))
        assertEveryLinkResolves(notesToo: true)

        // A CRLF note one level down and back: its breaks stay CRLF, its outside link as it was.
        let work = try notebooks.move(note: "Work/w.md", to: "Work/Q1")
        let workText = try text(work)
        XCTAssertEqual(workText, "# Work\r\n![chart](../../attachments/chart.png \"Chart\")\r\n[Report](<../../attachments/Report 2026.pdf>)\r\nOut: [x](../../outside.txt)\r\n")
        XCTAssertEqual(workText.utf8.filter { $0 == 0x0A }.count, workText.components(separatedBy: "\r\n").count - 1, "every break still CRLF")
        assertEveryLinkResolves(notesToo: true)

        // Nested to the top and back into a nested notebook.
        let deep = try notebooks.move(note: "Work/Q1/deep.md", to: "")
        XCTAssertEqual(try text(deep), "# Deep\n![](attachments/shared.png)\n```\n![](attachments/code.png)\n```\n[up](Work/Q1/top.md#heading) ![n](attachments/%C3%9Cbersicht.png)\n",
                       "a code block is not rewritten; an encoded name keeps its file")
        assertEveryLinkResolves(notesToo: true)
        let again = try notebooks.move(note: deep, to: "Work")
        XCTAssertEqual(again, "Work/deep.md")
        assertEveryLinkResolves(notesToo: true)
        XCTAssertEqual(try notebooks.move(note: moved, to: ""), "top.md")
        XCTAssertEqual(try text("top.md"), Self.top.replacingOccurrences(of: "Work/w.md", with: "Work/Q1/w.md"),
                       "there and back: the same bytes but for the link to the note that moved")
        assertEveryLinkResolves(notesToo: true)
    }

    func testTrashAndRestoreKeepLinksWorkingAlsoWhenTheNotebookIsGone() throws {
        let item = try trash.trash(relativePath: "Work/Q1/deep.md")
        assertEveryLinkResolves()
        XCTAssertEqual(try trash.restore(item), "Work/Q1/deep.md")
        XCTAssertEqual(try text("Work/Q1/deep.md"), Self.deep, "same place: not a byte changed")
        assertEveryLinkResolves()

        let again = try trash.trash(relativePath: "Work/Q1/deep.md")
        try notebooks.removeEmpty("Work/Q1")
        XCTAssertEqual(try trash.restore(again), "Work/Q1/deep.md", "the notebook is made again")
        XCTAssertEqual(try text("Work/Q1/deep.md"), Self.deep)
        assertEveryLinkResolves()
    }

    func testRestoredFromAPlaceOutsideTheLibraryKeepsItsBytes() throws {
        // A Trash record that names a place outside the library: the note comes back at the
        // top, and its links, which had no place to be read from, are left as they are.
        let item = try trash.trash(relativePath: "Work/Q1/deep.md")
        let info = trash.folder.appendingPathComponent("info/\(item.name).trashinfo")
        let recorded = try String(contentsOf: info, encoding: .utf8).replacingOccurrences(of: "Path=Work/Q1/deep.md", with: "Path=Q1/../../deep.md")
        try Data(recorded.utf8).write(to: info)
        let back = try XCTUnwrap(trash.items().first)
        XCTAssertEqual(back.originalPath, "Q1/../../deep.md")
        XCTAssertEqual(try trash.restore(back), "deep.md")
        XCTAssertEqual(try text("deep.md"), Self.deep)
    }

    func testRestoreWhereTheFolderCannotBeMadeKeepsTheNoteInTheTrash() throws {
        // The Trash record of a note whose notebook is now a file: restore cannot make the
        // folder, and the note stays in the Trash, its bytes as they were.
        let item = try trash.trash(relativePath: "Work/Q1/deep.md")
        try notebooks.removeEmpty("Work/Q1")
        try Data("in the way".utf8).write(to: library.appendingPathComponent("Work/Q1"))
        XCTAssertThrowsError(try trash.restore(item))
        XCTAssertEqual(try String(contentsOf: item.url, encoding: .utf8), Self.deep)
    }

    func testEmptyTrashRemovesAFileOnlyWhenItsLastNoteGoes() throws {
        try trash.trash(relativePath: "top.md")  // shared.png (deep.md too), Report (w.md too)
        XCTAssertEqual(try trash.empty(), 1)
        for path in ["attachments/shared.png", "attachments/Report 2026.pdf", "attachments/chart.png", "attachments/orphan.png"] {
            XCTAssertTrue(exists(path), path)
        }
        let work = try trash.trash(relativePath: "Work/w.md")  // chart.png and Report: nobody else
        try trash.delete(work)
        XCTAssertFalse(exists("attachments/chart.png"))
        XCTAssertFalse(exists("attachments/Report 2026.pdf"))
        XCTAssertTrue(exists("attachments/shared.png"), "deep.md still links it")
        XCTAssertTrue(exists("attachments/orphan.png"), "Empty Trash removes only what the deleted notes linked")

        try trash.trash(relativePath: "Work/Q1/deep.md")
        XCTAssertTrue(exists("attachments/shared.png"), "a note in the Trash still uses it")
        XCTAssertFalse(try AttachmentUsage(library: library).unused().contains("attachments/shared.png"))
        XCTAssertEqual(try trash.empty(), 1)
        XCTAssertFalse(exists("attachments/shared.png"))
        XCTAssertFalse(exists("attachments/Übersicht.png"))
        XCTAssertTrue(exists("attachments/orphan.png"))
    }

    /// The automatic purge at start removes old notes; their files only where asked to (this
    /// computer's own library: on a synced one an offline device's notes may link them), and
    /// never a file an open editor's text links.
    func testThePurgeLeavesFilesOnASyncedLibraryAndOpenEditorsFilesAlways() throws {
        let work = try trash.trash(relativePath: "Work/w.md", now: Date(timeIntervalSinceNow: -40 * 86_400))  // chart.png, Report
        XCTAssertEqual(trash.purge(olderThan: 30, removingAttachments: false), 1)
        XCTAssertFalse(exists("Work/w.md") || FileManager.default.fileExists(atPath: work.url.path))
        XCTAssertTrue(exists("attachments/chart.png"), "a synced library keeps them for Remove Unused Attachments…")
        try Data("Work\n![](../attachments/chart.png)\n".utf8).write(to: library.appendingPathComponent("Work/again.md"))
        let again = try trash.trash(relativePath: "Work/again.md")
        try trash.delete(again, openTexts: ["top.md": "# Top\n![](attachments/chart.png)\n"])
        XCTAssertTrue(exists("attachments/chart.png"), "the open editor's unsaved text links it")
    }

    func testEmptyingATrashOfANotebookDeletedWholeRemovesItsFiles() throws {
        try trash.trash(relativePath: "top.md")
        let item = try trash.trash(relativePath: "Work")
        XCTAssertTrue(exists("attachments/chart.png"))
        assertEveryLinkResolves()
        try trash.delete(item)
        XCTAssertFalse(exists("attachments/chart.png"))
        XCTAssertTrue(exists("attachments/shared.png"), "top.md in the Trash links it")
    }

    func testMovingTheWholeLibraryKeepsEveryLink() throws {
        let state = TemporaryFolder()
        let destination = root.url.appendingPathComponent("Sync/Notes")
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try trash.trash(relativePath: "Work/w.md")
        let mover = LibraryMover(source: library, destination: destination, stateFolder: state.url)
        try mover.run(try mover.preflight())
        XCTAssertEqual(assertEveryLinkResolves(in: destination), 8)
        XCTAssertTrue(exists("attachments/orphan.png", in: destination))

        // To another disk (a small tmpfs) and back.
        let disk: SmallDisk
        do { disk = try SmallDisk(kilobytes: 1024) } catch { return }  // needs root: the first half stands
        let onDisk = disk.url.appendingPathComponent("Notes")
        let toDisk = LibraryMover(source: destination, destination: onDisk, stateFolder: state.url)
        try toDisk.run(try toDisk.preflight())
        XCTAssertEqual(assertEveryLinkResolves(in: onDisk), 8)
        XCTAssertEqual(try Data(contentsOf: onDisk.appendingPathComponent("attachments/Report 2026.pdf")), Data("%PDF".utf8))
    }

    func testAttachmentsAreNeverNotesOrNotebooks() throws {
        for path in ["attachments/readme.md", "attachments/sub/inside.md", "Work/attachments/real.md"] {
            let url = library.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("# A note?\n".utf8).write(to: url)
        }
        let notes = NoteLibrary(folder: library)
        XCTAssertEqual(notes.notebooks(), ["Work", "Work/attachments", "Work/Q1"])
        let scanned = try notes.scanWithNotebooks()
        XCTAssertEqual(Set(scanned.notes.map(\.id)), ["top.md", "Work/w.md", "Work/Q1/deep.md", "Work/attachments/real.md"])
        XCTAssertEqual(NoteLibrary.countNotes(in: library), 4)
        let cache = root.url.appendingPathComponent("cache")
        let index = try LibraryIndex(library: notes, cacheFolder: cache)
        _ = try index.reconcile { _ in }
        _ = index.indexAllWaitingTexts()
        XCTAssertEqual(Set(index.summaries().map(\.id)), Set(scanned.notes.map(\.id)))
        XCTAssertEqual(try index.matches("note"), ["Work/attachments/real.md"], "attachments/readme.md is not indexed")
        XCTAssertFalse(NoteLibrary.isNotebook("attachments", in: ""))
        XCTAssertTrue(NoteLibrary.isNotebook("attachments", in: "Work"))
        XCTAssertTrue(NoteLibrary.isNotebook("Attachments", in: ""), "only the exact name is the folder")
    }

    func testALinkNameIsFoundBySearch() throws {
        let notes = NoteLibrary(folder: library)
        try Data("# Meeting\n![](attachments/whiteboard-2026.jpg)\n".utf8).write(to: library.appendingPathComponent("Work/meeting.md"))
        let index = try LibraryIndex(library: notes, cacheFolder: root.url.appendingPathComponent("cache"))
        _ = try index.reconcile { _ in }
        _ = index.indexAllWaitingTexts()
        XCTAssertEqual(try index.matches("whiteboard"), ["Work/meeting.md"])
    }

    func testANotebookCannotBeNamedAttachmentsAtTheTop() throws {
        for name in ["attachments", "Attachments", " ATTACHMENTS "] {
            XCTAssertThrowsError(try notebooks.create(name)) { error in
                let storage = error as? StorageError
                XCTAssertEqual(storage?.code, EINVAL)
                XCTAssertTrue(storage?.reason?.contains("attachments") == true, "\(String(describing: storage))")
            }
        }
        XCTAssertEqual(try notebooks.create("attachments", in: "Work"), "Work/attachments")
        try notebooks.create("Pictures")
        XCTAssertThrowsError(try notebooks.rename("Pictures", to: "Attachments"))
        XCTAssertEqual(try notebooks.rename("Work/attachments", to: "Attachments"), "Work/Attachments")
    }
}

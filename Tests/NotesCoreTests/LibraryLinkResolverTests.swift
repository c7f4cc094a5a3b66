import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A note's relative links lead only to files inside its library, whatever way out they try.
final class LibraryLinkResolverTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var library: URL!
    private var resolver: LibraryLinkResolver!
    private var top: NoteLocation!
    private var nested: NoteLocation!

    override func setUp() {
        folder = TemporaryFolder()
        library = folder.url.appendingPathComponent("Notes")
        try? FileManager.default.createDirectory(at: library.appendingPathComponent("Work/Q1"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: library.appendingPathComponent("attachments"), withIntermediateDirectories: true)
        try? Data("secret".utf8).write(to: folder.url.appendingPathComponent("outside.txt"))
        try? Data("png".utf8).write(to: library.appendingPathComponent("attachments/x.png"))
        try? Data("# Note".utf8).write(to: library.appendingPathComponent("note.md"))
        resolver = LibraryLinkResolver(library: library)
        top = NoteLocation(library: library, noteID: "note.md")
        nested = NoteLocation(library: library, noteID: "Work/Q1/n.md")
    }

    private func resolve(_ address: String, from note: NoteLocation? = nil) -> Result<LinkTarget, LinkRefusal> {
        resolver.resolve(address, from: note ?? top)
    }

    func testEscapesUpwardAreRefused() {
        XCTAssertEqual(resolve(".."), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("../../x"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("a/../../x"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("../outside.txt"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("../../../outside.txt", from: nested), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("./"), .failure(.outsideLibrary))
    }

    func testAbsoluteAndSchemesAreNotRelative() {
        for address in ["/etc/passwd", "file:///etc/passwd", "FILE:x", "~/x", "https://example.org/a.png", "mailto:a@b.c",
                        "C:/Windows/x", "//host/share/x", "\\\\host\\share"] {
            XCTAssertEqual(resolve(address), .failure(.notRelative), address)
        }
    }

    func testPercentEncodedEscapesAreRefused() {
        XCTAssertEqual(resolve("%2e%2e/%2e%2e/etc/passwd"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("..%2F..%2Fx"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("%2Fetc%2Fpasswd"), .failure(.notRelative))
        XCTAssertEqual(resolve("%2E%2E"), .failure(.outsideLibrary))
    }

    func testNULAndBadEncodingAreInvalid() {
        XCTAssertEqual(resolve("%00"), .failure(.invalid))
        XCTAssertEqual(resolve("attachments/x.png%00.txt"), .failure(.invalid))
        XCTAssertEqual(resolve("a\u{0}b"), .failure(.invalid))
        XCTAssertEqual(resolve("%zz.png"), .failure(.invalid))
        XCTAssertEqual(resolve("%4"), .failure(.invalid))
        XCTAssertEqual(resolve(""), .failure(.invalid))
        XCTAssertEqual(resolve("   "), .failure(.invalid))
    }

    func testPrivateFoldersAreRefused() throws {
        try FileManager.default.createDirectory(at: library.appendingPathComponent(".notula/Trash/files"), withIntermediateDirectories: true)
        try Data("gone".utf8).write(to: library.appendingPathComponent(".notula/Trash/files/gone.md"))
        XCTAssertEqual(resolve(".notula/Trash/files/gone.md"), .failure(.privateFolder))
        XCTAssertEqual(resolve("%2Enotula/history.sqlite"), .failure(.privateFolder))
        XCTAssertEqual(resolve("../../.notula/Trash/files/gone.md", from: nested), .failure(.privateFolder))
        XCTAssertEqual(resolve(".stversions/x.png"), .failure(.privateFolder))
        // A link inside the library that leads into .notula by a symbolic link.
        XCTAssertEqual(symlink(library.appendingPathComponent(".notula").path, library.appendingPathComponent("inside-trash").path), 0)
        XCTAssertEqual(resolve("inside-trash/Trash/files/gone.md"), .failure(.privateFolder))
    }

    func testSymbolicLinksOutAreRefusedAndInAreAllowed() throws {
        XCTAssertEqual(symlink(folder.url.path, library.appendingPathComponent("out").path), 0)
        XCTAssertEqual(symlink(folder.url.appendingPathComponent("outside.txt").path, library.appendingPathComponent("attachments/leak.txt").path), 0)
        XCTAssertEqual(resolve("out/outside.txt"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("attachments/leak.txt"), .failure(.outsideLibrary))
        XCTAssertEqual(resolve("out/missing.txt"), .failure(.outsideLibrary))
        XCTAssertEqual(symlink("/nonexistent/target", library.appendingPathComponent("attachments/dangling.png").path), 0)
        XCTAssertEqual(resolve("attachments/dangling.png"), .failure(.outsideLibrary))

        XCTAssertEqual(symlink("x.png", library.appendingPathComponent("attachments/alias.png").path), 0)
        XCTAssertEqual(resolve("attachments/alias.png"), .success(.file(library.appendingPathComponent("attachments/x.png"))))
        XCTAssertEqual(symlink(library.appendingPathComponent("attachments").path, library.appendingPathComponent("Work/pics").path), 0)
        XCTAssertEqual(resolve("../pics/x.png", from: nested), .success(.file(library.appendingPathComponent("attachments/x.png"))))
    }

    func testNotesAndFiles() {
        XCTAssertEqual(resolve("note.md#heading"), .success(.note("note.md")))
        XCTAssertEqual(resolve("#heading"), .success(.note("note.md")))
        XCTAssertEqual(resolve("../../note.md", from: nested), .success(.note("note.md")))
        XCTAssertEqual(resolve("Work/Q1/other%20note.md?x=1"), .success(.note("Work/Q1/other note.md")))
        XCTAssertEqual(resolve("attachments/x.png"), .success(.file(library.appendingPathComponent("attachments/x.png"))))
        XCTAssertEqual(resolve("./attachments//x.png#zoom"), .success(.file(library.appendingPathComponent("attachments/x.png"))))
        XCTAssertEqual(resolve("../../attachments/x.png", from: nested), .success(.file(library.appendingPathComponent("attachments/x.png"))))
        XCTAssertEqual(resolve("attachments/missing.pdf"), .success(.file(library.appendingPathComponent("attachments/missing.pdf"))))
        XCTAssertEqual(resolve("attachments/Report%202026.pdf"), .success(.file(library.appendingPathComponent("attachments/Report 2026.pdf"))))
        // A Markdown file in attachments/ is a file, not a note.
        XCTAssertEqual(resolve("attachments/readme.md"), .success(.file(library.appendingPathComponent("attachments/readme.md"))))
        // Bytes that are not UTF-8 name the file they encode.
        XCTAssertEqual(resolve("attachments/caf%E9.png"),
                       .success(.file(library.appendingPathComponent("attachments/" + PathBytes.string([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67])))))
    }
}

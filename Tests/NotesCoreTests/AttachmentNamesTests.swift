import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Attachment names stay readable and work on every file system a library is copied to.
final class AttachmentNamesTests: XCTestCase {
    func testTheUsersNameIsKept() {
        XCTAssertEqual(AttachmentNames.safe("Report 2026.pdf"), "Report 2026.pdf")
        XCTAssertEqual(AttachmentNames.safe("Übersicht (final).png"), "Übersicht (final).png")
        XCTAssertEqual(AttachmentNames.safe("pasted-2026-11-25-100405.png"), "pasted-2026-11-25-100405.png")
    }

    func testCharactersWindowsRefusesAreReplaced() {
        XCTAssertEqual(AttachmentNames.safe("a:b?c*d<e>f|g\"h\\i/j.png"), "a-b-c-d-e-f-g-h-i-j.png")
        XCTAssertEqual(AttachmentNames.safe("tab\there\u{7}.txt"), "tabhere.txt")
    }

    func testNoTrailingDotOrSpaceAndNotHidden() {
        XCTAssertEqual(AttachmentNames.safe("notes. . "), "notes")
        XCTAssertEqual(AttachmentNames.safe(".hidden.png"), "hidden.png")
        XCTAssertEqual(AttachmentNames.safe("  spaced  .txt"), "spaced.txt")
        XCTAssertEqual(AttachmentNames.safe("..."), "attachment")
        XCTAssertEqual(AttachmentNames.safe(""), "attachment")
    }

    func testDeviceNamesAreChangedWhateverTheExtension() {
        for name in ["CON", "con.txt", "Prn.png", "aux.tar.gz", "NUL.md", "COM1.jpg", "lpt9.pdf", "LPT1"] {
            let safe = AttachmentNames.safe(name)
            XCTAssertFalse(AttachmentNames.isDeviceName(safe), "\(name) → \(safe)")
            XCTAssertNotEqual(safe, name)
        }
        XCTAssertEqual(AttachmentNames.safe("con.txt"), "con_.txt")
        XCTAssertEqual(AttachmentNames.safe("aux.tar.gz"), "aux_.tar.gz")
        XCTAssertEqual(AttachmentNames.safe("COM10.txt"), "COM10.txt")
        XCTAssertEqual(AttachmentNames.safe("CONSOLE.png"), "CONSOLE.png")
    }

    func testNamesAreNFC() {
        let decomposed = "Cafe\u{301}.png"
        XCTAssertEqual(Array(AttachmentNames.safe(decomposed).unicodeScalars), Array("Caf\u{E9}.png".unicodeScalars))
    }

    func testLongNamesFitIn255BytesKeepingTheExtension() {
        let long = String(repeating: "ä", count: 300) + ".jpeg"
        let safe = AttachmentNames.safe(long)
        XCTAssertLessThanOrEqual(safe.utf8.count, 255)
        XCTAssertTrue(safe.hasSuffix("ä.jpeg"))
        let second = AttachmentNames.unique(safe, among: [AttachmentNames.key(safe)])
        XCTAssertLessThanOrEqual(second.utf8.count, 255)
        XCTAssertTrue(second.hasSuffix("-2.jpeg"))
    }

    func testTakenNamesGetANumberWithoutRegardToCase() {
        let taken: Set<String> = ["photo.png", "photo-2.png"].map(AttachmentNames.key).reduce(into: []) { $0.insert($1) }
        XCTAssertEqual(AttachmentNames.unique("PHOTO.PNG", among: taken), "PHOTO-3.PNG")
        XCTAssertEqual(AttachmentNames.unique("other.png", among: taken), "other.png")
        XCTAssertEqual(AttachmentNames.unique("README", among: [AttachmentNames.key("readme")]), "README-2")
    }

    func testNamesThatAreNotUTF8AreRepaired() {
        let latin1 = PathBytes.string([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67])  // "caf\xe9.png"
        XCTAssertEqual(AttachmentNames.safe(latin1), "café.png")
    }

    func testPastedImageNameIsLocalTime() throws {
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour, components.minute, components.second) = (2026, 11, 25, 10, 4, 5)
        let date = try XCTUnwrap(Calendar.current.date(from: components))
        XCTAssertEqual(AttachmentStore.pastedImageName(at: date), "pasted-2026-11-25-100405.png")
    }

    func testMarkdownLinksFromEachFolder() {
        let library = URL(fileURLWithPath: "/tmp/library")
        XCTAssertEqual(AttachmentLink.markdown(forAttachment: "attachments/pasted-2026-11-25-100405.png", in: NoteLocation(library: library, noteID: "note.md")),
                       "![](attachments/pasted-2026-11-25-100405.png)")
        XCTAssertEqual(AttachmentLink.markdown(forAttachment: "attachments/pasted-2026-11-25-100405.png", in: NoteLocation(library: library, noteID: "Work/Q1/note.md")),
                       "![](../../attachments/pasted-2026-11-25-100405.png)")
        XCTAssertEqual(AttachmentLink.markdown(forAttachment: "attachments/Report 2026.pdf", in: NoteLocation(library: library, noteID: "note.md")),
                       "[Report 2026.pdf](attachments/Report%202026.pdf)")
        XCTAssertEqual(AttachmentLink.markdown(forAttachment: "attachments/a (1) #2 100%.txt", in: NoteLocation(library: library, noteID: "W/n.md")),
                       "[a (1) #2 100%.txt](../attachments/a%20%281%29%20%232%20100%25.txt)")
        XCTAssertEqual(AttachmentLink.markdown(forAttachment: "attachments/Übersicht.PNG", in: NoteLocation(library: library, noteID: "n.md")),
                       "![](attachments/Übersicht.PNG)")
    }

    func testPictureExtensions() {
        for name in ["a.png", "b.JPG", "c.jpeg", "d.gif", "e.webp", "f.svg", "g.bmp", "h.tif", "i.tiff", "j.ico"] {
            XCTAssertTrue(AttachmentLink.isPicture(name), name)
        }
        for name in ["a.pdf", "b.png.txt", "png", "c.heic"] { XCTAssertFalse(AttachmentLink.isPicture(name), name) }
    }

    /// Every link Notula writes resolves to the file it was written for.
    func testWrittenLinksResolveBack() throws {
        let folder = TemporaryFolder()
        let store = AttachmentStore(library: folder.url)
        let resolver = LibraryLinkResolver(library: folder.url)
        for name in ["Report 2026.pdf", "a (1) #2 100%.txt", "Übersicht.png", "x?y.png", "[b].png"] {
            let path = try store.add(Data("x".utf8), suggestedName: name)
            for noteID in ["n.md", "Work/n.md", "Work/Q1/n.md"] {
                let note = NoteLocation(library: folder.url, noteID: noteID)
                let markdown = AttachmentLink.markdown(forAttachment: path, in: note)
                let link = try XCTUnwrap(MarkdownEditing.links(in: markdown).first, markdown)
                XCTAssertEqual(link.range, 0..<markdown.unicodeScalars.count, markdown)
                XCTAssertEqual(try resolver.resolve(link.address, from: note).get(), .file(folder.url.appendingPathComponent(path)), markdown)
            }
        }
    }
}

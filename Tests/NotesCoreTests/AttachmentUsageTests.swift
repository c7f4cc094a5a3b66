import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Remove Unused Attachments lists only files no note links, however it links them, and
/// removes only what is still unused when asked. Link rewriting changes nothing but addresses.
final class AttachmentUsageTests: XCTestCase {
    private var root: TemporaryFolder!
    private var library: URL!
    private var usage: AttachmentUsage!

    override func setUp() {
        root = TemporaryFolder()
        library = root.url.appendingPathComponent("Notes")
        usage = AttachmentUsage(library: library)
    }

    private func write(_ path: String, _ text: String) throws {
        let url = library.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Removing needs certainty: a note that cannot be read stops it with the note's name, a
    /// notebook at any depth is read, an open editor's unsaved text counts.
    func testRemovalNeedsEveryNoteReadAndLeavesWhatItDidNotJudge() throws {
        for name in ["deep.png", "open.png", "orphan.png"] { try write("attachments/\(name)", name) }
        let deep = (1...12).map { "N\($0)" }.joined(separator: "/")
        try write("\(deep)/note.md", "![](" + String(repeating: "../", count: 12) + "attachments/deep.png)\n")
        try write("open.md", "Just typed\n")
        let withOpen = AttachmentUsage(library: library, openTexts: ["open.md": "Just typed ![](attachments/open.png)\n"])
        XCTAssertEqual(try withOpen.unused(), ["attachments/orphan.png"], "12 notebooks deep, and the editor's text")
        XCTAssertEqual(try usage.unused(), ["attachments/open.png", "attachments/orphan.png"])

        // A note that cannot be read (a link that loops: root reads through any permission).
        XCTAssertEqual(symlink(library.appendingPathComponent("loop.md").path, library.appendingPathComponent("loop.md").path), 0)
        XCTAssertThrowsError(try usage.unused()) { error in
            XCTAssertEqual((error as? StorageError)?.path, self.library.appendingPathComponent("loop.md").path)
            XCTAssertEqual((error as? StorageError)?.code, ELOOP)
        }
        XCTAssertThrowsError(try withOpen.remove(["attachments/orphan.png"]))
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("attachments/orphan.png").path))
        unlink(library.appendingPathComponent("loop.md").path)

        XCTAssertEqual(try withOpen.remove(["attachments/orphan.png", "attachments/open.png"]), ["attachments/orphan.png"])
    }

    func testImageAndFileLinksAreFoundWithWhereTheirAddressIs() {
        let line = "See ![alt](attachments/a.png \"Title\") and [b](<attachments/b c.pdf>) <https://x.org>"
        let links = MarkdownEditing.links(in: line)
        XCTAssertEqual(links.map(\.address), ["https://x.org", "attachments/a.png", "attachments/b c.pdf"])
        let scalars = Array(line.unicodeScalars)
        for link in links {
            guard let range = link.addressRange else { XCTAssertTrue(link.address.hasPrefix("https:")); continue }
            XCTAssertEqual(String(String.UnicodeScalarView(scalars[range])), link.address)
        }
    }

    func testOnlyFilesNoNoteLinksAreUnused() throws {
        let files = ["top.png", "encoded name.png", "nested.png", "trashed.png", "alias.png", "Case.png", "code.png", "orphan.png", "orphan 2.pdf"]
        for name in files { try write("attachments/\(name)", name) }
        try write("note.md", "![](attachments/top.png)\n[x](attachments/encoded%20name.png)\n[c](attachments/case.PNG)\n```\n![](attachments/code.png)\n```\n")
        try write("Work/Q1/deep.md", "![](../../attachments/nested.png)\r\n")
        try write("gone.md", "[t](attachments/trashed.png)\n")
        try LibraryTrash(library: library).trash(relativePath: "gone.md")
        // A notebook folder that is a symbolic link to attachments/: a link through it counts.
        XCTAssertEqual(symlink(library.appendingPathComponent("attachments").path, library.appendingPathComponent("Pics").path), 0)
        try write("Work/alias.md", "![](../Pics/alias.png)\n")
        // Links that only look like it: a web address, a link that leads out (their names are
        // other files': a note that names a file anywhere uses it, see below).
        try write("Work/other.md", "[o](https://x.org/attachments/orphan-web.png) [p](../../attachments/orphan%202-out.pdf)\n")
        XCTAssertEqual(try usage.unused(), ["attachments/orphan 2.pdf", "attachments/orphan.png"])
        XCTAssertEqual(try usage.remove(files.map { "attachments/\($0)" }), ["attachments/orphan.png", "attachments/orphan 2.pdf"])
        for name in files.dropLast(2) { XCTAssertTrue(FileSystem.exists(library.appendingPathComponent("attachments/\(name)").path), name) }
        XCTAssertEqual(try usage.unused(), [])
    }

    func testRemoveChecksAgainAndTouchesNothingElse() throws {
        try write("attachments/late.png", "x")
        try write("attachments/free.png", "x")
        try write("note.md", "# Note\n")
        let listed = try usage.unused()
        XCTAssertEqual(listed, ["attachments/free.png", "attachments/late.png"])
        // Linked after the list was shown.
        try write("note.md", "# Note\n![](attachments/late.png)\n")
        XCTAssertEqual(try usage.remove(listed), ["attachments/free.png"])
        XCTAssertTrue(FileSystem.exists(library.appendingPathComponent("attachments/late.png").path))
        // Only files directly in attachments/ are ever removed.
        XCTAssertEqual(try usage.remove(["note.md", "attachments/../note.md", "../Notes/note.md", ".notula/x", "attachments"]), [])
        XCTAssertTrue(FileSystem.exists(library.appendingPathComponent("note.md").path))
    }

    func testNoAttachmentsFolderMeansNothingUnused() {
        XCTAssertEqual(try usage.unused(), [])
        XCTAssertEqual(try usage.remove(["attachments/x.png"]), [])
    }

    func testRebaseChangesOnlyAddressesThatLeadInside() {
        let text = "\u{FEFF}# T\r\n![a](attachments/x.png#frag) [n](other.md?q=1) [w](https://x.org/y.png) <attachments/z.png>\r\n"
            + "`[c](attachments/c.png)` [out](../out.png) [self](#top) [mail](mailto:a@b.c)\r\n~~~\r\n[k](attachments/k.png)\r\n~~~\r\n"
        let rebased = AttachmentLinkRebase.rebase(text, from: "t.md", to: "Work/t.md")
        XCTAssertEqual(rebased, "\u{FEFF}# T\r\n![a](../attachments/x.png#frag) [n](../other.md?q=1) [w](https://x.org/y.png) <attachments/z.png>\r\n"
                       + "`[c](attachments/c.png)` [out](../out.png) [self](#top) [mail](mailto:a@b.c)\r\n~~~\r\n[k](attachments/k.png)\r\n~~~\r\n")
        XCTAssertNil(AttachmentLinkRebase.rebase(text, from: "t.md", to: "u.md"), "same folder: nothing to do")
        XCTAssertNil(AttachmentLinkRebase.rebase("# No links\n", from: "t.md", to: "Work/t.md"))
        XCTAssertEqual(AttachmentLinkRebase.rebase("[a](Work/x.md) [b](Work/Q1/y.png)", from: "t.md", to: "Work/Q1/t.md"), "[a](../x.md) [b](y.png)")
        XCTAssertEqual(AttachmentLinkRebase.rebase("[a](../x.md) [b](y.png)", from: "Work/Q1/t.md", to: "t.md"), "[a](Work/x.md) [b](Work/Q1/y.png)")
    }

    func testRebaseFileKeepsModeNeverSetsTheTimeBackAndLeavesNonUTF8Alone() throws {
        try write("t.md", "![](attachments/x.png)\n")
        let url = library.appendingPathComponent("t.md")
        let old = Date(timeIntervalSince1970: 1_600_000_000.25)
        try FileManager.default.setAttributes([.modificationDate: old, .posixPermissions: 0o644], ofItemAtPath: url.path)
        XCTAssertTrue(try AttachmentLinkRebase.rebaseFile(at: url, from: "t.md", to: "A/B/t.md"))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "![](../../attachments/x.png)\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o644)
        XCTAssertGreaterThan((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0, old.timeIntervalSince1970 + 1)

        let latin1 = Data([0x21, 0x5B, 0x5D, 0x28, 0x61, 0x2E, 0x70, 0x6E, 0x67, 0x29, 0x20, 0xE9, 0x0A])  // "![](a.png) \xe9\n"
        try latin1.write(to: url)
        XCTAssertFalse(try AttachmentLinkRebase.rebaseFile(at: url, from: "t.md", to: "A/t.md"))
        XCTAssertEqual(try Data(contentsOf: url), latin1)
    }
}

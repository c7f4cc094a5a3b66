import Foundation
import NotesCore
import TestSupport
import XCTest

/// The one gate every way into the library passes: only a note file inside the library,
/// reached without a symbolic link, opens as a library note.
final class LibraryNoteIDTests: XCTestCase {
    func testOnlyRelativeNoteNamesWithoutHiddenOrParentPartsAreWellFormed() {
        for id in ["a.md", "Work/Trip plan.md", "Wörk/日本.md", "x.markdown", "a b/c d.txt"] where NoteLibrary.isNoteFileName((id as NSString).lastPathComponent) {
            XCTAssertTrue(LibraryNoteID.isWellFormed(id), id)
        }
        for id in ["", "/etc/passwd.md", "../a.md", "a/../../b.md", "./a.md", ".notula/languages.txt", ".bashrc", "Work/.git/x.md",
                   "a//b.md", "a.md/", "a\u{0}.md", "a.sh", String(repeating: "x", count: 256) + ".md",
                   String(repeating: "a/", count: 2100) + "n.md", "notes/.Trash/a.md"] {
            XCTAssertFalse(LibraryNoteID.isWellFormed(id), id)
        }
    }

    func testTheFileMustBeARegularFileReachedWithoutASymbolicLink() throws {
        let root = TemporaryFolder()
        let library = root.file("Notes"), outside = root.file("Outside")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Work"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("Secret\n".utf8).write(to: outside.appendingPathComponent("secret.md"))
        try Data("Plan\n".utf8).write(to: library.appendingPathComponent("Work/plan.md"))
        symlink(outside.path, library.appendingPathComponent("Out").path)
        symlink(outside.appendingPathComponent("secret.md").path, library.appendingPathComponent("link.md").path)
        mkfifo(library.appendingPathComponent("pipe.md").path, 0o600)
        try FileManager.default.createDirectory(at: library.appendingPathComponent("folder.md"), withIntermediateDirectories: true)

        XCTAssertEqual(LibraryNoteID.file("Work/plan.md", in: library), library.appendingPathComponent("Work/plan.md"))
        // A name that is not UTF-8 ("caf\xe9.md"), as PathBytes carries it.
        let latin1 = PathBytes.string(Array("caf".utf8) + [0xE9] + Array(".md".utf8))
        let fd = PathBytes.withCString(library.path + "/" + latin1) { open($0, O_CREAT | O_WRONLY, 0o600) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertTrue(LibraryNoteID.isWellFormed(latin1))
        XCTAssertEqual(LibraryNoteID.file(latin1, in: library)?.lastPathComponent, latin1)
        for id in ["Out/secret.md", "link.md", "pipe.md", "folder.md", "missing.md", "Work/missing.md", "../Outside/secret.md"] {
            XCTAssertNil(LibraryNoteID.file(id, in: library), id)
        }
        XCTAssertEqual(LibraryNoteID.id(of: library.appendingPathComponent("Work/plan.md"), in: library), "Work/plan.md")
        XCTAssertEqual(LibraryNoteID.id(of: URL(fileURLWithPath: library.path + "/Work/../Work/plan.md"), in: library), "Work/plan.md")
        XCTAssertNil(LibraryNoteID.id(of: URL(fileURLWithPath: library.path + "/../Outside/secret.md"), in: library))
        XCTAssertNil(LibraryNoteID.id(of: library.appendingPathComponent(".notula/languages.txt"), in: library))
        XCTAssertNil(LibraryNoteID.id(of: outside.appendingPathComponent("secret.md"), in: library))
        XCTAssertEqual(LibraryNoteID.id(of: library.appendingPathComponent("gone.md"), in: library), "gone.md", "a deleted note keeps its id")
    }
}

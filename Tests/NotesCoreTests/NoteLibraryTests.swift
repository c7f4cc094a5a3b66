import Foundation
import TestSupport
import XCTest
@testable import NotesCore

final class NoteLibraryTests: XCTestCase {
    func testPrepareCreatesMissingFolderPrivately() throws {
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.url.appendingPathComponent("notula/Notes"))
        try library.prepare()
        var info = stat()
        XCTAssertEqual(stat(library.folder.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
    }

    func testPrepareRefusesAFileWhereTheFolderShouldBe() throws {
        let root = TemporaryFolder()
        let notAFolder = try root.write("Notes", "oops")
        XCTAssertThrowsError(try NoteLibrary(folder: notAFolder).prepare()) { error in
            XCTAssertEqual((error as? StorageError)?.code, ENOTDIR)
        }
        XCTAssertEqual(try String(contentsOf: notAFolder, encoding: .utf8), "oops", "never replaced")
    }

    func testScanListsNotesNewestFirstAndSkipsOtherFiles() throws {
        let folder = TemporaryFolder()
        let now = Date()
        _ = try folder.write("old.md", "Old note\nbody", modified: now.addingTimeInterval(-3000))
        _ = try folder.write("new.md", "# New note\n\nFirst paragraph", modified: now)
        _ = try folder.write("plain.txt", "Text file", modified: now.addingTimeInterval(-100))
        _ = try folder.write(".hidden.md", "hidden")
        _ = try folder.write("~lock.md", "lock")
        _ = try folder.write("image.png", "png")
        _ = try folder.write(".a.md\(AtomicFileWriter.temporaryMarker)XyZ123", "temp")
        try FileManager.default.createDirectory(at: folder.file("folder.md"), withIntermediateDirectories: false)

        let notes = try NoteLibrary(folder: folder.url).scan()
        XCTAssertEqual(notes.map(\.id), ["new.md", "plain.txt", "old.md"])
        XCTAssertEqual(notes.map(\.title), ["New note", "Text file", "Old note"])
        XCTAssertEqual(notes[0].preview, "First paragraph")
        XCTAssertEqual(notes[2].preview, "body")
    }

    func testInvalidUTF8IsListedAsReadOnly() throws {
        let folder = TemporaryFolder()
        try Data([0x43, 0x61, 0x66, 0xE9, 0x0A]).write(to: folder.file("latin1.md"))
        let notes = try NoteLibrary(folder: folder.url).scan()
        XCTAssertEqual(notes.count, 1)
        XCTAssertFalse(notes[0].isValidText)
        XCTAssertEqual(notes[0].title, "latin1.md")
    }

    func testMultibyteCharacterCutAtThePrefixBoundaryIsStillValid() throws {
        let folder = TemporaryFolder()
        let length = NoteLibrary.summaryPrefixLength
        var text = "Title\n" + String(repeating: "a", count: length - 7) + "é and more"  // é straddles the boundary
        text += String(repeating: " tail", count: 10)
        _ = try folder.write("long.md", text)
        let note = try NoteLibrary(folder: folder.url).summary(ofFileNamed: "long.md")
        XCTAssertTrue(note.isValidText)
        XCTAssertEqual(note.title, "Title")
    }

    func testCreateNoteMakesAnEmptyPrivateFileWithAStableUniqueName() throws {
        let folder = TemporaryFolder()
        let library = NoteLibrary(folder: folder.url)
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try library.createNote(now: date)
        let second = try library.createNote(now: date)
        XCTAssertNotEqual(first.id, second.id)
        XCTAssertTrue(first.id.hasPrefix("note-20260921-"), first.id)
        XCTAssertTrue(first.id.hasSuffix(".md"))
        XCTAssertEqual(first.title, NoteText.untitled)
        XCTAssertEqual(try Data(contentsOf: first.url), Data())
        var info = stat()
        stat(first.url.path, &info)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }

    /// A note made with its text (a draft restored, Open as New Note) appears whole in one
    /// step: a watcher or sync client never sees it empty first.
    func testCreateNoteWithContentsAppearsWholeAndPrivate() throws {
        let folder = TemporaryFolder()
        let library = NoteLibrary(folder: folder.url)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Work"), withIntermediateDirectories: true)
        let note = try library.createNote(in: "Work", contents: Data("Budget\n12 chairs".utf8))
        XCTAssertTrue(note.id.hasPrefix("Work/note-"), note.id)
        XCTAssertEqual(note.title, "Budget")
        XCTAssertEqual(try Data(contentsOf: note.url), Data("Budget\n12 chairs".utf8))
        var info = stat()
        stat(note.url.path, &info)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Work").path), [note.url.lastPathComponent],
                       "no temporary left")
    }

    func testCreateInMissingFolderSaysWhichFolder() {
        let folder = TemporaryFolder()
        let library = NoteLibrary(folder: folder.url.appendingPathComponent("missing"))
        XCTAssertThrowsError(try library.createNote()) { error in
            let storage = error as? StorageError
            XCTAssertEqual(storage?.code, ENOENT)
            XCTAssertEqual(storage?.operation, .create)
        }
    }

    func testScanOfMissingFolderThrowsInsteadOfShowingNoNotes() {
        let folder = TemporaryFolder()
        XCTAssertThrowsError(try NoteLibrary(folder: folder.url.appendingPathComponent("gone")).scan()) { error in
            XCTAssertEqual((error as? StorageError)?.operation, .listFolder)
        }
    }

    func testFullDiskOnCreateLeavesNoEmptyNote() throws {
        let disk = try SmallDisk(kilobytes: 16)
        // Fill the disk completely.
        let filler = disk.url.appendingPathComponent("filler.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        let chunk = Data(repeating: 0, count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        try? handle.close()
        let library = NoteLibrary(folder: disk.url)
        do {
            let note = try library.createNote()
            // Empty files need no data blocks; if it was created, it must be a real, listed note.
            XCTAssertTrue(FileManager.default.fileExists(atPath: note.url.path))
        } catch let error as StorageError {
            XCTAssertTrue([ENOSPC, ENOMEM].contains(error.code), "\(error)")
        }
    }
}

final class SyncClientFileNameTests: XCTestCase {
    func testTemporaryAndPartialFilesOfSyncClientsAreNeverNotes() {
        let notNotes = [
            ".syncthing.Groceries.md.tmp", "~syncthing~Groceries.md.tmp",  // Syncthing
            ".Groceries.md.~1a2b3c", "Groceries.md.part",                   // Nextcloud / ownCloud
            "Groceries.md.dropbox.partial",                                 // Dropbox
            ".~lock.Groceries.md#", "~$Groceries.md",                        // office lock files
            ".Groceries.md\(AtomicFileWriter.temporaryMarker)Ab12Cd",        // ours
            ".stfolder", ".stversions", "",
        ]
        for name in notNotes { XCTAssertFalse(NoteLibrary.isNoteFileName(name), name) }
        for name in ["Groceries.md", "Ideas.txt", "Über uns.markdown", "note-20261121-112417-pqais.md", "a b (2).md"] {
            XCTAssertTrue(NoteLibrary.isNoteFileName(name), name)
        }
    }
}

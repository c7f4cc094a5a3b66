import Foundation
import TestSupport
import XCTest
@testable import NotesCore

final class AtomicFileWriterTests: XCTestCase {
    func testWritesNewFileWith0600AndLeavesNoTemporary() throws {
        let folder = TemporaryFolder()
        let target = folder.file("a.md")
        try AtomicFileWriter.write(Data("hello\n".utf8), to: target)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "hello\n")
        XCTAssertEqual(try mode(of: target), 0o600)
        XCTAssertEqual(folder.names, ["a.md"])
    }

    func testReplacesContentAndKeepsTheFilesMode() throws {
        let folder = TemporaryFolder()
        let target = try folder.write("a.md", "old")
        chmod(target.path, 0o640)
        let inodeBefore = try inode(of: target)
        try AtomicFileWriter.write(Data("new text".utf8), to: target)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "new text")
        XCTAssertEqual(try mode(of: target), 0o640)
        XCTAssertNotEqual(try inode(of: target), inodeBefore, "a rename, not an in-place overwrite")
        XCTAssertEqual(folder.names, ["a.md"])
    }

    /// The checked replace: writes only over the file it expects; another program's version
    /// is put back and returned; a file gone is not made again. Also where the file system
    /// cannot exchange (exFAT, FAT: the look-then-rename fallback).
    func testReplaceWritesOnlyOverTheExpectedFile() throws {
        let folder = TemporaryFolder()
        try checkReplace(in: folder.url)
        for kind in [FATDisk.Kind.exfat, .fat] {
            let disk = try FATDisk(kind)  // mounted while it lives
            try disk.replacesFiles ? checkReplace(in: disk.url) : checkReplaceRefused(in: disk.url)
        }
    }

    private func checkReplace(in folder: URL) throws {
        let target = folder.appendingPathComponent("a.md")
        let first = try AtomicFileWriter.create(Data("first".utf8), at: target)
        XCTAssertThrowsError(try AtomicFileWriter.create(Data("again".utf8), at: target), "create never replaces")
        guard case .written(let second) = try AtomicFileWriter.replace(Data("second".utf8), at: target, expecting: first) else {
            return XCTFail("the expected file was not replaced (\(folder.path))")
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "second")
        // Another program writes: the replace that expected `second` leaves its text alone.
        let other = try AtomicFileWriter.write(Data("theirs, longer".utf8), to: target)
        guard case .foundOther(let data, let identity) = try AtomicFileWriter.replace(Data("mine".utf8), at: target, expecting: second) else {
            return XCTFail("another program's version was overwritten (\(folder.path))")
        }
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "theirs, longer")
        XCTAssertTrue(identity.hasSameMetadata(as: other))
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "theirs, longer")
        unlink(target.path)
        guard case .missing = try AtomicFileWriter.replace(Data("mine".utf8), at: target, expecting: other) else {
            return XCTFail("a deleted note was written again (\(folder.path))")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".notula-tmp") }, [])
    }

    /// The exchange a checked replace relies on is tried, not believed: it swaps on a local
    /// file system; on exFAT it is refused (exfat-fuse 1.3) or done as a plain rename that
    /// drops a file (exfat-fuse 1.4, Debian 13), and either way not used. Nothing is left behind.
    func testRenameExchangeIsUsedOnlyWhereItReallySwaps() throws {
        let folder = TemporaryFolder()
        XCTAssertTrue(RenameExchangeCheck.exchanges(inFolderOf: folder.url.appendingPathComponent("a.md").path))
        XCTAssertEqual(folder.names, [])
        let disk = try FATDisk(.exfat)
        XCTAssertFalse(RenameExchangeCheck.exchanges(inFolderOf: disk.url.appendingPathComponent("a.md").path), disk.driver)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.url.path), [])
    }

    /// Where a rename cannot replace a file (fusefat 0.3), a replace fails with the driver's
    /// reason and changes nothing: the note keeps its text, no temporary is left.
    private func checkReplaceRefused(in folder: URL) throws {
        let target = folder.appendingPathComponent("a.md")
        let first = try AtomicFileWriter.create(Data("first".utf8), at: target)
        XCTAssertThrowsError(try AtomicFileWriter.replace(Data("second".utf8), at: target, expecting: first)) { error in
            XCTAssertTrue(String(describing: error).contains("a.md"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "first")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["a.md"])
    }

    /// `edit` makes its change to what is there when it writes: a version another program
    /// wrote after the read gets the change too, never overwritten. `remove` removes only the
    /// version it was told of.
    func testEditAndRemoveNeverDropAnotherProgramsVersion() throws {
        let folder = TemporaryFolder()
        let url = try folder.write("n.md", "one\n")
        var calls = 0
        let edit = try AtomicFileWriter.edit(url) { data in
            calls += 1
            if calls == 1 {  // another program writes between the read and the write
                try? Data("one\ntheirs\n".utf8).write(to: folder.file("other"))
                rename(folder.file("other").path, url.path)
            }
            return Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "one", with: "ONE").utf8)
        }
        guard case .written(let before, let after, _) = edit else { return XCTFail("\(edit)") }
        XCTAssertEqual(calls, 2)
        XCTAssertEqual(String(decoding: before, as: UTF8.self), "one\ntheirs\n")
        XCTAssertEqual(String(decoding: after, as: UTF8.self), "ONE\ntheirs\n")
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "ONE\ntheirs\n")
        guard case .unchanged = try AtomicFileWriter.edit(url, { _ in nil }) else { return XCTFail("nothing to change") }

        let seen = try XCTUnwrap(FileIdentity.metadata(url))
        try Data("ONE\ntheirs\nand more\n".utf8).write(to: folder.file("other"))
        rename(folder.file("other").path, url.path)
        XCTAssertEqual(try AtomicFileWriter.remove(url, expecting: seen), .foundOther)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "ONE\ntheirs\nand more\n")
        XCTAssertEqual(try AtomicFileWriter.remove(url, expecting: try XCTUnwrap(FileIdentity.metadata(url))), .removed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        XCTAssertEqual(try AtomicFileWriter.remove(url, expecting: seen), .missing)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), [], "nothing hidden left behind")
    }

    func testFullDiskKeepsOldContentAndLeavesNoTemporary() throws {
        let disk = try SmallDisk(kilobytes: 64)
        let target = disk.url.appendingPathComponent("a.md")
        try AtomicFileWriter.write(Data("old words".utf8), to: target)
        let big = Data(repeating: UInt8(ascii: "x"), count: 200 * 1024)
        XCTAssertThrowsError(try AtomicFileWriter.write(big, to: target)) { error in
            XCTAssertEqual((error as? StorageError)?.code, ENOSPC)
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "old words")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.url.path), ["a.md"])
    }

    func testReadOnlyFileSystemKeepsOldContent() throws {
        let disk = try SmallDisk(kilobytes: 64)
        let target = disk.url.appendingPathComponent("a.md")
        try AtomicFileWriter.write(Data("old words".utf8), to: target)
        try disk.remountReadOnly()
        XCTAssertThrowsError(try AtomicFileWriter.write(Data("new".utf8), to: target)) { error in
            XCTAssertEqual((error as? StorageError)?.code, EROFS)
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "old words")
    }

    func testMissingFolderThrowsENOENT() {
        let folder = TemporaryFolder()
        let target = folder.url.appendingPathComponent("gone/a.md")
        XCTAssertThrowsError(try AtomicFileWriter.write(Data("x".utf8), to: target)) { error in
            XCTAssertEqual((error as? StorageError)?.code, ENOENT)
            XCTAssertEqual((error as? StorageError)?.operation, .write)
        }
    }

    func testRemovesOnlyAbandonedLeftovers() throws {
        let folder = TemporaryFolder()
        _ = try folder.write("note.md", "note")
        _ = try folder.write(".note.md\(AtomicFileWriter.temporaryMarker)Ab12Cd", "half", modified: Date().addingTimeInterval(-3600))
        _ = try folder.write("\(AtomicFileWriter.temporaryMarker)Ef34Gh", "a write in progress")
        _ = try folder.write(".hidden.md", "other program's file")
        XCTAssertEqual(AtomicFileWriter.removeLeftovers(in: folder.url), 1)
        XCTAssertEqual(folder.names, [".hidden.md", "\(AtomicFileWriter.temporaryMarker)Ef34Gh", "note.md"])
    }

    func testSavesANoteWhoseNameIsAsLongAsAllowed() throws {
        // 255 bytes is legal; a temporary named after it (+19 bytes) was not.
        let folder = TemporaryFolder()
        let name = String(repeating: "é", count: 125) + "ab.md"
        XCTAssertEqual(name.utf8.count, 255)
        let url = try folder.write(name, "old")
        try AtomicFileWriter.write(Data("new".utf8), to: url)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "new")
        XCTAssertEqual(folder.names, [name])
    }

    private func mode(of url: URL) throws -> mode_t {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw StorageError(.read, path: url.path) }
        return info.st_mode & 0o7777
    }

    private func inode(of url: URL) throws -> ino_t {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw StorageError(.read, path: url.path) }
        return info.st_ino
    }
}

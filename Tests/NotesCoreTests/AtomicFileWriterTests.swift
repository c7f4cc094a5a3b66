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

import Foundation
@testable import NotesCore
import TestSupport
import XCTest

extension XCTestCase {
    /// On a FAT driver that cannot replace a file by renaming onto it (`FATDisk.replacesFiles`
    /// false: fusefat 0.3, Debian 13), what a move there does instead of moving: refused before
    /// anything moves, with a message naming the folder; the notes stay as they were, and the
    /// drive is left as it was (no folder made, no probe left).
    func assertMoveIsRefused(to disk: FATDisk, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(disk.replacesFiles, file: file, line: line)
        let local = TemporaryFolder(), state = TemporaryFolder()
        let source = local.url.appendingPathComponent("Notes"), destination = disk.url.appendingPathComponent("Notes")
        let files = ["a.md": Data("A note\n".utf8), "Work/b.md": Data("Another\n".utf8)]
        for (path, data) in files {
            let url = source.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        XCTAssertThrowsError(try mover.preflight(), file: file, line: line) { error in
            XCTAssertEqual(error as? MoveError, .cannotReplaceFiles(path: destination.path), file: file, line: line)
            XCTAssertTrue(String(describing: error).contains(destination.path), "\(error)", file: file, line: line)
        }
        XCTAssertEqual(FolderContents.regularFiles(in: source), files, file: file, line: line)
        // What the probe found there: no replacing; and names it took but kept otherwise
        // (fusefat 0.3 cuts "a\tb" to "a") count as refused.
        let traits = try DestinationTraits.probe(disk.url)
        XCTAssertFalse(traits.canReplace, file: file, line: line)
        XCTAssertTrue(traits.refusedCharacters.isSuperset(of: [":", "\t", "\u{1}"]), "\(traits)", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.url.path), [], "\(disk.driver)", file: file, line: line)
    }
}

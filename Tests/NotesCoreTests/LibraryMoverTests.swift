import Foundation
import TestSupport
import XCTest
@testable import NotesCore

final class LibraryMoverTests: XCTestCase {
    private var state: TemporaryFolder!

    override func setUp() { state = TemporaryFolder() }

    /// A library with notes, a notebook, a non-note file and Syncthing's marker.
    private func makeLibrary(in folder: URL) throws -> [String: Data] {
        let files: [String: Data] = [
            "a.md": Data("Alpha\n".utf8),
            "b.txt": Data("Beta\n".utf8),
            "Work/c.md": Data("Gamma in a notebook\n".utf8),
            "Work/Deep/d.md": Data(String(repeating: "delta ", count: 3000).utf8),
            ".pins.json": Data("[\"a.md\"]".utf8),
            "picture.png": Data([0x89, 0x50, 0x4E, 0x47]),
        ]
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            chmod(url.path, 0o600)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
        return files
    }

    private func contents(of folder: URL) -> [String: Data] { FolderContents.regularFiles(in: folder) }

    @discardableResult
    private func move(_ source: URL, _ destination: URL) throws -> LibraryMover.Preflight {
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let plan = try mover.preflight()
        try mover.run(plan)
        return plan
    }

    private func assertMoved(_ files: [String: Data], from source: URL, to destination: URL, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(contents(of: destination), files, file: file, line: line)
        XCTAssertEqual(contents(of: source), [:], "nothing left behind", file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: source.appendingPathComponent(".stfolder").path), "sync metadata stays", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: MoveJournal.url(in: state.url).path), "journal removed", file: file, line: line)
    }

    func testSameFileSystemMovesEverythingByRenaming() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("Local"), destination = root.url.appendingPathComponent("Sync/Notes")
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let files = try makeLibrary(in: source)
        let inode = try FileManager.default.attributesOfItem(atPath: source.appendingPathComponent("a.md").path)[.systemFileNumber] as? Int
        let plan = try move(source, destination)
        XCTAssertTrue(plan.sameFileSystem)
        XCTAssertEqual(plan.noteCount, 4)
        assertMoved(files, from: source, to: destination)
        let after = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent("a.md").path)[.systemFileNumber] as? Int
        XCTAssertEqual(after, inode, "renamed, not copied")
        XCTAssertFalse(FileManager.default.fileExists(atPath: source.appendingPathComponent("Work").path), "emptied notebooks go")
    }

    func testAcrossFileSystemsCopiesVerifiesAndKeepsModesAndTimes() throws {
        let disk = try SmallDisk(kilobytes: 1024)
        let root = TemporaryFolder()
        let source = disk.url.appendingPathComponent("Notes"), destination = root.url.appendingPathComponent("Notes")
        let files = try makeLibrary(in: source)
        chmod(source.appendingPathComponent("b.txt").path, 0o640)
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: source.appendingPathComponent("a.md").path)
        let plan = try move(source, destination)
        XCTAssertFalse(plan.sameFileSystem)
        assertMoved(files, from: source, to: destination)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent("b.txt").path)
        XCTAssertEqual((attributes[.posixPermissions] as? Int), 0o640)
        let moved = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent("a.md").path)
        XCTAssertEqual((moved[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0, old.timeIntervalSince1970, accuracy: 1)
        // …and back, disk → tmpfs.
        try move(destination, source)
        XCTAssertEqual(contents(of: source), files)
    }

    func testNameCollisionsKeepBoth() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A"), destination = root.url.appendingPathComponent("B")
        let files = try makeLibrary(in: source)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("Another device's a.md\n".utf8).write(to: destination.appendingPathComponent("a.md"))
        let plan = try move(source, destination)
        XCTAssertEqual(plan.collisions.map(\.target), ["a (2).md"])
        let moved = contents(of: destination)
        XCTAssertEqual(moved["a.md"], Data("Another device's a.md\n".utf8), "never overwritten")
        XCTAssertEqual(moved["a (2).md"], files["a.md"])
        XCTAssertEqual(moved.count, files.count + 1)
    }

    func testNoteLanguagesFollowRenamedNotesAndMergeWithTheDestinations() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A"), destination = root.url.appendingPathComponent("B")
        _ = try makeLibrary(in: source)
        try Data("Eins\n".utf8).write(to: source.appendingPathComponent("note-1.md"))
        try NoteLanguages(library: source).set("de_DE", forNoteAt: "note-1.md")
        try NoteLanguages(library: source).set("en_US", forNoteAt: "Work/c.md")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("Another device's note-1.md\n".utf8).write(to: destination.appendingPathComponent("note-1.md"))
        try NoteLanguages(library: destination).set("de_LU", forNoteAt: "other.md")
        let plan = try move(source, destination)
        XCTAssertEqual(plan.collisions.map(\.target).filter { $0.hasSuffix(".md") }, ["note-1 (2).md"])
        XCTAssertEqual(NoteLanguages(library: destination).load(), ["note-1 (2).md": "de_DE", "c.md": "en_US", "other.md": "de_LU"],
                       "the renamed note keeps its language, the one already there has none, both files' entries are kept")
        let notula = (try? FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent(".notula").path)) ?? []
        XCTAssertEqual(notula.filter { $0.hasPrefix("languages") }, ["languages.txt"], "the moved file was merged, not left beside")
    }

    func testSymlinkPointingOutOfTheLibraryMovesAsALinkAndIsNeverFollowed() throws {
        let root = TemporaryFolder()
        let outside = try root.write("outside-secret.md", "not part of the library")
        let source = root.url.appendingPathComponent("A"), destination = root.url.appendingPathComponent("B")
        _ = try makeLibrary(in: source)
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("link.md").path, withDestinationPath: outside.path)
        _ = try move(source, destination)
        let link = destination.appendingPathComponent("link.md")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), outside.path)
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "not part of the library", "the target is untouched")
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.path))
    }

    func testUnavailableDestinationIsRefusedBeforeAnythingMoves() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A")
        let files = try makeLibrary(in: source)
        let mover = LibraryMover(source: source, destination: root.url.appendingPathComponent("unplugged/disk/Notes"), stateFolder: state.url)
        XCTAssertThrowsError(try mover.preflight()) { error in
            XCTAssertEqual(error as? MoveError, .destinationUnavailable(path: root.url.appendingPathComponent("unplugged/disk/Notes").path, code: ENOENT))
        }
        let disk = try SmallDisk(kilobytes: 64)
        try disk.remountReadOnly()
        XCTAssertThrowsError(try LibraryMover(source: source, destination: disk.url, stateFolder: state.url).preflight()) { error in
            guard case .destinationUnavailable(_, let code) = error as? MoveError else { return XCTFail("\(error)") }
            XCTAssertEqual(code, EROFS)
        }
        XCTAssertEqual(contents(of: source), files)
    }

    func testFullDestinationIsRefusedBeforeAnythingMoves() throws {
        let disk = try SmallDisk(kilobytes: 64)
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A")
        var files = try makeLibrary(in: source)
        let big = Data(repeating: 0x61, count: 200 * 1024)
        try big.write(to: source.appendingPathComponent("big.md"))
        files["big.md"] = big
        XCTAssertThrowsError(try LibraryMover(source: source, destination: disk.url.appendingPathComponent("Notes"), stateFolder: state.url).preflight()) { error in
            guard case .notEnoughSpace = error as? MoveError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(contents(of: source), files)
    }

    func testFoldersInsideOneAnotherAreRefused() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A")
        _ = try makeLibrary(in: source)
        XCTAssertThrowsError(try LibraryMover(source: source, destination: source.appendingPathComponent("Sync"), stateFolder: state.url).preflight())
        XCTAssertThrowsError(try LibraryMover(source: source, destination: root.url, stateFolder: state.url).preflight())
    }

    /// Syncthing never syncs what is in its `.stfolder`: notes moved there would stay on this
    /// device while the app calls them synced.
    func testASyncClientsOwnFolderIsRefusedAndNothingMoves() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A")
        let files = try makeLibrary(in: source)
        let sync = root.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
        for inside in [".stfolder/Notes", ".stversions", ".dropbox.cache/Notes"] {
            let destination = sync.appendingPathComponent(inside)
            XCTAssertThrowsError(try move(source, destination), inside) { error in
                XCTAssertTrue("\(error)".contains("never syncs"), "\(inside): \(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "\(inside) was made")
        }
        XCTAssertEqual(contents(of: source), files)
        try move(source, sync.appendingPathComponent("Notes"))
        assertMoved(files, from: source, to: sync.appendingPathComponent("Notes"))
    }

    func testCancelPutsEverythingBack() throws {
        for crossing in [false, true] {
            let disk = crossing ? try SmallDisk(kilobytes: 1024) : nil
            let root = TemporaryFolder()
            let source = root.url.appendingPathComponent("A")
            let destination = (disk?.url ?? root.url).appendingPathComponent("B")
            let files = try makeLibrary(in: source)
            let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
            var asked = 0
            XCTAssertThrowsError(try mover.run(try mover.preflight(), isCancelled: { asked += 1; return asked > 3 })) { error in
                XCTAssertEqual(error as? MoveError, .cancelled)
            }
            XCTAssertEqual(contents(of: source), files, crossing ? "across file systems" : "same file system")
            XCTAssertEqual(contents(of: destination), [:])
        }
    }

    func testInterruptedMoveIsFinishedAtTheNextStart() throws {
        let root = TemporaryFolder()
        let source = root.url.appendingPathComponent("A"), destination = root.url.appendingPathComponent("B")
        let files = try makeLibrary(in: source)
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let plan = try mover.preflight()
        try plan.journal.write(to: mover.journalURL)
        try mover.createFolders(plan.journal)
        // As if stopped half-way: one item moved, one linked but its source not yet removed,
        // a half-written temporary left behind.
        _ = try mover.placeWithoutReplacing(source.appendingPathComponent("a.md"), destination.appendingPathComponent("a.md"))
        unlink(source.appendingPathComponent("a.md").path)
        _ = try mover.placeWithoutReplacing(source.appendingPathComponent("b.txt"), destination.appendingPathComponent("b.txt"))
        try Data("half".utf8).write(to: destination.appendingPathComponent(".x.md\(LibraryMover.temporaryMarker)abc"))
        guard case .finished(let finished) = LibraryMover.finishInterruptedMove(stateFolder: state.url) else {
            return XCTFail("the interrupted move was not finished")
        }
        XCTAssertEqual(finished.items, plan.journal.items)
        assertMoved(files, from: source, to: destination)
        XCTAssertEqual(LibraryMover.finishInterruptedMove(stateFolder: state.url), .nothingToDo)
    }

    /// Across file systems the finishing copies, syncs once and verifies, as `run` does; it
    /// reports its progress up to every item, and a name taken meanwhile keeps both.
    func testInterruptedMoveAcrossFileSystemsIsFinishedWithProgress() throws {
        let disk = try SmallDisk(kilobytes: 1024)
        let root = TemporaryFolder()
        let source = disk.url.appendingPathComponent("Notes"), destination = root.url.appendingPathComponent("Notes")
        var files = try makeLibrary(in: source)
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let plan = try mover.preflight()
        XCTAssertFalse(plan.sameFileSystem)
        try plan.journal.write(to: mover.journalURL)
        try mover.createFolders(plan.journal)
        // As if stopped half-way: a.md copied and its source removed, b.txt copied but its
        // source still there, another program's file at Work/c.md, a half-written temporary.
        try Data(files["a.md"]!).write(to: destination.appendingPathComponent("a.md"))
        unlink(source.appendingPathComponent("a.md").path)
        try Data(files["b.txt"]!).write(to: destination.appendingPathComponent("b.txt"))
        try Data("Another device's c\n".utf8).write(to: destination.appendingPathComponent("Work/c.md"))
        try Data("half".utf8).write(to: destination.appendingPathComponent("Work/\(LibraryMover.temporaryMarker)abc"))
        var reports: [Int] = []
        let outcome = LibraryMover.finishInterruptedMove(stateFolder: state.url) { folder, done, total in
            XCTAssertEqual(folder, destination.path)
            XCTAssertEqual(total, plan.journal.items.count)
            reports.append(done)
        }
        guard case .finished = outcome else { return XCTFail("the interrupted move was not finished") }
        XCTAssertEqual(reports.first, 0)
        XCTAssertEqual(reports.last, plan.journal.items.count)
        XCTAssertEqual(reports, reports.sorted(), "progress never goes back")
        files["Work/c (2).md"] = files["Work/c.md"]
        files["Work/c.md"] = Data("Another device's c\n".utf8)
        assertMoved(files, from: source, to: destination)
    }
}

import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// What other programs and sync clients leave in the library (issue #11): NUL bytes, FIFOs,
/// huge lines, long names, CRLF and BOMs, folders that are not folders. Each test failed on
/// the main branch before the fix.
@MainActor
final class HostileFilesTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    // MARK: 1. NUL bytes

    nonisolated func testANoteWithANulByteOpensReadOnlyAndIsNeverRewritten() throws {
        try MainActor.assumeIsolated {
            let bytes = Data("T\nbefore\u{0}after\nlast\n".utf8)
            try bytes.write(to: folder.file("n.md"))
            let document = try openDocument("n.md")
            XCTAssertTrue(document.isReadOnly)
            XCTAssertEqual(document.readOnlyReason, NoteEncoding.nulProblem)
            XCTAssertTrue(document.text.contains("before␀after"), "the whole text is shown, NUL visible")
            document.updateChangeCount(.done)
            XCTAssertFalse(save(document))
            document.close()
            XCTAssertEqual(try Data(contentsOf: folder.file("n.md")), bytes)
        }
    }

    // MARK: 2. FIFOs and other files that are not regular files

    nonisolated func testAFIFONamedLikeANoteIsSkippedWithoutBlocking() throws {
        try MainActor.assumeIsolated {
            _ = try folder.write("real.md", "Real note")
            XCTAssertEqual(mkfifo(folder.file("pipe.md").path, 0o600), 0)
            try FileManager.default.createDirectory(at: folder.file("Work"), withIntermediateDirectories: false)
            XCTAssertEqual(mkfifo(folder.file("Work/pipe.md").path, 0o600), 0)
            let library = NoteLibrary(folder: folder.url)
            let listed = finishes(within: 5) { try? library.scan().map(\.id) }
            XCTAssertEqual(listed, ["real.md"])
            XCTAssertThrowsError(try FileIdentity.read(folder.file("pipe.md"))) { error in
                XCTAssertEqual((error as? StorageError)?.code, EINVAL)
            }
            let pipe = folder.file("pipe.md")
            XCTAssertNil(finishes(within: 5) { RegularFile.contents(of: pipe) } ?? nil)
        }
    }

    nonisolated func testOpeningAFIFOFailsAtOnceInsteadOfHangingTheDocumentQueue() {
        MainActor.assumeIsolated {
            XCTAssertEqual(mkfifo(folder.file("pipe.md").path, 0o600), 0)
            let document = NoteDocument(fileURL: folder.file("pipe.md"), drafts: drafts, history: history, localWrites: localWrites)
            var failure: Error?
            document.errorPresenter = { _, error, done in failure = error; done(false) }
            var opened: Bool?
            document.open { opened = $0 }
            waitUntil("open gave up", timeout: 5) { opened != nil }
            XCTAssertEqual(opened, false)
            XCTAssertNotNil(failure)
        }
    }

    // MARK: 3. Huge notes

    nonisolated func testAFiveMegabyteLineOpensInTheSafeModeAndOpensWholeWhenAsked() throws {
        try MainActor.assumeIsolated {
            let line = String(repeating: "abcdefghij", count: 500_000)
            try Data(("Huge\n" + line + "\n").utf8).write(to: folder.file("huge.md"))
            let summary = try NoteLibrary(folder: folder.url).summary(ofFileNamed: "huge.md")
            XCTAssertTrue(summary.mightBeLarge)
            let document = try openDocument("huge.md")
            XCTAssertTrue(document.isLargePreview)
            XCTAssertTrue(document.isReadOnly)
            XCTAssertLessThan(document.text.utf8.count, 80_000, "the editor gets only the beginning")
            XCTAssertTrue(LargeNote.longestLine(Data(document.text.utf8)) <= LargeNote.maximumLineBytes)
            var done: Bool?
            document.openLargeNoteAnyway { done = $0 }
            waitUntil("read whole", timeout: 10) { done != nil }
            XCTAssertFalse(document.isLargePreview)
            XCTAssertFalse(document.isReadOnly)
            XCTAssertFalse(document.state.contains(.editingDisabled))
            XCTAssertEqual(document.text.utf8.count, line.utf8.count + 6)
        }
    }

    /// 100 MB of text (past `LargeNote.maximumReadBytes`): only its beginning is read, the
    /// note opens read-only saying so, and Open Anyway reads it all, still read-only.
    nonisolated func testAHundredMegabyteFileIsReadOnlyFromItsBeginningUntilAsked() throws {
        try MainActor.assumeIsolated {
            let url = folder.file("big.md")
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("Big\n".utf8)))
            let handle = try FileHandle(forWritingTo: url)
            handle.seekToEndOfFile()
            let chunk = Data(String(repeating: "a line of words in a very big file\n", count: 30_000).utf8)
            while handle.offsetInFile <= UInt64(LargeNote.maximumReadBytes) + 36 * 1024 * 1024 { handle.write(chunk) }
            try handle.close()
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
            let document = try openDocument("big.md")
            XCTAssertTrue(document.isLargePreview)
            XCTAssertTrue(document.isBeginningOnly)
            XCTAssertTrue(document.isReadOnly)
            XCTAssertTrue(document.readOnlyReason?.contains("very large") == true, "\(document.readOnlyReason ?? "-")")
            XCTAssertTrue(document.text.hasPrefix("Big\na line of words"))
            XCTAssertLessThan(document.text.utf8.count, 80_000, "the editor gets only the beginning")
            var done: Bool?
            document.openLargeNoteAnyway { done = $0 }
            waitUntil("read whole", timeout: 60) { done != nil }
            XCTAssertEqual(done, true)
            XCTAssertFalse(document.isLargePreview)
            XCTAssertTrue(document.isReadOnly, "opened anyway, it stays read-only")
            XCTAssertEqual(document.text.utf8.count, size)
            // Nothing was written to it.
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size)
        }
    }

    nonisolated func testSmallNotesAreNotLarge() {
        MainActor.assumeIsolated {
            XCTAssertNil(LargeNote.problem(Data(String(repeating: "line of text\n", count: 10_000).utf8)))
            XCTAssertFalse(LargeNote.mightBeLarge(size: 1000, prefix: Array("short\n".utf8)))
            XCTAssertNotNil(LargeNote.problem(Data(count: LargeNote.maximumBytes + 1)))
        }
    }

    // MARK: 5. Long names

    nonisolated func testTrashAndRestoreANoteWhoseNameIsAsLongAsAllowed() throws {
        try MainActor.assumeIsolated {
            let name = String(repeating: "n", count: 252) + ".md"
            _ = try folder.write(name, "Long name")
            let trash = LibraryTrash(library: folder.url)
            let item = try trash.trash(relativePath: name)
            XCTAssertEqual(try String(contentsOf: item.url, encoding: .utf8), "Long name")
            _ = try folder.write(name, "A newer note of the same name")
            let restored = try trash.restore(item)
            XCTAssertLessThanOrEqual(restored.utf8.count, 255)
            XCTAssertTrue(restored.hasSuffix(" (restored).md"))
            XCTAssertEqual(try String(contentsOf: folder.file(restored), encoding: .utf8), "Long name")
        }
    }

    nonisolated func testADocumentWithA255ByteNameSaves() throws {
        try MainActor.assumeIsolated {
            let name = String(repeating: "x", count: 252) + ".md"
            let document = try openDocument(name, "old")
            document.edit("new text")
            XCTAssertTrue(save(document))
            XCTAssertEqual(contents(folder.file(name)), "new text")
        }
    }

    // MARK: 6. CRLF and byte-order marks

    nonisolated func testCRLFTitlesAndPreviews() {
        MainActor.assumeIsolated {
            XCTAssertEqual(NoteText.title(of: "Title\r\nBody\r\n"), "Title")
            XCTAssertEqual(NoteText.preview(of: "Title\r\n\r\nBody\r\n"), "Body")
            XCTAssertEqual(NoteText.title(of: "\u{FEFF}# Shopping\nmilk"), "Shopping")
            XCTAssertEqual(LineDiff.lines("a\r\nb\r\nc").count, 3)
        }
    }

    nonisolated func testEditingACRLFNoteKeepsCRLFAndTheByteOrderMark() throws {
        try MainActor.assumeIsolated {
            let bytes = Data([0xEF, 0xBB, 0xBF]) + Data("Title\r\none\r\ntwo\r\n".utf8)
            try bytes.write(to: folder.file("w.md"))
            let document = try openDocument("w.md")
            XCTAssertFalse(document.isReadOnly)
            XCTAssertEqual(document.text, "Title\none\ntwo\n", "the editor sees plain lines, no BOM")
            XCTAssertEqual(document.displayName, "Title")
            document.edit(document.text + "three\n")
            XCTAssertTrue(save(document))
            XCTAssertEqual(try Data(contentsOf: folder.file("w.md")), Data([0xEF, 0xBB, 0xBF]) + Data("Title\r\none\r\ntwo\r\nthree\r\n".utf8))
        }
    }

    nonisolated func testAChangeElsewhereToACRLFNoteMergesLikeAnLFNote() throws {
        try MainActor.assumeIsolated {
            try Data("T\r\na\r\nb\r\nc\r\nd\r\ne\r\n".utf8).write(to: folder.file("m.md"))
            let document = try openDocument("m.md")
            document.edit("T\na LOCAL\nb\nc\nd\ne\n")
            try Data("T\r\na\r\nb\r\nc\r\nd\r\ne REMOTE\r\n".utf8).write(to: folder.file("m.md"))
            document.checkDisk()
            waitUntil("merged") { document.text == "T\na LOCAL\nb\nc\nd\ne REMOTE\n" }
            XCTAssertFalse(document.state.contains(.inConflict))
            XCTAssertTrue(save(document))
            XCTAssertEqual(contents(folder.file("m.md")), "T\r\na LOCAL\r\nb\r\nc\r\nd\r\ne REMOTE\r\n")
        }
    }

    nonisolated func testMixedLineEndingsAreLeftExactlyAsTheyAre() {
        MainActor.assumeIsolated {
            let decoded = NoteEncoding.decode(Data("a\r\nb\nc\r\n".utf8))
            XCTAssertEqual(decoded.encoding.lineEnding, .mixed)
            XCTAssertEqual(decoded.encoding.encode(decoded.text), Data("a\r\nb\nc\r\n".utf8))
        }
    }

    // MARK: 8. Folders that cannot be the library

    nonisolated func testOnlyAbsoluteOrdinaryFoldersCanBeTheLibrary() {
        MainActor.assumeIsolated {
            let home = "/home/ann"
            for path in ["", "  ", "notes", "./Sync", "/", "//", "/home/ann", "/home/ann/", "/usr/share/notes", "/etc", "/proc/self"] {
                XCTAssertNotNil(LibraryFolderCheck.problem(with: path, home: home), path)
            }
            for path in ["/home/ann/Sync/Notes", "/tmp/notes", "/run/media/ann/disk/Notes", "/var/home/ann/Notes"] {
                XCTAssertNil(LibraryFolderCheck.problem(with: path, home: home), path)
            }
        }
    }

    nonisolated func testARelativeSyncedFolderIsNeverResolvedAgainstTheWorkingDirectory() throws {
        try MainActor.assumeIsolated {
            let relative = Preferences(storage: .synced, syncedFolder: "src").libraryFolder(localLibrary: folder.url)
            XCTAssertEqual(relative.path, "src")
            XCTAssertThrowsError(try NoteLibrary(folder: relative).prepare(createIfMissing: false)) { error in
                XCTAssertEqual((error as? StorageError)?.code, EINVAL)
            }
            let empty = Preferences(storage: .synced, syncedFolder: "").libraryFolder(localLibrary: folder.url)
            XCTAssertThrowsError(try NoteLibrary(folder: empty).prepare(createIfMissing: true))
            XCTAssertThrowsError(try NoteLibrary(folder: URL(fileURLWithPath: "/")).prepare(createIfMissing: false))
            XCTAssertNil(NoteLibrary.countNotes(in: URL(fileURLWithPath: "/")))
        }
    }

    // MARK: 9. The real cause

    nonisolated func testALibraryReplacedByAFileIsNotCalledMissing() throws {
        try MainActor.assumeIsolated {
            let library = folder.file("Notes")
            try Data("not a folder".utf8).write(to: library)
            XCTAssertThrowsError(try NoteLibrary(folder: library).prepare()) { error in
                XCTAssertEqual((error as? StorageError)?.code, ENOTDIR)
            }
        }
    }

    nonisolated func testTheOpenNotesFolderReplacedByAFileIsReportedNotAsDeleted() throws {
        try MainActor.assumeIsolated {
            let notes = folder.file("Notes")
            try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: false)
            let document = try openDocument("a.md", "text", in: notes)
            var reported: Error?
            document.errorPresenter = { _, error, done in reported = error; done(false) }
            try FileManager.default.moveItem(at: notes, to: folder.file("Elsewhere"))
            try Data("a file now".utf8).write(to: notes)
            document.checkDisk()
            waitUntil("reported") { reported != nil || document.fileIsMissing }
            XCTAssertFalse(document.fileIsMissing)
            XCTAssertEqual(ErrorTranslator.posixCode(of: (reported as? OperationError)?.underlying ?? reported!), ENOTDIR)
        }
    }

    nonisolated func testTheLocalLibraryIsMadeAgainForANewNoteAfterItWasDeleted() throws {
        try MainActor.assumeIsolated {
            let notes = folder.file("Notes")
            let library = NoteLibrary(folder: notes)
            try library.prepare()
            try FileManager.default.removeItem(at: notes)
            XCTAssertThrowsError(try library.createNote())
            let note = try library.createNote(createIfMissing: true)
            XCTAssertTrue(FileManager.default.fileExists(atPath: note.url.path))
        }
    }

    // MARK: 4. inotify: one instance, many watches

    nonisolated func testTwoHundredNotebooksUseOneInotifyInstance() throws {
        try MainActor.assumeIsolated {
            let library = folder.file("Lib")
            for index in 0..<200 {
                try FileManager.default.createDirectory(at: library.appendingPathComponent("Book \(index)"), withIntermediateDirectories: true)
            }
            let before = Self.inotifyInstances()
            var seen: [String] = []
            let watcher = LibraryWatcher(library: library) { changes in seen += changes.map(\.name) }
            watcher.watch(notebooks: (0..<200).map { "Book \($0)" })
            let document = try openDocument("open.md", "x", in: library.appendingPathComponent("Book 7"))
            XCTAssertLessThanOrEqual(Self.inotifyInstances(), max(before, 1), "one inotify instance for the whole process")
            XCTAssertGreaterThanOrEqual(FolderWatcher.watchCount, 201)
            XCTAssertEqual(watcher.watchedNotebooks.count, 200)
            XCTAssertTrue(watcher.unwatched.isEmpty)
            // Every notebook reports, the open note's folder too (shared with the library's watch).
            for index in [0, 57, 123, 199] {
                try Data("dropped".utf8).write(to: library.appendingPathComponent("Book \(index)/dropped.md"))
            }
            waitUntil("every notebook reported") {
                [0, 57, 123, 199].allSatisfy { seen.contains("Book \($0)/dropped.md") }
            }
            document.close()
        }
    }

    /// A notebook renamed (by the user or another program) is a change of that notebook, never
    /// of the library folder itself: before, its watch said "" (the library moved away) and the
    /// window opened the whole library again, losing the chosen notebook.
    nonisolated func testANotebookRenamedIsThatNotebookNotTheLibraryFolder() throws {
        try MainActor.assumeIsolated {
            let library = folder.file("Lib")
            try FileManager.default.createDirectory(at: library.appendingPathComponent("Work"), withIntermediateDirectories: true)
            try Data("a".utf8).write(to: library.appendingPathComponent("Work/a.md"))
            var seen: [FolderWatcher.Change] = []
            let watcher = LibraryWatcher(library: library) { changes in seen += changes }
            watcher.watch(notebooks: ["Work"])
            try FileManager.default.moveItem(at: library.appendingPathComponent("Work"), to: library.appendingPathComponent("Job"))
            waitUntil("the rename reported") { seen.contains { $0.name == "Work" && $0.kind == .removed } && seen.contains { $0.name == "Job" } }
            XCTAssertFalse(seen.contains { $0.name.isEmpty }, "the library folder said moved: \(seen)")
            try FileManager.default.removeItem(at: library.appendingPathComponent("Job"))
            waitUntil("the deletion reported") { seen.contains { $0.name == "Job" && $0.kind == .removed } }
            XCTAssertFalse(seen.contains { $0.name.isEmpty }, "the library folder said deleted: \(seen)")
            withExtendedLifetime(watcher) {}
        }
    }

    /// inotify instances this process holds.
    static func inotifyInstances() -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:inotify" }.count
    }

    // MARK: Helpers

    /// Runs `body` on another thread; nil when it did not finish in time (it blocked).
    private func finishes<T: Sendable>(within seconds: TimeInterval, _ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let box = Shared<T?>(nil)
        DispatchQueue.global().async {
            box.value = body()
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            XCTFail("blocked for more than \(seconds) s")
            return nil
        }
        return box.value
    }
}

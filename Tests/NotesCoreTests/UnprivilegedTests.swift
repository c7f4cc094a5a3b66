import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Permission problems, as an ordinary user meets them (issue #11, defects 9 and 10). Root
/// ignores file permissions, so these tests take the effective user id of `nobody` for a
/// moment (the real id stays root, so it can come back); skipped when not root.
@MainActor
final class UnprivilegedTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private let nobody: uid_t = 65534

    private func asNobody<T>(_ body: () throws -> T) throws -> T {
        guard getuid() == 0 else { throw cannotRun("needs root to act as an unprivileged user") }
        guard setegid(gid_t(nobody)) == 0, seteuid(nobody) == 0 else { throw cannotRun("cannot switch the effective user") }
        defer {
            seteuid(0)
            setegid(0)
        }
        return try body()
    }

    nonisolated func testAnUnreadableNoteIsListedGreyedWithItsReason() throws {
        try MainActor.assumeIsolated {
            chmod(folder.url.path, 0o755)
            let readable = try folder.write("mine.md", "Mine\n")
            chown(readable.path, nobody, gid_t(nobody))
            let secret = try folder.write("secret.md", "Secret\n")
            chmod(secret.path, 0o600)  // root's: nobody cannot read it
            let notes = try asNobody { try NoteLibrary(folder: folder.url).scan() }
            XCTAssertEqual(Set(notes.map(\.id)), ["mine.md", "secret.md"])
            let unreadable = try XCTUnwrap(notes.first { $0.id == "secret.md" })
            XCTAssertEqual(unreadable.unreadableReason, "You do not have permission to read this file.")
            XCTAssertNil(notes.first { $0.id == "mine.md" }?.unreadableReason)
        }
    }

    /// Issue #28: a note nobody may read (mode 000) is listed with that reason — by the
    /// library and by the index — never as "Not UTF-8 text"; opening it says the FILE cannot
    /// be read, naming it, not that its folder cannot be changed.
    nonisolated func testAnUnreadableNoteIsNotCalledNotUTF8NorBlamedOnItsFolder() throws {
        try MainActor.assumeIsolated {
            chmod(folder.url.path, 0o777)
            let mine = try folder.write("mine.md", "Mine\n")
            chown(mine.path, nobody, gid_t(nobody))
            let secret = try folder.write("secret.md", "Secret\n")
            chmod(secret.path, 0o000)
            let reason = "You do not have permission to read this file."
            let scanned = try asNobody { try NoteLibrary(folder: folder.url).scan() }
            let listed = try XCTUnwrap(scanned.first { $0.id == "secret.md" })
            XCTAssertEqual(listed.shownPreview, reason)
            XCTAssertNil(scanned.first { $0.id == "mine.md" }?.unreadableReason)
            let indexed = try asNobody { () -> [NoteSummary] in
                let index = try LibraryIndex(library: NoteLibrary(folder: folder.url), cacheFolder: nil)
                _ = try index.reconcile { _ in }
                return index.summaries()
            }
            XCTAssertEqual(indexed.first { $0.id == "secret.md" }?.shownPreview, reason)
            XCTAssertEqual(indexed.first { $0.id == "secret.md" }?.unreadableReason, reason)
            XCTAssertNotEqual(indexed.first { $0.id == "secret.md" }?.shownPreview, NoteLibrary.notUTF8Preview)

            var reported: Error?
            try asNobody {
                let document = NoteDocument(fileURL: secret, drafts: drafts, history: history, localWrites: localWrites)
                document.errorPresenter = { _, error, done in reported = error; done(false) }
                document.open()
                waitUntil("the open failed") { reported != nil }
            }
            let explanation = ErrorTranslator.explain(try XCTUnwrap(reported))
            XCTAssertEqual(explanation.kind, .permissionDenied)
            XCTAssertEqual(explanation.failureReason, "“secret.md” could not be opened")
            XCTAssertTrue(explanation.recoverySuggestion.contains("permission to read the file “\(secret.path)”"), explanation.recoverySuggestion)
            XCTAssertFalse(explanation.recoverySuggestion.contains("folder"), explanation.recoverySuggestion)
        }
    }

    /// A notebook whose folder may be listed but not searched: the note's error names that
    /// folder (which the user must change), not the note nor the library.
    nonisolated func testAFolderThatCannotBeSearchedIsTheOneNamed() throws {
        try MainActor.assumeIsolated {
            chmod(folder.url.path, 0o755)
            let work = folder.file("Work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
            let note = work.appendingPathComponent("a.md")
            try Data("A\n".utf8).write(to: note)
            chmod(note.path, 0o644)
            chmod(work.path, 0o744)  // others may list it, not search it
            defer { chmod(work.path, 0o700) }
            let error = try asNobody { () -> Error? in
                do { _ = try RegularFile.read(note); return nil } catch { return error }
            }
            let storage = try XCTUnwrap(error as? StorageError)
            XCTAssertEqual(storage.operation, .listFolder)
            XCTAssertEqual(storage.path, work.path)
            let words = ErrorTranslator.explain(OperationError(.open, note: "a.md", underlying: storage)).recoverySuggestion
            XCTAssertTrue(words.contains("permission to open the folder “\(work.path)”"), words)
            let listed = try asNobody { try NoteLibrary(folder: folder.url).scan() }
            XCTAssertEqual(listed.first { $0.id == "Work/a.md" }?.shownPreview, "You do not have permission to open the folder it is in.")
        }
    }

    nonisolated func testALibraryWithoutPermissionIsNotCalledDeletedOrMissing() throws {
        try MainActor.assumeIsolated {
            let notes = folder.file("Notes")
            try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: false)
            chmod(folder.url.path, 0o755)
            let document = try openDocument("a.md", "text", in: notes)
            var reported: Error?
            document.errorPresenter = { _, error, done in reported = error; done(false) }
            chmod(notes.path, 0o000)
            defer { chmod(notes.path, 0o700) }
            try asNobody {
                XCTAssertThrowsError(try NoteLibrary(folder: notes).scan()) { error in
                    XCTAssertEqual((error as? StorageError)?.code, EACCES)
                }
                document.checkDisk()
                waitUntil("reported") { reported != nil || document.fileIsMissing }
            }
            XCTAssertFalse(document.fileIsMissing, "chmod 000 is not a deletion")
            let explanation = ErrorTranslator.explain(try XCTUnwrap(reported))
            XCTAssertEqual(explanation.kind, .permissionDenied)
        }
    }
}

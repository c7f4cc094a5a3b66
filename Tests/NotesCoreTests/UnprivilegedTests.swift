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
        guard getuid() == 0 else { throw XCTSkip("needs root to act as an unprivileged user") }
        guard setegid(gid_t(nobody)) == 0, seteuid(nobody) == 0 else { throw XCTSkip("cannot switch the effective user") }
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

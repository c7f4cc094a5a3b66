import Foundation
import XCTest
@testable import NotesCore

/// The translation table: raw errors in, words a person can act on out.
@MainActor
final class ErrorTranslatorTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func explain(_ code: Int32, _ action: OperationError.Action = .save, note: String? = "Groceries") -> ErrorTranslator.Explanation {
        ErrorTranslator.explain(OperationError(action, note: note, underlying: StorageError(.write, path: "/home/ann/Notes/a.md", code: code)))
    }

    nonisolated func testPOSIXErrors() {
        MainActor.assumeIsolated {
            let table: [(Int32, ErrorTranslator.Kind, String)] = [
                (ENOSPC, .diskFull, "The disk is full."),
                (EACCES, .permissionDenied, "You do not have permission to change the folder “/home/ann/Notes”."),
                (EPERM, .permissionDenied, "You do not have permission"),
                (EROFS, .readOnlyDisk, "The disk that holds your notes is read-only"),
                (ENOENT, .notFound, "no longer exists (/home/ann/Notes/a.md)"),
                (EIO, .ioError, "read or write error"),
                (ENAMETOOLONG, .nameTooLong, "too long"),
                (EMFILE, .tooManyOpenFiles, "Too many files are open"),
                (EEXIST, .alreadyExists, "already exists"),
            ]
            for (code, kind, words) in table {
                let explanation = explain(code)
                XCTAssertEqual(explanation.kind, kind, "errno \(code)")
                XCTAssertEqual(explanation.failureReason, "“Groceries” could not be saved")
                XCTAssertTrue(explanation.recoverySuggestion.contains(words), "errno \(code): \(explanation.recoverySuggestion)")
            }
        }
    }

    /// A FIFO, a device, a folder or a link under a note's name: the message says what it
    /// is, not "Something unexpected went wrong", and its kind offers no Try Again.
    nonisolated func testOddFilesSayWhatTheyAre() throws {
        try MainActor.assumeIsolated {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-odd-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let fifo = folder.appendingPathComponent("pipe.md").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let shelf = folder.appendingPathComponent("Shelf.md")
            try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: false)
            let link = folder.appendingPathComponent("link.md").path
            XCTAssertEqual(symlink("/etc/hostname", link), 0)
            for (path, words) in [(fifo, "FIFO (named pipe)"), ("/dev/null", "device"), (shelf.path, "folder"), (link, "symbolic link")] {
                XCTAssertThrowsError(try RegularFile.openForReading(path)) { error in
                    let explanation = ErrorTranslator.explain(OperationError(.open, note: "x", underlying: error))
                    XCTAssertEqual(explanation.kind, .notAFile, path)
                    XCTAssertTrue(explanation.recoverySuggestion.contains(words), explanation.recoverySuggestion)
                    XCTAssertFalse(explanation.recoverySuggestion.contains("unexpected"), explanation.recoverySuggestion)
                    XCTAssertFalse(explanation.recoverySuggestion.contains(".."), explanation.recoverySuggestion)
                }
            }
            // A reason that ends a sentence is not followed by a second full stop.
            let other = ErrorTranslator.explain(StorageError(.read, path: "/a.md", code: 0, reason: "It broke."))
            XCTAssertFalse(other.recoverySuggestion.contains(".."), other.recoverySuggestion)
        }
    }

    nonisolated func testDialogTextIsShortenedInTheMiddle() {
        MainActor.assumeIsolated {
            let long = "Start " + String(repeating: "x", count: 1_000_000) + " end."
            let short = RecoverableFailure.shortened(long, limit: 300)
            XCTAssertEqual(short.count, 300)
            XCTAssertTrue(short.hasPrefix("Start ") && short.hasSuffix(" end.") && short.contains("…"), short)
            XCTAssertEqual(RecoverableFailure.shortened("Fine as it is.", limit: 300), "Fine as it is.")
        }
    }

    nonisolated func testEveryActionNamesTheNoteAndWhatFailed() {
        MainActor.assumeIsolated {
            let expected: [(OperationError.Action, String)] = [
                (.create, "A new note could not be created"),
                (.open, "“Groceries” could not be opened"),
                (.save, "“Groceries” could not be saved"),
                (.autosave, "“Groceries” could not be saved"),
                (.delete, "“Groceries” could not be moved to the Trash"),
                (.reload, "“Groceries” could not be reloaded"),
                (.revert, "“Groceries” could not be reverted to the saved version"),
                (.listLibrary, "Your notes could not be listed"),
                (.saveCopy, "A copy of “Groceries” could not be saved"),
                (.quit, "Your latest changes to “Groceries” could not be saved"),
            ]
            for (action, reason) in expected {
                XCTAssertEqual(explain(EIO, action).failureReason, reason)
            }
            XCTAssertEqual(explain(EIO, .save, note: nil).failureReason, "The note could not be saved")
        }
    }

    nonisolated func testMissingLibraryFolder() {
        MainActor.assumeIsolated {
            let explanation = ErrorTranslator.explain(OperationError(.listLibrary, note: nil,
                underlying: StorageError(.listFolder, path: "/media/usb/Notes", code: ENOENT)))
            XCTAssertEqual(explanation.kind, .libraryMissing)
            XCTAssertTrue(explanation.recoverySuggestion.contains("“/media/usb/Notes” is missing"))
        }
    }

    nonisolated func testFoundationFileErrors() {
        MainActor.assumeIsolated {
            let cocoa = CocoaError(.fileWriteOutOfSpace)
            XCTAssertEqual(ErrorTranslator.explain(cocoa, action: .save, note: "A").kind, .diskFull)
            let posix = POSIXError(.EROFS)
            XCTAssertEqual(ErrorTranslator.explain(posix, action: .save, note: "A").kind, .readOnlyDisk)
            let wrapped = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                                  userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))])
            XCTAssertEqual(ErrorTranslator.explain(wrapped, action: .save, note: "A").kind, .permissionDenied)
        }
    }

    nonisolated func testErrorsFromOtherLayersByTheirErrno() {
        MainActor.assumeIsolated {
            struct GIOLike: POSIXCodeConvertible { var posixCode: Int32? { ENOSPC } }
            XCTAssertEqual(ErrorTranslator.explain(GIOLike(), action: .delete, note: "A").kind, .diskFull)
        }
    }

    nonisolated func testDocumentErrorsAndTextThatIsNotUTF8() {
        MainActor.assumeIsolated {
            XCTAssertEqual(ErrorTranslator.explain(DocumentError.inConflict(note: "A"), action: .save, note: "A").kind, .conflict)
            XCTAssertEqual(ErrorTranslator.explain(DocumentError.fileMissing(note: "A"), action: .save, note: "A").kind, .fileMissing)
            XCTAssertEqual(ErrorTranslator.explain(DocumentError.saveTimedOut(note: "A"), action: .quit, note: "A").kind, .timedOut)
            let notText = ErrorTranslator.explain(DocumentError.readOnly(note: "A", reason: NoteEncoding.notUTF8Problem), action: .save, note: "A")
            XCTAssertEqual(notText.kind, .notText)
            XCTAssertTrue(notText.recoverySuggestion.contains("not UTF-8 text"))
        }
    }

    /// Read-only for another reason is never called "not UTF-8": the document's own reason is
    /// said, and without one (editing paused) no reason is made up.
    nonisolated func testReadOnlyForOtherReasonsSaysThatReason() {
        MainActor.assumeIsolated {
            let permission = "You do not have permission to change this file, so Notula shows it read-only."
            let noWrite = ErrorTranslator.explain(DocumentError.readOnly(note: "A", reason: permission), action: .resolveConflict, note: "A")
            XCTAssertEqual(noWrite.kind, .readOnly)
            XCTAssertEqual(noWrite.recoverySuggestion, permission)
            let paused = ErrorTranslator.explain(DocumentError.readOnly(note: "A"), action: nil, note: nil)
            XCTAssertEqual(paused.kind, .readOnly)
            XCTAssertFalse(paused.recoverySuggestion.contains("UTF-8"), paused.recoverySuggestion)
        }
    }

    /// Permission denied names what denied it: the file that could not be read, the folder that
    /// could not be opened, or the folder a change was made in — never the folder for a file
    /// that could not be read.
    nonisolated func testPermissionDeniedTellsTheFileFromTheFolder() {
        MainActor.assumeIsolated {
            let read = ErrorTranslator.explain(OperationError(.open, note: "secret.md",
                underlying: StorageError(.read, path: "/home/ann/Notes/secret.md", code: EACCES)))
            XCTAssertEqual(read.kind, .permissionDenied)
            XCTAssertEqual(read.failureReason, "“secret.md” could not be opened")
            XCTAssertTrue(read.recoverySuggestion.contains("permission to read the file “/home/ann/Notes/secret.md”"), read.recoverySuggestion)
            XCTAssertFalse(read.recoverySuggestion.contains("folder"), read.recoverySuggestion)
            let folder = ErrorTranslator.explain(OperationError(.open, note: "a.md",
                underlying: StorageError(.listFolder, path: "/home/ann/Notes/Work", code: EACCES)))
            XCTAssertTrue(folder.recoverySuggestion.contains("permission to open the folder “/home/ann/Notes/Work”"), folder.recoverySuggestion)
            let save = explain(EACCES, .save)
            XCTAssertTrue(save.recoverySuggestion.contains("permission to change the folder “/home/ann/Notes”"), save.recoverySuggestion)
            let create = ErrorTranslator.explain(OperationError(.createNotebook, note: "Work",
                underlying: StorageError(.createFolder, path: "/home/ann/Notes/Work", code: EACCES)))
            XCTAssertTrue(create.recoverySuggestion.contains("change the folder “/home/ann/Notes”"), create.recoverySuggestion)
            for action in [OperationError.Action.open, .save] {
                let words = ErrorTranslator.explain(POSIXError(.EACCES), action: action, note: "A").recoverySuggestion
                XCTAssertFalse(words.contains("change this file"), "\(action): \(words)")
            }
        }
    }

    nonisolated func testUnknownErrorsStillSayWhichNoteAndWhichAction() {
        MainActor.assumeIsolated {
            struct Strange: Error, CustomStringConvertible { var description: String { "flux capacitor offline" } }
            let explanation = ErrorTranslator.explain(Strange(), action: .revert, note: "Diary")
            XCTAssertEqual(explanation.kind, .unknown)
            XCTAssertEqual(explanation.failureReason, "“Diary” could not be reverted to the saved version")
            XCTAssertTrue(explanation.recoverySuggestion.contains("flux capacitor offline"))
            // An unusual file error names its file: which note could not be read.
            let loop = ErrorTranslator.explain(StorageError(.read, path: "/n/Loop.md", code: ELOOP), action: .removeUnusedAttachments, note: nil)
            XCTAssertEqual(loop.failureReason, "Unused attachments could not be removed")
            XCTAssertTrue(loop.recoverySuggestion.contains("“Loop.md”"), loop.recoverySuggestion)
        }
    }

    nonisolated func testRecoverableFailureRunsTheChosenOptionAndMergesByContent() {
        MainActor.assumeIsolated {
            var ran: [String] = []
            let error = RecoverableFailure(failureReason: "X could not be saved", recoverySuggestion: "Disk full.", actions: [
                .retry(),
                RecoveryAction("Save a Copy…") { ran.append("copy"); $0(false) },
                .cancel("Keep Editing"),
            ])
            XCTAssertEqual(error.recoveryOptions.map(\.title), ["Try Again", "Save a Copy…", "Keep Editing"])
            XCTAssertEqual(error.recoveryOptions.first?.role, .default)
            XCTAssertEqual(error.cancelOptionIndex, 2)
            var recovered: [Bool] = []
            error.attemptRecovery(optionIndex: 0) { recovered.append($0) }
            error.attemptRecovery(optionIndex: 1) { recovered.append($0) }
            error.attemptRecovery(optionIndex: 2) { recovered.append($0) }
            XCTAssertEqual(recovered, [true, false, false])
            XCTAssertEqual(ran, ["copy"])
            let same = RecoverableFailure(failureReason: "X could not be saved", recoverySuggestion: "Disk full.",
                                        actions: [.retry(), RecoveryAction("Save a Copy…") { $0(false) }, .cancel("Keep Editing")])
            XCTAssertEqual(error.presentationKey, same.presentationKey)
        }
    }

    nonisolated func testResponderChainWalksAndStops() {
        MainActor.assumeIsolated {
            var log: [String] = []
            final class Link: Responder {
                let name: String
                let next: Responder?
                let handles: Bool
                let record: (String) -> Void
                init(_ name: String, next: Responder?, handles: Bool = false, record: @escaping (String) -> Void) {
                    self.name = name
                    self.next = next
                    self.handles = handles
                    self.record = record
                }
                override var nextResponder: Responder? { next }
                override func willPresentError(_ error: Error) -> Error? {
                    record(name)
                    return handles ? nil : error
                }
            }
            let top = Link("app", next: nil) { log.append($0) }
            let bottom = Link("editor", next: Link("window", next: top) { log.append($0) }) { log.append($0) }
            bottom.presentError(StorageError(.write, path: "/x", code: EIO)) { _ in }
            XCTAssertEqual(log, ["editor", "window", "app"])
            log = []
            Link("inline", next: top, handles: true) { log.append($0) }.presentError(StorageError(.write, path: "/x", code: EIO)) { _ in }
            XCTAssertEqual(log, ["inline"], "a responder returning nil stops the error")
        }
    }
}

import Foundation
import TestSupport
import XCTest
@testable import NotesCore

@MainActor
final class NoteDocumentTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    // MARK: State machine

    nonisolated func testLifeFromClosedToOpenToEditedToSavedToClosed() throws {
        try MainActor.assumeIsolated {
            let url = try folder.write("a.md", "Hello")
            let document = NoteDocument(fileURL: url, drafts: drafts, history: history)
            XCTAssertEqual(document.state, .closed)
            var states: [DocumentState] = []
            document.addObserver { document, event in if event == .statusChanged { states.append(document.state) } }
            let opened = expectation(description: "opened")
            document.open { _ in opened.fulfill() }
            wait(for: [opened], timeout: 5)
            XCTAssertEqual(document.state, [])
            XCTAssertEqual(document.text, "Hello")
            XCTAssertEqual(document.displayName, "Hello")
            XCTAssertNotNil(document.fileModificationDate)
            document.edit("Hello world")
            XCTAssertTrue(document.hasUnsavedChanges)
            XCTAssertTrue(save(document))
            XCTAssertFalse(document.hasUnsavedChanges)
            let closed = expectation(description: "closed")
            document.close { _ in closed.fulfill() }
            wait(for: [closed], timeout: 5)
            XCTAssertEqual(document.state, .closed)
            XCTAssertEqual(states.first, [], "opening is published")
            XCTAssertEqual(states.last, .closed, "closing is published")
            document.edit("after close")
            XCTAssertEqual(document.text, "Hello world", "a closed document takes no edits")
        }
    }

    nonisolated func testChangeKindsAndClearing() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument()
            document.updateChangeCount(.done)
            XCTAssertTrue(document.hasUnsavedChanges)
            document.updateChangeCount(.cleared)
            XCTAssertFalse(document.hasUnsavedChanges)
            document.updateChangeCount(.undone)
            XCTAssertTrue(document.hasUnsavedChanges, "an undo is a change to save")
            document.updateChangeCount(.redone)
            XCTAssertTrue(document.hasUnsavedChanges)
        }
    }

    nonisolated func testEditingDisabledNestsAndBlocksEdits() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "x")
            document.disableEditing()
            document.disableEditing()
            document.edit("blocked")
            XCTAssertEqual(document.text, "x")
            document.enableEditing()
            XCTAssertTrue(document.state.contains(.editingDisabled))
            document.enableEditing()
            XCTAssertEqual(document.state, [])
            document.edit("allowed")
            XCTAssertEqual(document.text, "allowed")
        }
    }

    // MARK: Tokens

    nonisolated func testEditDuringABackgroundSaveStaysUnsaved() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "v0")
            document.edit("v1")
            var finished = false
            document.save { _ in finished = true }
            // The save's completion is queued on the main queue: this edit lands before it.
            document.edit("v2")
            waitUntil("save finished") { finished }
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "v1", "the save wrote its snapshot")
            XCTAssertTrue(document.hasUnsavedChanges, "v2 was typed during the write and is not on disk")
            try document.saveAndWait()
            XCTAssertFalse(document.hasUnsavedChanges)
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "v2")
        }
    }

    nonisolated func testTokenFromAnOlderSaveNeverUndoesANewerOne() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument()
            document.edit("one")
            let old = document.changeCountToken()
            document.edit("two")
            let new = document.changeCountToken()
            document.updateChangeCount(withToken: new)
            document.updateChangeCount(withToken: old)
            XCTAssertFalse(document.hasUnsavedChanges)
        }
    }

    nonisolated func testTextComesFromTheEditorOnlyWhenSavingAndNotAfterClose() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "start")
            var editorText = "start"
            var reads = 0
            document.contentProvider = { reads += 1; return editorText }
            for character in " typed" {
                editorText.append(character)
                document.updateChangeCount(.done)
            }
            XCTAssertEqual(reads, 0, "typing does not copy the text")
            XCTAssertTrue(save(document))
            XCTAssertEqual(reads, 1)
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "start typed")
            var closed = false
            document.close { _ in closed = true }
            waitUntil("closed") { closed }
            editorText = "another note now shown in the editor"
            XCTAssertEqual(document.displayName, "start typed", "a closed document no longer reads the editor")
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "start typed")
        }
    }

    // MARK: Safe save and autosave

    nonisolated func testAutosaveWritesShortlyAfterTyping() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument(autosave: 0.2)
            document.edit("typed")
            waitUntil("autosaved") { !document.hasUnsavedChanges }
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "typed")
        }
    }

    nonisolated func testSaveKeepsTheModeAndLeavesNoTemporary() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "x")
            chmod(document.fileURL.path, 0o644)
            document.edit("y")
            XCTAssertTrue(save(document))
            var info = stat()
            stat(document.fileURL.path, &info)
            XCTAssertEqual(info.st_mode & 0o777, 0o644)
            XCTAssertEqual(folder.names.filter { !$0.hasPrefix(".drafts") }, ["a.md"])
        }
    }

    nonisolated func testOpenLeavesTemporariesAlone() throws {
        try MainActor.assumeIsolated {
            // A closing save of this very note may still be writing its temporary as it opens again.
            _ = try folder.write("a.md", "note A")
            _ = try folder.write("\(AtomicFileWriter.temporaryMarker)Xy12Zz", "a save in progress")
            let document = try openDocument("a.md")
            XCTAssertEqual(document.text, "note A")
            XCTAssertEqual(folder.names, ["\(AtomicFileWriter.temporaryMarker)Xy12Zz", "a.md"])
        }
    }

    nonisolated func testInvalidUTF8IsReadOnlyAndNeverWritten() throws {
        try MainActor.assumeIsolated {
            let bytes = Data([0x43, 0x61, 0x66, 0xE9, 0x0A, 0xFF])
            try bytes.write(to: folder.file("latin1.md"))
            let document = try openDocument("latin1.md")
            XCTAssertTrue(document.isReadOnly)
            XCTAssertTrue(document.state.contains(.editingDisabled))
            document.edit("overwrite attempt")
            XCTAssertFalse(document.hasUnsavedChanges)
            try document.saveAndWait()
            XCTAssertEqual(try Data(contentsOf: document.fileURL), bytes)
        }
    }

    // MARK: Changes on disk

    nonisolated func testChangeOnDiskWithoutLocalEditsReloadsInPlace() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "original")
            var replaced = false
            document.addObserver { _, event in if event == .textReplaced { replaced = true } }
            try AtomicFileWriter.write(Data("changed by another program".utf8), to: document.fileURL)
            waitUntil("reloaded") { replaced }
            XCTAssertEqual(document.text, "changed by another program")
            XCTAssertFalse(document.hasUnsavedChanges)
            XCTAssertEqual(document.state, [])
        }
    }

    nonisolated func testOwnSavesAreNotMistakenForOtherPrograms() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "x")
            var replaced = 0
            document.addObserver { _, event in if event == .textReplaced { replaced += 1 } }
            for index in 0..<5 {
                document.edit("edit \(index)")
                XCTAssertTrue(save(document))
            }
            RunLoop.main.run(until: Date().addingTimeInterval(0.3))
            XCTAssertEqual(replaced, 0)
            XCTAssertEqual(document.state, [])
        }
    }

    nonisolated func testChangeOnDiskWithLocalEditsIsAConflictThatKeepsBoth() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "base")
            document.edit("mine")
            try AtomicFileWriter.write(Data("theirs".utf8), to: document.fileURL)
            waitUntil("conflict") { document.state.contains(.inConflict) }
            XCTAssertEqual(document.text, "mine")
            XCTAssertEqual(document.otherVersions.map(\.text), ["theirs"])
            XCTAssertEqual(document.otherVersions.first?.origin, .changedOnDisk)
            XCTAssertFalse(save(document), "saving must not overwrite the other version")
            try? document.saveAndWait()
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "theirs")
            waitUntil("draft written") { self.drafts.draft(for: document.fileURL)?.text == "mine" }
        }
    }

    nonisolated func testChangeFoundOnlyAtSaveTimeBecomesAConflictNotAnOverwrite() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "base")
            document.watcherForTesting = nil  // as if the change event had not arrived yet
            document.edit("mine")
            try Data("theirs, same second".utf8).write(to: document.fileURL)
            XCTAssertFalse(save(document))
            XCTAssertTrue(document.state.contains(.inConflict))
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "theirs, same second")
        }
    }

    nonisolated func testDeletedOnDiskKeepsTextAndCanBeSavedAgain() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "precious")
            try FileManager.default.removeItem(at: document.fileURL)
            waitUntil("noticed") { document.fileIsMissing }
            XCTAssertEqual(document.text, "precious")
            XCTAssertTrue(document.hasUnsavedChanges)
            XCTAssertFalse(FileManager.default.fileExists(atPath: document.fileURL.path), "autosave does not silently recreate it")
            waitUntil("draft written") { self.drafts.draft(for: document.fileURL)?.text == "precious" }
            var saved = false
            document.saveAgain { saved = $0 }
            waitUntil("saved again") { saved }
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "precious")
            XCTAssertFalse(document.fileIsMissing)
            XCTAssertNil(drafts.draft(for: document.fileURL), "the draft goes once the file holds the text")
        }
    }

    nonisolated func testUnreadableChangeOnDiskIsReportedAndTheTextKept() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "mine")
            var reported: [OperationError] = []
            document.errorPresenter = { _, error, done in
                if let failure = error as? OperationError { reported.append(failure) }
                done(false)
            }
            // Another program puts something that is not a file where the note was.
            try FileManager.default.removeItem(at: document.fileURL)
            try FileManager.default.createDirectory(at: document.fileURL, withIntermediateDirectories: false)
            waitUntil("reported") { reported.contains { $0.action == .reload } }
            XCTAssertEqual(document.text, "mine")
        }
    }

    // MARK: Errors

    nonisolated func testSaveErrorSetsStateRoutesToThePresenterOnceAndRecovers() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 64)
            let document = try openDocument("a.md", "start", in: disk.url)
            var presented: [Error] = []
            document.errorPresenter = { _, error, done in presented.append(error); done(false) }
            try disk.remountReadOnly()
            document.edit("words that must survive")
            XCTAssertFalse(save(document))
            XCTAssertTrue(document.state.contains(.savingError))
            let failure = document.lastError as? OperationError
            XCTAssertEqual(failure?.action, .save)
            XCTAssertEqual(failure?.note, "words that must survive")
            XCTAssertEqual((failure?.underlying as? StorageError)?.code, EROFS)
            XCTAssertFalse(save(document))
            XCTAssertEqual(presented.count, 1, "a series of failures is presented once")
            XCTAssertEqual(drafts.draft(for: document.fileURL)?.text, "words that must survive")
            try disk.remountWritable()
            XCTAssertTrue(save(document))
            XCTAssertFalse(document.state.contains(.savingError))
            XCTAssertNil(document.lastError)
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "words that must survive")
        }
    }

    nonisolated func testRecoveredSaveErrorRetriesTheSave() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 64)
            let document = try openDocument("a.md", "start", in: disk.url)
            try disk.remountReadOnly()
            var attempts = 0
            document.errorPresenter = { _, _, done in
                attempts += 1
                try? disk.remountWritable()  // the user freed the disk, then chose Try Again
                done(true)
            }
            document.edit("retried words")
            var result: Bool?
            document.save { result = $0 }
            waitUntil("save finished after the retry") { result != nil }
            XCTAssertEqual(attempts, 1)
            XCTAssertEqual(result, true, "the save's caller learns of the retried save's success")
            XCTAssertEqual(try String(contentsOf: document.fileURL, encoding: .utf8), "retried words")
            XCTAssertFalse(document.state.contains(.savingError))
        }
    }

    nonisolated func testErrorsWithoutInteractionAreDeferred() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument()
            var presented = 0
            document.errorPresenter = { _, _, done in presented += 1; done(true) }
            document.handleError(StorageError(.write, path: "/x", code: ENOSPC), userInteractionPermitted: false)
            XCTAssertEqual(presented, 0)
            XCTAssertEqual(document.deferredErrors.count, 1)
            XCTAssertEqual(document.takeDeferredErrors().count, 1)
            XCTAssertTrue(document.deferredErrors.isEmpty)
            document.handleError(StorageError(.write, path: "/x", code: ENOSPC), userInteractionPermitted: true)
            XCTAssertEqual(presented, 1)
        }
    }

    nonisolated func testRecoveredErrorClearsSavingError() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument()
            document.state.insert(.savingError)
            document.finishedHandlingError(StorageError(.write, path: "/x", code: EIO), recovered: true)
            XCTAssertFalse(document.state.contains(.savingError))
        }
    }

    nonisolated func testRevertDisablesEditingMeanwhileAndTakesTheFile() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "on disk")
            document.edit("local")
            var sawDisabled = false
            document.addObserver { document, _ in if document.state.contains(.editingDisabled) { sawDisabled = true } }
            var done = false
            document.revert { done = $0 }
            waitUntil("reverted") { done }
            XCTAssertTrue(sawDisabled)
            XCTAssertEqual(document.text, "on disk")
            XCTAssertEqual(document.state, [])
            XCTAssertEqual(drafts.draft(for: document.fileURL)?.text, "local", "reverted words stay recoverable")
        }
    }
}

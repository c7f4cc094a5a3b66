import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The document life-cycle under stress (issue #12).
@MainActor
final class DocumentLifecycleStressTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    /// Closing saves in the background while the same note opens again at once: every closing
    /// save lands, and the file ends with the last words (38 of 200 failed with ENOENT when
    /// opening cleaned the folder's temporaries).
    nonisolated func testClosingAndReopeningTheSameNoteTwoHundredTimesLosesNoSave() throws {
        try MainActor.assumeIsolated {
            let url = try folder.write("n.md", "Note\n")
            var failedCloses = 0
            var closes = 0
            var errors: [Error] = []
            var document = NoteDocument(fileURL: url, drafts: drafts, history: history, localWrites: localWrites)
            var opened = false
            document.open { opened = $0 }
            waitUntil("opened") { opened }
            for round in 0..<200 {
                document.edit("Note\nround \(round)\n")
                document.errorPresenter = { _, error, done in errors.append(error); done(false) }
                document.close { saved in
                    closes += 1
                    if !saved { failedCloses += 1 }
                }
                document = NoteDocument(fileURL: url, drafts: drafts, history: history, localWrites: localWrites)
                opened = false
                document.open { opened = $0 }
                waitUntil("reopened in round \(round)") { opened }
                XCTAssertEqual(document.text, "Note\nround \(round)\n", "the new document reads what the closing one saved")
            }
            waitUntil("every close finished") { closes == 200 }
            XCTAssertEqual(failedCloses, 0, "failed closing saves: \(errors)")
            XCTAssertEqual(contents(url), "Note\nround 199\n")
            XCTAssertEqual(folder.names.filter { AtomicFileWriter.isTemporary($0) }, [])
        }
    }
}

/// A failed save is retried by itself (issue #12): read-only, then writable again → saved,
/// with no click, and the failure presented once.
@MainActor
final class SaveRetryTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testAFailedSaveLandsByItselfOnceTheDiskCanBeWrittenAgain() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 256)
            let document = try openDocument("n.md", "Plans\n", in: disk.url)
            var presented = 0
            document.errorPresenter = { _, _, done in presented += 1; done(false) }
            try disk.remountReadOnly()
            document.edit("Plans\nbuy stamps\n")
            document.autosave()
            waitUntil("the save failed") { document.state.contains(.savingError) }
            waitUntil("a retry failed too", timeout: 4) { document.failedSaveRetries >= 2 }
            try disk.remountWritable()
            waitUntil("saved by itself", timeout: 10) { !document.state.contains(.savingError) && !document.hasUnsavedChanges }
            XCTAssertEqual(contents(disk.url.appendingPathComponent("n.md")), "Plans\nbuy stamps\n")
            XCTAssertEqual(presented, 1, "one dialog per failure episode, not one per retry")
            XCTAssertNil(document.lastError)
            document.close()
        }
    }

    nonisolated func testRetriesBackOffFromTwoSecondsToAMinute() {
        MainActor.assumeIsolated {
            XCTAssertEqual((1...8).map { NoteDocument.retryDelay(afterFailures: $0) }, [2, 4, 8, 16, 32, 60, 60, 60])
        }
    }
}

/// Typing reaches a recovery draft within about a second, even while it goes on (issue #12):
/// a crash then loses at most that much.
@MainActor
final class DraftJournalTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testTypingIsInADraftWithinASecondWhileItGoesOnAndGoneOnceSaved() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("n.md", "Diary\n")  // autosave effectively off
            var text = "Diary\n"
            var worstLag: TimeInterval = 0
            var typedAt: [String: Date] = [:]
            let start = Date()
            while Date().timeIntervalSince(start) < 3 {
                text += "w"
                typedAt[text] = Date()
                document.edit(text)
                _ = MainQueue.run(until: { false }, timeout: 0.1)
                if let draft = drafts.draft(for: document.fileURL) {
                    // The oldest words typed that the draft does not hold yet were typed this long ago.
                    let missing = typedAt.filter { $0.key.count > draft.text.count }.map(\.value)
                    if let oldestMissing = missing.min() { worstLag = max(worstLag, Date().timeIntervalSince(oldestMissing)) }
                } else if Date().timeIntervalSince(start) > 1.5 {
                    XCTFail("no draft 1.5 s into typing")
                }
            }
            XCTAssertLessThan(worstLag, 1.3, "typed words were only in memory for \(worstLag) s")
            XCTAssertTrue(save(document))
            waitUntil("the draft goes once the file holds the text") { self.drafts.draft(for: document.fileURL) == nil }
        }
    }
}

/// Leaving a note (switching, deleting, closing the window) saves without blocking the main
/// thread, bounded (issue #12).
@MainActor
final class SaveBeforeLeavingTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testAHungWriteNeverBlocksTheMainThreadAndTheWordsGoToADraft() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("n.md", "Plans\n")
            document.edit("Plans\nstamps\n")
            let release = DispatchSemaphore(value: 0)
            document.queue.async { release.wait() }  // the disk hangs
            var answer: Error??
            let asked = Date()
            document.saveBeforeLeaving(timeout: 0.5) { answer = .some($0) }
            XCTAssertLessThan(Date().timeIntervalSince(asked), 0.1, "the call returned at once")
            let ticks = Shared(0)
            let ticker = Timer(timeInterval: 0.05, repeats: true) { _ in ticks.update { $0 += 1 } }
            RunLoop.main.add(ticker, forMode: .default)
            waitUntil("answered after the time-out", timeout: 3) { answer != nil }
            ticker.invalidate()
            XCTAssertGreaterThan(ticks.value, 5, "the main thread kept running while the write hung")
            if case .some(.some(DocumentError.saveTimedOut)) = answer {} else { XCTFail("expected saveTimedOut, got \(String(describing: answer))") }
            waitUntil("the words are in a draft") { self.drafts.draft(for: document.fileURL)?.text == "Plans\nstamps\n" }
            release.signal()
            waitUntil("the late write is taken as saved", timeout: 3) { !document.hasUnsavedChanges }
            XCTAssertEqual(contents(document.fileURL), "Plans\nstamps\n")
        }
    }

    nonisolated func testNothingToSaveAnswersAtOnce() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("n.md", "Plans\n")
            var answer: Error??
            document.saveBeforeLeaving { answer = .some($0) }
            XCTAssertNotNil(answer as Any?)
            XCTAssertNil(answer!)
        }
    }
}

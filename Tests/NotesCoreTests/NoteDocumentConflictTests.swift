import Foundation
import XCTest
@testable import NotesCore

/// Edits from elsewhere merged under unsaved edits; conflict copies attached to the open
/// note; every way out of a conflict keeping every word.
@MainActor
final class NoteDocumentConflictTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    let base = "Trip\npassport\ntickets\n\nday 1: museum\nday 2: beach\n"

    // MARK: Merge

    nonisolated func testEditOnDiskFarFromLocalEditsMergesAndIsSaved() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("trip.md", base)
            var merged = 0
            document.addObserver { _, event in if event == .merged { merged += 1 } }
            document.edit(base.replacingOccurrences(of: "passport", with: "passport, visa"))
            try AtomicFileWriter.write(Data(base.replacingOccurrences(of: "day 2: beach", with: "day 2: hike").utf8), to: document.fileURL)
            waitUntil("merged") { merged == 1 }
            let expected = "Trip\npassport, visa\ntickets\n\nday 1: museum\nday 2: hike\n"
            XCTAssertEqual(document.text, expected)
            XCTAssertFalse(document.state.contains(.inConflict))
            XCTAssertTrue(document.hasUnsavedChanges, "the merged text is not on disk yet")
            XCTAssertTrue(save(document))
            XCTAssertEqual(contents(document.fileURL), expected)
        }
    }

    nonisolated func testOverlappingEditsOnDiskAreAConflictAndSavingWaits() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("trip.md", base)
            document.edit(base.replacingOccurrences(of: "day 1: museum", with: "day 1: old town"))
            try AtomicFileWriter.write(Data(base.replacingOccurrences(of: "day 1: museum", with: "day 1: zoo").utf8), to: document.fileURL)
            waitUntil("conflict") { document.hasDiskConflict }
            XCTAssertFalse(save(document))
            XCTAssertTrue(contents(document.fileURL)!.contains("zoo"))
            XCTAssertTrue(document.text.contains("old town"))
        }
    }

    // MARK: Conflict copies

    nonisolated func testConflictCopiesBesideTheNoteAreItsOtherVersions() throws {
        try MainActor.assumeIsolated {
            _ = try folder.write("Trip.sync-conflict-20261121-101010-ABCDEF7.md", "from the laptop\n")
            _ = try folder.write("Other.sync-conflict-20261121-101010-ABCDEF7.md", "another note's copy\n")
            let document = try openDocument("Trip.md", base)
            waitUntil("copy found") { document.otherVersions.count == 1 }
            XCTAssertTrue(document.state.contains(.inConflict))
            XCTAssertFalse(document.hasDiskConflict, "a copy does not stop saving the note")
            XCTAssertEqual(document.otherVersions.first?.text, "from the laptop\n")
            XCTAssertEqual(document.otherVersions.first?.writtenHere, false)
            // One more arrives while open (Nextcloud's naming), then one goes away.
            let second = try folder.write("Trip (conflicted copy 2026-11-21 101500).md", "from the phone\n")
            waitUntil("second copy found") { document.otherVersions.count == 2 }
            try FileManager.default.removeItem(at: second)
            waitUntil("copy gone") { document.otherVersions.count == 1 }
            document.edit(base + "day 3: home\n")
            XCTAssertTrue(save(document))
        }
    }

    nonisolated func testKeepThisRemovesTheCopyAfterSettingItAside() throws {
        try MainActor.assumeIsolated {
            let copy = try folder.write("Trip.sync-conflict-20261121-101010-ABCDEF7.md", "from the laptop\n")
            let document = try openDocument("Trip.md", base)
            waitUntil("copy found") { document.state.contains(.inConflict) }
            document.edit(base + "unsaved line\n")
            XCTAssertNil(resolve(document, document.otherVersions[0], .keepThis))
            XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path))
            XCTAssertEqual(contents(document.fileURL), base + "unsaved line\n", "this version is saved")
            XCTAssertEqual(document.state, [])
            XCTAssertFalse(document.hasUnsavedChanges)
            XCTAssertEqual(setAsideTexts(of: document.fileURL), ["from the laptop\n"])
        }
    }

    nonisolated func testKeepOtherWritesTheCopysBytesAndSetsThisTextAside() throws {
        try MainActor.assumeIsolated {
            let otherBytes = Data("from the laptop\nwith a stray byte \u{FF}\n".utf8)
            let copy = folder.file("Trip (Ann's conflicted copy 2026-11-21).md")
            try otherBytes.write(to: copy)
            let document = try openDocument("Trip.md", base)
            waitUntil("copy found") { document.state.contains(.inConflict) }
            var replaced = false
            document.addObserver { _, event in if event == .textReplaced { replaced = true } }
            XCTAssertNil(resolve(document, document.otherVersions[0], .keepOther))
            XCTAssertEqual(try Data(contentsOf: document.fileURL), otherBytes)
            XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path))
            XCTAssertTrue(replaced)
            XCTAssertEqual(document.text, "from the laptop\nwith a stray byte \u{FF}\n")
            XCTAssertEqual(setAsideTexts(of: document.fileURL), [base])
        }
    }

    nonisolated func testKeepBothMakesTheCopyANewNote() throws {
        try MainActor.assumeIsolated {
            let copy = try folder.write("Trip.sync-conflict-20261121-101010-ABCDEF7.md", "from the laptop\n")
            let document = try openDocument("Trip.md", base)
            waitUntil("copy found") { document.state.contains(.inConflict) }
            let newNote = folder.file("note-new.md")
            XCTAssertNil(resolve(document, document.otherVersions[0], .keepBoth(newNote: newNote)))
            XCTAssertEqual(contents(newNote), "from the laptop\n")
            XCTAssertEqual(contents(document.fileURL), base)
            XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path))
            XCTAssertEqual(document.state, [])
        }
    }

    nonisolated func testCopyChangedWhileDecidingIsNotRemoved() throws {
        try MainActor.assumeIsolated {
            let copy = try folder.write("Trip.sync-conflict-20261121-101010-ABCDEF7.md", "from the laptop\n")
            let document = try openDocument("Trip.md", base)
            waitUntil("copy found") { document.state.contains(.inConflict) }
            let shown = document.otherVersions[0]
            document.watcherForTesting = nil  // the user decides before the watcher reports
            try Data("from the laptop, edited again\n".utf8).write(to: copy)
            XCTAssertEqual(resolve(document, shown, .keepThis) as? DocumentError, .changedWhileResolving(note: "Trip"))
            XCTAssertEqual(contents(copy), "from the laptop, edited again\n")
            waitUntil("the new copy is shown") { document.otherVersions.first?.text == "from the laptop, edited again\n" }
        }
    }

    // MARK: A change on disk that could not be merged

    nonisolated func testKeepThisOverwritesTheDiskVersionAfterSettingItAside() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "base")
            document.edit("mine")
            try AtomicFileWriter.write(Data("theirs".utf8), to: document.fileURL)
            waitUntil("conflict") { document.hasDiskConflict }
            XCTAssertNil(resolve(document, document.otherVersions[0], .keepThis))
            XCTAssertEqual(contents(document.fileURL), "mine")
            XCTAssertEqual(document.state, [])
            XCTAssertFalse(document.hasUnsavedChanges)
            XCTAssertEqual(setAsideTexts(of: document.fileURL), ["theirs"])
            XCTAssertNil(drafts.draft(for: document.fileURL))
        }
    }

    nonisolated func testAVersionWrittenAfterTheConflictWasShownIsNeverOverwritten() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "base")
            document.edit("mine")
            try AtomicFileWriter.write(Data("theirs".utf8), to: document.fileURL)
            waitUntil("conflict") { document.hasDiskConflict }
            let shown = document.otherVersions[0]
            document.watcherForTesting = nil  // the user decides before the watcher reports
            try AtomicFileWriter.write(Data("theirs, then a third writer".utf8), to: document.fileURL)
            for choice in [NoteDocument.ConflictChoice.keepThis, .keepBoth(newNote: folder.file("b.md"))] {
                XCTAssertEqual(resolve(document, shown, choice) as? DocumentError, .changedWhileResolving(note: "mine"))
                XCTAssertEqual(contents(document.fileURL), "theirs, then a third writer")
            }
            XCTAssertEqual(document.text, "mine", "the typing is kept")
        }
    }

    nonisolated func testKeepOtherTakesTheDiskVersionAndSetsMineAside() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "base")
            document.edit("mine")
            try AtomicFileWriter.write(Data("theirs".utf8), to: document.fileURL)
            waitUntil("conflict") { document.hasDiskConflict }
            XCTAssertNil(resolve(document, document.otherVersions[0], .keepOther))
            XCTAssertEqual(document.text, "theirs")
            XCTAssertEqual(contents(document.fileURL), "theirs")
            XCTAssertFalse(document.hasUnsavedChanges)
            XCTAssertEqual(setAsideTexts(of: document.fileURL), ["mine"])
        }
    }

    nonisolated func testKeepBothPutsTheDiskVersionInANewNoteAndSavesMine() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "base")
            document.edit("mine")
            try AtomicFileWriter.write(Data("theirs".utf8), to: document.fileURL)
            waitUntil("conflict") { document.hasDiskConflict }
            let newNote = folder.file("b.md")
            XCTAssertNil(resolve(document, document.otherVersions[0], .keepBoth(newNote: newNote)))
            XCTAssertEqual(contents(newNote), "theirs")
            XCTAssertEqual(contents(document.fileURL), "mine")
            XCTAssertEqual(document.state, [])
        }
    }

    nonisolated func testWrittenHereTellsThisComputersVersionApart() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("Trip.md", base)
            document.edit(base + "written here\n")
            XCTAssertTrue(save(document))
            // A sync client renames our version aside and puts the other device's in its place.
            let copy = folder.file("Trip.sync-conflict-20261121-101010-ABCDEF7.md")
            try FileManager.default.copyItem(at: document.fileURL, to: copy)
            try AtomicFileWriter.write(Data("from elsewhere\n".utf8), to: document.fileURL)
            waitUntil("reloaded with the copy") { document.text == "from elsewhere\n" && document.otherVersions.count == 1 }
            XCTAssertEqual(document.otherVersions[0].writtenHere, true)
            XCTAssertFalse(document.thisVersionIsLocal)
        }
    }
}

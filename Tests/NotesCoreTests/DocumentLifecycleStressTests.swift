import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The document life-cycle under stress (issue #12).
final class DocumentLifecycleStressTests: DocumentTestCase {
    /// Closing saves in the background while the same note opens again at once: every closing
    /// save lands, and the file ends with the last words (38 of 200 failed with ENOENT when
    /// opening cleaned the folder's temporaries).
    func testClosingAndReopeningTheSameNoteTwoHundredTimesLosesNoSave() throws {
        let url = try folder.write("n.md", "Note\n")
        var failedCloses = 0
        var closes = 0
        var errors: [Error] = []
        var document = NoteDocument(fileURL: url, drafts: drafts, versions: versions, localWrites: localWrites)
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
            document = NoteDocument(fileURL: url, drafts: drafts, versions: versions, localWrites: localWrites)
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

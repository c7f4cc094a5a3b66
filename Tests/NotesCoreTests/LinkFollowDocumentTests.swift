import Foundation
import XCTest
@testable import NotesCore

/// A note open with unsaved edits while another note it links moves: the link is rewritten on
/// disk, and the open document merges that change under the edits; nothing is lost.
@MainActor
final class LinkFollowDocumentTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testAnOpenNoteWithUnsavedEditsMergesTheRewrittenLink() throws {
        try MainActor.assumeIsolated {
            let base = "# Index\nfirst line\n\nsecond line\n\n[plan](Work/plan.md)\n"
            let document = try openDocument("index.md", base)
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Work"), withIntermediateDirectories: true)
            try Data("# Plan\n".utf8).write(to: folder.url.appendingPathComponent("Work/plan.md"))
            var merged = 0
            document.addObserver { _, event in if event == .merged { merged += 1 } }
            document.edit(base.replacingOccurrences(of: "first line", with: "first line, edited"))

            XCTAssertEqual(try Notebooks(library: folder.url).move(note: "Work/plan.md", to: ""), "plan.md")
            XCTAssertEqual(contents(document.fileURL), base.replacingOccurrences(of: "Work/plan.md", with: "plan.md"), "rewritten on disk")
            // The folder watcher's event and a focus-in check may both see it: merged once or twice, the same.
            document.checkDisk()
            waitUntil("merged") { merged >= 1 }
            let expected = "# Index\nfirst line, edited\n\nsecond line\n\n[plan](plan.md)\n"
            XCTAssertEqual(document.text, expected)
            XCTAssertFalse(document.state.contains(.inConflict))
            XCTAssertTrue(save(document))
            XCTAssertEqual(contents(document.fileURL), expected)
        }
    }
}

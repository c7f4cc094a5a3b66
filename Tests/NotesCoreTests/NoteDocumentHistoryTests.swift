import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// When a document keeps versions in its note's history: at open, at most every few minutes
/// of saving, when it is left, and before anything replaces its text (revert, a reload or a
/// merge of changes made elsewhere, a conflict resolution).
@MainActor
final class NoteDocumentHistoryTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func kept(_ document: NoteDocument) throws -> [(HistoryVersion.Origin, String)] {
        history.waitUntilIdle()
        return try history.versions(of: document.fileURL).map { ($0.origin, String(decoding: try history.contents(of: $0), as: UTF8.self)) }
    }

    private func origins(_ document: NoteDocument) throws -> [HistoryVersion.Origin] { try kept(document).map(\.0) }
    private func texts(_ document: NoteDocument) throws -> [String] { try kept(document).map(\.1) }

    nonisolated func testOpenSavesWithinTheIntervalAndLeaving() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "first\n")
            XCTAssertEqual(try origins(document), [.opened])
            document.edit("first\nsecond\n")
            XCTAssertTrue(save(document))
            XCTAssertEqual(try origins(document), [.edited, .opened], "the first save of the writing: kept")
            document.edit("first\nsecond\nthird\n")
            XCTAssertTrue(save(document))
            XCTAssertEqual(try origins(document), [.edited, .opened], "a save minutes after the last one kept while editing: not kept")
            document.edit("first\nsecond\nthird\nfourth\n")
            var left: Error?? = .none
            document.saveBeforeLeaving { left = .some($0) }
            waitUntil("saved before leaving") { left != nil }
            XCTAssertEqual(try texts(document), ["first\nsecond\nthird\nfourth\n", "first\nsecond\n", "first\n"])
            XCTAssertEqual(try origins(document), [.closed, .edited, .opened])
        }
    }

    nonisolated func testSavingAfterTheIntervalKeepsAVersion() throws {
        try MainActor.assumeIsolated {
            history = NoteHistory(folder: history.folder, policy: HistoryPolicy(editingInterval: 0))
            let document = try openDocument("a.md", "first\n")
            for line in ["second", "third"] {
                document.edit(document.text + line + "\n")
                XCTAssertTrue(save(document))
            }
            XCTAssertEqual(try origins(document), [.edited, .edited, .opened])
        }
    }

    nonisolated func testRevertKeepsTheTextItReplaces() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "saved\n")
            document.edit("unsaved words\n")
            var reverted = false
            document.revert { reverted = $0 }
            waitUntil("reverted") { reverted }
            XCTAssertEqual(document.text, "saved\n")
            XCTAssertEqual(try kept(document).first?.0, .beforeRevert)
            XCTAssertEqual(try kept(document).first?.1, "unsaved words\n")
        }
    }

    nonisolated func testAReloadKeepsTheTextItReplaces() throws {
        try MainActor.assumeIsolated {
            let document = try openDocument("a.md", "mine\n")
            var replaced = false
            document.addObserver { _, event in if event == .textReplaced { replaced = true } }
            try AtomicFileWriter.write(Data("from the phone\n".utf8), to: document.fileURL)
            waitUntil("reloaded") { replaced }
            XCTAssertEqual(try texts(document), ["mine\n"], "the text before the reload is in the history (kept at open, not twice)")
            document.close()
            waitUntil("closed") { document.state.contains(.closed) }
            XCTAssertEqual(try texts(document), ["from the phone\n", "mine\n"])
        }
    }

    nonisolated func testAMergeKeepsTheUnsavedTextItChanges() throws {
        try MainActor.assumeIsolated {
            let base = "Trip\npassport\ntickets\n\nday 1: museum\nday 2: beach\n"
            let document = try openDocument("trip.md", base)
            var merged = false
            document.addObserver { _, event in if event == .merged { merged = true } }
            let mine = base.replacingOccurrences(of: "passport", with: "passport, visa")
            document.edit(mine)
            try AtomicFileWriter.write(Data(base.replacingOccurrences(of: "day 2: beach", with: "day 2: hike").utf8), to: document.fileURL)
            waitUntil("merged") { merged }
            XCTAssertEqual(try kept(document).first?.0, .beforeMerge)
            XCTAssertEqual(try kept(document).first?.1, mine)
        }
    }

    nonisolated func testAConflictResolutionKeepsTheSideNotChosenMarkedAsSuch() throws {
        try MainActor.assumeIsolated {
            let base = "Trip\nday 1: museum\n"
            let document = try openDocument("trip.md", base)
            document.edit("Trip\nday 1: old town\n")
            try AtomicFileWriter.write(Data("Trip\nday 1: zoo\n".utf8), to: document.fileURL)
            waitUntil("in conflict") { document.hasDiskConflict }
            XCTAssertNil(resolve(document, try XCTUnwrap(document.otherVersions.first), .keepThis))
            XCTAssertEqual(try kept(document).first?.0, .otherVersion)
            XCTAssertEqual(try kept(document).first?.1, "Trip\nday 1: zoo\n")
        }
    }
}

import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Documents on real files in a temporary folder, with their own drafts and note history.
@MainActor
class DocumentTestCase: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    var folder: TemporaryFolder!
    var drafts: RecoveryDrafts!
    var history: NoteHistory!
    private var historyFolder: TemporaryFolder!
    var localWrites: LocalWrites!

    nonisolated override func setUp() {
        MainActor.assumeIsolated {
            folder = TemporaryFolder()
            drafts = RecoveryDrafts(folder: folder.url.appendingPathComponent(".drafts-for-test"))
            historyFolder = TemporaryFolder()  // beside the note's folder, not in it: tests list that folder
            history = NoteHistory(folder: historyFolder.url)
            localWrites = LocalWrites()
        }
    }

    /// A document opened on `name` with `text`, autosave effectively off unless asked.
    func openDocument(_ name: String = "a.md", _ text: String = "", autosave: TimeInterval = 3600,
                      in directory: URL? = nil) throws -> NoteDocument {
        let url = (directory ?? folder.url).appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: url.path) { try Data(text.utf8).write(to: url) }
        let document = NoteDocument(fileURL: url, drafts: drafts, history: history, localWrites: localWrites,
                                    autosaveDelay: autosave, autosaveMaximumDelay: autosave * 5)
        let opened = expectation(description: "opened")
        document.open { ok in XCTAssertTrue(ok); opened.fulfill() }
        wait(for: [opened], timeout: 5)
        return document
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 5, _ condition: () -> Bool) {
        XCTAssertTrue(MainQueue.run(until: condition, timeout: timeout), what)
    }

    func save(_ document: NoteDocument) -> Bool {
        var result: Bool?
        document.save { result = $0 }
        waitUntil("save finished") { result != nil }
        return result ?? false
    }

    /// Resolves and waits; returns the error, if any.
    @discardableResult
    func resolve(_ document: NoteDocument, _ version: ConflictingVersion, _ choice: NoteDocument.ConflictChoice) -> Error? {
        var result: Result<Void, Error>?
        document.resolveConflict(with: version, choosing: choice) { result = $0 }
        waitUntil("resolved") { result != nil }
        if case .failure(let error) = result { return error }
        return nil
    }

    func contents(_ url: URL) -> String? { try? String(contentsOf: url, encoding: .utf8) }

    /// The texts conflict resolution set aside in the note's history, newest first.
    func setAsideTexts(of url: URL) -> [String] {
        history.waitUntilIdle()
        let versions = (try? history.versions(of: url)) ?? []
        return versions.filter { $0.origin.isSetAside }.compactMap { try? String(decoding: history.contents(of: $0), as: UTF8.self) }
    }
}

import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The live library after a move of all notes, as the app drives it (issue #29): the index is
/// carried over on the indexing queue before the destination's opens, so the switch lists every
/// note at once from it and the reconcile reports nothing; the old folder's index goes.
@MainActor
final class LiveLibraryCarryTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testSwitchAfterAMoveListsEveryNoteFromTheCarriedIndex() throws {
        try MainActor.assumeIsolated { try switchAfterAMove() }
    }

    private func switchAfterAMove() throws {
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync/Notes"), cache = root.file("cache")
        var notes: Set<String> = []
        for index in 0..<300 {
            let id = index % 3 == 0 ? "Work/note \(index).md" : "note \(index).md"
            let url = source.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("Note \(index)\nword\(index) and the rest\n".utf8).write(to: url)
            notes.insert(id)
        }
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 2.1)  // files trusted only once changed over 2 s ago (`Identity.settled`)
        var events: [LiveLibrary.Event] = []
        var reconciled = 0, indexed = 0
        let live = LiveLibrary(folder: source, createsFolder: false, indexFolder: cache)
        live.onEvent = { event in
            events.append(event)
            if case .reconciled = event { reconciled += 1 }
            if case .indexed = event { indexed += 1 }  // every text is in (after the rows)
        }
        live.open()
        XCTAssertTrue(MainQueue.run(until: { reconciled == 1 && indexed == 1 }, timeout: 30))
        live.stopWatching()

        let mover = LibraryMover(source: source, destination: destination, stateFolder: root.file("state"))
        let carry = IndexCarryOver(source: source, destination: destination, cacheFolder: cache)
        let moved = try mover.run(try mover.preflight())
        events = []
        live.beforeNextSwitch { carry.finish(moved) }
        live.switchTo(destination, createsFolder: false)
        XCTAssertTrue(MainQueue.run(until: { reconciled == 2 && indexed == 2 }, timeout: 30))
        guard case .listed(let listed) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(Set(listed.map(\.id)), notes, "every note listed at once, from the carried index")
        let changes = events.compactMap { event -> LibraryIndex.Changes? in if case .changed(let changes) = event { return changes } else { return nil } }
        XCTAssertEqual(changes.flatMap(\.upserted).count + changes.flatMap(\.removed).count, 0, "the reconcile read nothing")
        XCTAssertEqual(try live.index?.matches("word124"), ["note 124.md"])

        let oldIndex = LibraryIndex.cacheURL(for: source, in: cache).path
        XCTAssertTrue(FileManager.default.fileExists(atPath: oldIndex))
        live.removeIndex(ofFolderLeft: source)
        XCTAssertTrue(MainQueue.run(until: { !FileManager.default.fileExists(atPath: oldIndex) }, timeout: 10), "the old folder's index goes")
        live.close()
    }
}

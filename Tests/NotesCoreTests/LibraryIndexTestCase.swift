import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A library folder and a cache folder for tests of `LibraryIndex`, with what the disk holds.
/// Tests of what the index holds and finds run twice (`onDiskAndInMemory`): with the cache
/// file, and in memory as when the cache folder cannot be written.
class LibraryIndexTestCase: XCTestCase {
    var root: TemporaryFolder!
    var library: NoteLibrary!
    var cache: URL { root.file("cache") }
    /// Whether `makeIndex` makes an index in memory (no cache folder).
    var inMemory = false

    /// The index this run of the test is about: on disk, or in memory.
    func makeIndex() throws -> LibraryIndex {
        try LibraryIndex(library: library, cacheFolder: inMemory ? nil : cache)
    }

    /// Runs `body` with an index on disk, then again, on a new library, in memory.
    func onDiskAndInMemory(_ body: () throws -> Void) rethrows {
        for memory in [false, true] {
            setUp()
            inMemory = memory
            print("  (index \(memory ? "in memory" : "on disk"))")
            try body()
        }
        inMemory = false
    }

    override func setUp() {
        root = TemporaryFolder()
        library = NoteLibrary(folder: root.file("Notes"))
        try? FileManager.default.createDirectory(at: library.folder, withIntermediateDirectories: true)
    }

    func write(_ id: String, _ text: String) {
        let url = library.folder.appendingPathComponent(id)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
    }

    func reconciled(_ index: LibraryIndex) throws -> LibraryIndex.Changes {
        var all = LibraryIndex.Changes()
        _ = try index.reconcile { batch in
            all.upserted += batch.upserted
            all.removed += batch.removed
            if let every = batch.everyNote { all.everyNote = every }
        }
        // The texts after the rows, as the live library indexes them.
        if let every = index.indexAllWaitingTexts().everyNote { all.everyNote = every }
        return all
    }

    /// What the list would show from the disk, keyed by id (the scan the app used before).
    func onDisk() throws -> [String: NoteSummary] {
        Dictionary(uniqueKeysWithValues: try library.scan().map { ($0.id, $0) })
    }

    func assertIndexEqualsDisk(_ index: LibraryIndex, file: StaticString = #filePath, line: UInt = #line) throws {
        let indexed = Dictionary(uniqueKeysWithValues: index.summaries().map { ($0.id, $0) })
        let disk = try onDisk()
        XCTAssertEqual(Set(indexed.keys), Set(disk.keys), file: file, line: line)
        for (id, note) in disk {
            XCTAssertEqual(indexed[id], note, id, file: file, line: line)
        }
    }
}

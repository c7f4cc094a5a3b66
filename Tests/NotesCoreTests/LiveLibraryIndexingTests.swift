import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A first start on a real folder (issue #29): rows listed first, then the texts with their
/// progress, and a note another program drops meanwhile listed at once — not when the
/// reconcile ends.
@MainActor
final class LiveLibraryIndexingTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var root: TemporaryFolder!
    private var events: [(at: Date, event: LiveLibrary.Event)] = []

    nonisolated override func setUp() {
        MainActor.assumeIsolated {
            root = TemporaryFolder()
            events = []
        }
    }

    /// A folder of `count` notes, made with plain writes (fast enough for 30,000).
    private func folder(count: Int, text: (Int) -> String) throws -> URL {
        let folder = root.file("Notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 0..<count {
            let descriptor = open(folder.appendingPathComponent("n\(number).md").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let bytes = Array(text(number).utf8)
            XCTAssertEqual(write(descriptor, bytes, bytes.count), bytes.count)
            close(descriptor)
        }
        return folder
    }

    private func makeLive(_ folder: URL) -> LiveLibrary {
        let live = LiveLibrary(folder: folder, indexFolder: root.file("cache"))
        live.onEvent = { [weak self] event in self?.events.append((Date(), event)) }
        return live
    }

    private func spin(until condition: () -> Bool, timeout: TimeInterval = 60) -> Bool {
        MainQueue.run(until: condition, timeout: timeout)
    }

    /// What the window would list after the events so far.
    private var listed: Set<String> {
        var ids = Set<String>()
        for (_, event) in events {
            switch event {
            case .listed(let notes): ids = Set(notes.map(\.id))
            case .changed(let changes):
                ids.subtract(changes.removed)
                ids.formUnion(changes.upserted.map(\.id))
            default: break
            }
        }
        return ids
    }

    private var reconciledAt: Date? {
        events.first { if case .reconciled = $0.event { return true } else { return false } }?.at
    }

    private var indexedAt: Date? {
        events.first { if case .indexed = $0.event { return true } else { return false } }?.at
    }

    /// A note dropped into the folder during the reconcile of a first start of 30,000 notes
    /// (each also linked into three notebooks, so the reconcile runs for seconds: 120,000
    /// names) reaches the list while the reconcile still runs — before issue #29 its refresh
    /// waited behind the reconcile.
    nonisolated func testANoteDroppedDuringTheReconcileIsListedBeforeItEnds() throws {
        try MainActor.assumeIsolated {
            let notes = try folder(count: 30000) { "Note \($0)\nsome words of note \($0)\n" }
            for book in 1...3 {
                let folder = notes.appendingPathComponent("Book \(book)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for number in 0..<30000 {
                    XCTAssertEqual(link(notes.appendingPathComponent("n\(number).md").path, folder.appendingPathComponent("n\(number).md").path), 0)
                }
            }
            let live = makeLive(notes)
            live.open()
            // The first batch of rows: the reconcile is under way.
            XCTAssertTrue(spin(until: { self.events.contains { if case .changed = $0.event { return true } else { return false } } }))
            XCTAssertTrue(live.isWatching, "watched from the listing on")
            XCTAssertNil(reconciledAt, "the reconcile of 120,000 names is under way")
            let dropped = Date()
            try Data("Dropped\nby a sync client".utf8).write(to: notes.appendingPathComponent("dropped.md"))
            XCTAssertTrue(spin(until: { self.listed.contains("dropped.md") || self.reconciledAt != nil }))
            let listedAt = Date()
            XCTAssertTrue(listed.contains("dropped.md"), "listed before the reconcile ended, not after it")
            XCTAssertNil(reconciledAt, "the reconcile was still running")
            XCTAssertLessThan(listedAt.timeIntervalSince(dropped), 1.5, "listed within about a second")
            print("LiveLibraryIndexingTests: dropped note listed after \(String(format: "%.3f", listedAt.timeIntervalSince(dropped))) s")
            XCTAssertTrue(spin(until: { self.reconciledAt != nil }))
            print("LiveLibraryIndexingTests: the reconcile ended \(String(format: "%.3f", reconciledAt!.timeIntervalSince(dropped))) s after the drop")
            XCTAssertEqual(listed.count, 120001)
            live.close()
        }
    }

    /// A first start: every row listed (the reconcile ends) before the texts are all in; the
    /// progress goes up to every note; then search finds each note by a word past its first 4 KB.
    nonisolated func testAFirstStartListsRowsThenIndexesTextsSayingHowFar() throws {
        try MainActor.assumeIsolated {
            let count = 6000
            let filler = String(repeating: "filler words ", count: 350)
            let notes = try folder(count: count) { "Note \($0)\nwords\n\(filler)\nuniq\($0)q\n" }
            let live = makeLive(notes)
            live.open()
            XCTAssertTrue(spin(until: { self.indexedAt != nil }, timeout: 120))
            guard let reconciledAt, let indexedAt else { return XCTFail("\(events.map(\.event))") }
            XCTAssertLessThanOrEqual(reconciledAt, indexedAt, "rows before texts")
            let progress = events.compactMap { if case .indexing(let progress) = $0.event { return progress } else { return nil } }
            XCTAssertFalse(progress.isEmpty, "the window hears how far indexing got")
            XCTAssertTrue(progress.allSatisfy { $0.total == count && $0.indexed < count }, "\(progress)")
            XCTAssertEqual(progress.map(\.indexed), progress.map(\.indexed).sorted(), "progress only grows")
            XCTAssertTrue(events.allSatisfy { event in
                if case .indexing = event.event { return event.at >= reconciledAt } else { return true }
            }, "texts after the list is complete")
            guard case .indexed(let last) = events.last(where: { if case .indexed = $0.event { return true } else { return false } })?.event else {
                return XCTFail()
            }
            XCTAssertEqual(last, LibraryIndex.TextProgress(indexed: count, total: count))
            XCTAssertEqual(listed.count, count)
            let index = try XCTUnwrap(live.index)
            for number in [0, 1234, count - 1] { XCTAssertEqual(try index.matches("uniq\(number)q"), ["n\(number).md"]) }
            live.close()
        }
    }
}

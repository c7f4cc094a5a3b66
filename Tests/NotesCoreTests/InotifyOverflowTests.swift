import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// When the kernel's inotify queue overflows, events are lost for every watch: the library is
/// read again and the open note looks at its file again, once per burst (issue #28, defect 10).
/// Needs root to shrink `fs.inotify.max_queued_events` for a moment (as in CI).
@MainActor
final class InotifyOverflowTests: DocumentTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private let limitFile = "/proc/sys/fs/inotify/max_queued_events"

    nonisolated func testChangesLostInAnOverflowAreSeenByOneRescanPerBurst() throws {
        try MainActor.assumeIsolated {
            guard getuid() == 0, let original = try? String(contentsOfFile: limitFile, encoding: .utf8),
                  FileManager.default.isWritableFile(atPath: limitFile) else {
                throw cannotRun("needs root to lower max_queued_events")
            }
            let library = folder.url
            try FileManager.default.createDirectory(at: library.appendingPathComponent("Book"), withIntermediateDirectories: false)
            // A new inotify instance reads the limit when it starts: a queue of 8 events.
            let hub = InotifyHub()
            hub.overflowSettle = 1  // the three chunks below are one burst
            let previous = InotifyHub.replaceShared(with: hub)
            defer { _ = InotifyHub.replaceShared(with: previous) }
            try "8\n".write(toFile: limitFile, atomically: false, encoding: .utf8)
            defer { try? original.write(toFile: limitFile, atomically: false, encoding: .utf8) }

            // The owner's view of the library: what the events said, or the listing of a rescan.
            var known = Set<String>(), rescans = 0, knownFromEventsOnly = Set<String>(), deliveries = 0
            let watcher = LibraryWatcher(library: library) { changes in
                deliveries += 1
                for change in changes where !change.name.isEmpty && !change.name.hasPrefix(".") {
                    switch change.kind {
                    case .created, .movedIn, .written: known.insert(change.name)
                    case .removed, .movedOut: known.remove(change.name)
                    default: break
                    }
                }
            }
            watcher.onRescan = {
                rescans += 1
                if rescans == 1 { knownFromEventsOnly = known }
                known = Set(self.notes(in: library))
            }
            watcher.watch(notebooks: ["Book"])
            let document = try openDocument("open.md", "before the burst")
            try original.write(toFile: limitFile, atomically: false, encoding: .utf8)  // this instance keeps its 8
            XCTAssertTrue(document.watcherForTesting?.isActive == true, "the open note is watched by the small queue")
            var replaced = false
            document.addObserver { _, event in if event == .textReplaced { replaced = true } }
            var overflows = 0
            let folderWatcher = try FolderWatcher(folder: library) { changes in overflows += changes.filter { $0.kind == .overflowed }.count }

            // Three chunks of changes, each while the hub's reader is held: each overflows the queue.
            for chunk in 0..<3 {
                let delivered = deliveries
                hub.queue.sync {
                    for index in 0..<60 {
                        let name = index % 2 == 0 ? "n\(chunk)-\(index).md" : "Book/n\(chunk)-\(index).md"
                        try? Data("note \(index)\n".utf8).write(to: library.appendingPathComponent(name))
                    }
                    if chunk == 1 {  // another program changes the open note in the middle of the burst
                        _ = try? AtomicFileWriter.write(Data("changed during the overflow".utf8), to: document.fileURL)
                    }
                }
                // The reader emptied the queue (and read its overflow) before the next chunk.
                XCTAssertTrue(MainQueue.run(until: { deliveries > delivered }, timeout: 5), "the reader delivered what the queue held")
            }
            waitUntil("the library was read again after the overflow") { rescans >= 1 }
            waitUntil("the open note looked at its file again") { replaced }
            XCTAssertEqual(document.text, "changed during the overflow")
            XCTAssertNotEqual(knownFromEventsOnly, Set(notes(in: library)), "events were lost (the queue did overflow)")
            XCTAssertEqual(known, Set(notes(in: library)), "the rescan saw every change")
            XCTAssertEqual(known.count, 3 * 60 + 1)
            // Nothing more comes for this burst.
            XCTAssertFalse(MainQueue.run(until: { rescans > 1 || overflows > 1 }, timeout: 1.5), "one rescan per burst, not per event")
            XCTAssertEqual(overflows, 1)
            withExtendedLifetime(folderWatcher) {}
            withExtendedLifetime(watcher) {}
            document.close()
        }
    }

    /// Every note path in the library (top folder and notebooks), as the watcher names them.
    private func notes(in library: URL) -> [String] {
        var found: [String] = []
        for folder in ["", "Book"] {
            let url = folder.isEmpty ? library : library.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where name.hasSuffix(".md") {
                found.append(folder.isEmpty ? name : "\(folder)/\(name)")
            }
        }
        return found
    }
}

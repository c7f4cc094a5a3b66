import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The live library's named transitions on real folders: open lists from the index, then
/// reconciles and watches; a switch keeps the old list until the new listing and drops
/// whatever the old folder's work hands back later; a folder that goes away is said
/// unavailable, and comes back; close stops a reconcile under way and leaves no WAL.
@MainActor
final class LiveLibraryTransitionsTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var root: TemporaryFolder!
    private var events: [LiveLibrary.Event] = []

    nonisolated override func setUp() {
        MainActor.assumeIsolated {
            root = TemporaryFolder()
            events = []
        }
    }

    private func folder(_ name: String, notes: [String: String]) throws -> URL {
        let folder = root.file(name)
        for (id, text) in notes {
            let url = folder.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func makeLive(_ folder: URL, createsFolder: Bool = true) -> LiveLibrary {
        let live = LiveLibrary(folder: folder, createsFolder: createsFolder, indexFolder: root.file("cache"))
        live.onEvent = { [weak self] event in self?.events.append(event) }
        return live
    }

    private func spin(until condition: () -> Bool, timeout: TimeInterval = 10) -> Bool {
        MainQueue.run(until: condition, timeout: timeout)
    }

    /// What the window would list after the events so far.
    private var listed: Set<String> {
        var ids = Set<String>()
        for event in events {
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

    nonisolated func testOpenListsThenReconcilesWatchesAndSeesOtherProgramsChanges() throws {
        try MainActor.assumeIsolated {
            let notes = try folder("Notes", notes: ["a.md": "Alpha", "Book/b.md": "Beta"])
            let live = makeLive(notes)
            var result: Result<[String], Error>?
            live.open { result = $0 }
            XCTAssertTrue(spin(until: { result != nil }))
            XCTAssertEqual(try result?.get(), ["Book"])
            guard case .listed = events.first else { return XCTFail("the index's listing comes first: \(events)") }
            XCTAssertEqual(listed, ["a.md", "Book/b.md"])
            XCTAssertTrue(events.contains { if case .reconciled = $0 { return true } else { return false } })
            XCTAssertTrue(live.isWatching)
            XCTAssertNotNil(live.index)
            try Data("Gamma".utf8).write(to: notes.appendingPathComponent("Book/c.md"))
            unlink(notes.appendingPathComponent("a.md").path)
            XCTAssertTrue(spin(until: { self.listed == ["Book/b.md", "Book/c.md"] }), "\(listed)")
            live.close()
        }
    }

    /// Another folder (a move of all notes): nothing of the first folder's reconcile — stopped
    /// half-way — reaches the window after the switch, and its `then` is never called.
    nonisolated func testASwitchDropsTheOldFoldersWorkAndKeepsTheListUntilTheNewListing() throws {
        try MainActor.assumeIsolated {
            var many: [String: String] = [:]
            // Enough that the rows alone take longer than the first batch (texts come after).
            for number in 0..<30000 { many["old\(number).md"] = "Old \(number)\n" + String(repeating: "text ", count: 20) }
            let old = try folder("Old", notes: many)
            let new = try folder("New", notes: ["n1.md": "New one", "n2.md": "New two"])
            let live = makeLive(old)
            var oldResult: Result<[String], Error>?
            var newResult: Result<[String], Error>?
            live.open { oldResult = $0 }
            XCTAssertTrue(spin(until: { !self.listed.isEmpty }), "the old folder's first batch arrived")
            let countBeforeSwitch = events.count
            live.switchTo(new, createsFolder: true) { newResult = $0 }
            XCTAssertEqual(events.count, countBeforeSwitch, "the old list stays until the new listing")
            XCTAssertTrue(spin(until: { newResult != nil }))
            XCTAssertTrue(spin(until: { false }, timeout: 0.5) == false)  // let anything late arrive
            XCTAssertNil(oldResult, "the old folder's start never completes")
            XCTAssertEqual(listed, ["n1.md", "n2.md"])
            let afterSwitch = events[countBeforeSwitch...]
            for event in afterSwitch {
                if case .changed(let changes) = event {
                    XCTAssertTrue(changes.upserted.allSatisfy { $0.id.hasPrefix("n") }, "only the new folder's notes")
                }
            }
            XCTAssertEqual(live.library.folder, new)
            live.close()
        }
    }

    /// A synced folder unplugged while listed: said unavailable (nothing "deleted"); back, it
    /// is listed again.
    nonisolated func testAFolderThatGoesAwayIsUnavailableAndListedWhenBack() throws {
        try MainActor.assumeIsolated {
            let synced = try folder("Synced", notes: ["a.md": "Alpha"])
            let live = makeLive(synced, createsFolder: false)
            var started = false
            live.open { _ in started = true }
            XCTAssertTrue(spin(until: { started }))
            let away = root.file("Elsewhere")
            XCTAssertEqual(rename(synced.path, away.path), 0)
            XCTAssertTrue(spin(until: { self.events.contains { if case .unavailable = $0 { return true } else { return false } } }))
            XCTAssertFalse(FileManager.default.fileExists(atPath: synced.path), "a synced folder is never made again")
            XCTAssertEqual(listed, ["a.md"], "not “every note deleted”")
            XCTAssertEqual(rename(away.path, synced.path), 0)
            events = []
            live.reopen()
            XCTAssertTrue(spin(until: { self.listed == ["a.md"] && self.events.contains { if case .reconciled = $0 { return true } else { return false } } }))
            live.close()
        }
    }

    /// Quitting during a first indexing: close returns within its bound, the reconcile stops,
    /// and the index's WAL is folded back and gone.
    nonisolated func testCloseStopsAReconcileUnderWayAndLeavesNoWAL() throws {
        try MainActor.assumeIsolated {
            var many: [String: String] = [:]
            for number in 0..<4000 { many["n\(number).md"] = "Note \(number)\n" + String(repeating: "words ", count: 300) }
            let notes = try folder("Notes", notes: many)
            let live = makeLive(notes)
            var result: Result<[String], Error>?
            live.open { result = $0 }
            XCTAssertTrue(spin(until: { !self.listed.isEmpty }))
            let started = Date()
            live.close()
            XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
            XCTAssertTrue(spin(until: { false }, timeout: 0.3) == false)
            XCTAssertNil(result, "nothing is delivered after close")
            let cache = try FileManager.default.contentsOfDirectory(atPath: root.file("cache").path)
            XCTAssertTrue(cache.contains { $0.hasSuffix(".sqlite") })
            XCTAssertFalse(cache.contains { $0.hasSuffix("-wal") }, "\(cache)")
            live.refresh(["n1.md"])  // a late event after quitting does nothing
        }
    }

    /// Issue #29: the open note's own saves are indexed when it is left or once the user stops
    /// typing, not at every autosave; another note's change is listed at once meanwhile, and
    /// the edited note deleted elsewhere goes at once.
    nonisolated func testTheEditedNotesSavesWaitForAPauseOrForItToBeLeft() throws {
        try MainActor.assumeIsolated {
            let notes = try folder("Notes", notes: ["a.md": "Alpha", "b.md": "Beta"])
            let live = makeLive(notes)
            live.editPause = 60
            var result: Result<[String], Error>?
            live.open { result = $0 }
            XCTAssertTrue(spin(until: { result != nil }))
            @MainActor func title(_ id: String) -> String? {
                var title: String?
                for case .changed(let changes) in self.events { title = changes.upserted.last { $0.id == id }?.title ?? title }
                return title
            }
            live.editedNote = "a.md"
            live.noteTyped()  // typing on: the saves wait
            _ = try AtomicFileWriter.write(Data("Alpha typed".utf8), to: notes.appendingPathComponent("a.md"))
            _ = try AtomicFileWriter.write(Data("Beta changed".utf8), to: notes.appendingPathComponent("b.md"))
            // The watcher reports a.md's save no later than b.md's: held back, it is not listed with it.
            XCTAssertTrue(spin(until: { title("b.md") == "Beta changed" }), "\(events)")
            XCTAssertNotEqual(title("a.md"), "Alpha typed", "the edited note's save waits")
            live.editedNote = "b.md"  // a.md is left: indexed now, not after the 60 s pause
            XCTAssertTrue(spin(until: { title("a.md") == "Alpha typed" }), "\(events)")
            live.editPause = 0.3
            live.noteTyped()
            _ = try AtomicFileWriter.write(Data("Beta again".utf8), to: notes.appendingPathComponent("b.md"))
            XCTAssertTrue(spin(until: { title("b.md") == "Beta again" }), "indexed once typing paused")
            live.editPause = 60
            unlink(notes.appendingPathComponent("b.md").path)
            XCTAssertTrue(spin(until: { self.listed == ["a.md"] }), "deleted elsewhere: gone at once (\(listed))")
            live.close()
        }
    }

    /// Issue #42 (a note restored at start was never listed, once in a soak): the start reads
    /// the folder after waiting at most 1 s for the main thread to watch it. A main thread held
    /// longer (a busy core at start) left a note written after the read and before the watch
    /// unheard by both, for good. Now the folder is read again once it is watched.
    nonisolated func testANoteWrittenWhileTheStartWaitedForTheMainThreadIsListed() throws {
        try MainActor.assumeIsolated {
            let notes = try folder("Notes", notes: ["a.md": "Alpha"])
            let live = makeLive(notes)
            var result: Result<[String], Error>?
            live.open { result = $0 }
            // Queued behind the start on its queue: written once the start has read the folder,
            // while the main thread (held below) has not watched it yet.
            let late = notes.appendingPathComponent("late.md")
            live.indexing.async { try? Data("Written late".utf8).write(to: late) }
            Thread.sleep(forTimeInterval: 2)  // the start gives up waiting after 1 s
            XCTAssertTrue(spin(until: { result != nil }))
            XCTAssertTrue(spin(until: { self.listed == ["a.md", "late.md"] }), "\(listed)")
            live.close()
        }
    }
}

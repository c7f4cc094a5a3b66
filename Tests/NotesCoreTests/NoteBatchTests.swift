import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Issue #47: actions on many notes at once, on real files: each note goes through the same
/// safe path as one note's action, what cannot be done is named with why and loses nothing,
/// and one undo puts every note back byte-exact.
final class NoteBatchTests: XCTestCase {
    private var root: TemporaryFolder!
    private var library: URL { root.file("Notes") }
    private var batch: NoteBatch { NoteBatch(library: library) }

    override func setUp() {
        root = TemporaryFolder()
        try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    }

    @discardableResult
    private func write(_ id: String, _ text: String) throws -> URL {
        let url = library.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func read(_ id: String) -> String? {
        (try? Data(contentsOf: library.appendingPathComponent(id))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file of the library (the Trash too) and its bytes.
    private func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard !FileSystem.isFolder(url.path) else { continue }
            files[String(url.path.dropFirst(library.path.count + 1))] = try? Data(contentsOf: url)
        }
        return files
    }

    func testMoveIntoANotebookKeepsANoteOfTheSameNameAndFollowsLinksThenUndoPutsAllBack() throws {
        try write("a.md", "Alpha\nsee [[Beta]] and [c](c.md)\n")
        try write("b.md", "Beta\n")
        try write("c.md", "Gamma\n")
        try write("Work/b.md", "Another Beta, already there\n")
        try write("links.md", "Links\n[to a](a.md) [to c](c.md)\n")
        let before = snapshot()
        let outcome = batch.apply(batch.plan(.move(toNotebook: "Work"), ids: ["a.md", "b.md", "c.md"]))
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(outcome.moves, ["a.md": "Work/a.md", "b.md": "Work/b 2.md", "c.md": "Work/c.md"])
        XCTAssertEqual(read("Work/b.md"), "Another Beta, already there\n", "the note already there keeps its name")
        XCTAssertEqual(read("Work/b 2.md"), "Beta\n")
        XCTAssertEqual(read("links.md"), "Links\n[to a](Work/a.md) [to c](Work/c.md)\n", "links follow, once for the batch")
        XCTAssertEqual(Set(outcome.changedIDs), ["a.md", "b.md", "c.md", "Work/a.md", "Work/b 2.md", "Work/c.md"])

        let undone = batch.undo(outcome)
        XCTAssertEqual(undone.failures, [])
        XCTAssertEqual(snapshot(), before, "one undo puts every note back, byte-exact")
    }

    /// Past `LinkRetarget.mostNamesLookedFor` names, notes are read closer when they hold any
    /// link (names × notes would not scale to a selection of 100,000): links still follow.
    func testLinksFollowAMoveOfManyNotes() throws {
        let count = LinkRetarget.mostNamesLookedFor + 8
        for n in 1...count { try write("n\(n).md", "Note \(n)\n") }
        try write("index.md", "Index\n[first](n1.md) and [last](<n\(count).md>)\nno link here\n")
        try write("plain.md", "Plain\nnothing to follow\n")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Moved"), withIntermediateDirectories: true)
        let ids = (1...count).map { "n\($0).md" }
        let outcome = batch.apply(batch.plan(.move(toNotebook: "Moved"), ids: ids))
        XCTAssertEqual(outcome.done.count, count)
        XCTAssertEqual(read("index.md"), "Index\n[first](Moved/n1.md) and [last](<Moved/n\(count).md>)\nno link here\n")
        XCTAssertEqual(read("plain.md"), "Plain\nnothing to follow\n")
        _ = batch.undo(outcome)
        XCTAssertEqual(read("index.md"), "Index\n[first](n1.md) and [last](<n\(count).md>)\nno link here\n")
    }

    func testTagsAreAddedAtTheEndKeepingLineBreaksAndRemovedThenUndone() throws {
        try write("plain.md", "Plain\ntext")
        try write("crlf.md", "Windows\r\nnote\r\n")
        try write("tagged.md", "Tagged\n#trip\n")
        try write("tags-line.md", "Line\n#family #summer\n")
        let before = snapshot()
        let ids = ["plain.md", "crlf.md", "tagged.md", "tags-line.md"]
        let added = batch.apply(batch.plan(.addTag("trip"), ids: ids))
        XCTAssertEqual(added.failures, [])
        XCTAssertEqual(added.unchanged, ["tagged.md"], "a note with the tag already is left as it is")
        XCTAssertEqual(read("plain.md"), "Plain\ntext\n#trip")
        XCTAssertEqual(read("crlf.md"), "Windows\r\nnote\r\n#trip\r\n", "CRLF kept")
        XCTAssertEqual(read("tags-line.md"), "Line\n#family #summer #trip\n")
        XCTAssertEqual(read("tagged.md"), "Tagged\n#trip\n")

        let removed = batch.apply(batch.plan(.removeTag("TRIP"), ids: ids))
        XCTAssertEqual(removed.failures, [])
        XCTAssertEqual(read("plain.md"), "Plain\ntext")
        XCTAssertEqual(read("crlf.md"), "Windows\r\nnote\r\n")
        XCTAssertEqual(read("tags-line.md"), "Line\n#family #summer\n")
        XCTAssertEqual(read("tagged.md"), "Tagged\n")

        XCTAssertEqual(batch.undo(removed).failures, [])
        XCTAssertEqual(batch.undo(added).failures, [])
        XCTAssertEqual(snapshot(), before)
    }

    /// Another program writes a note between the plan and the writing: its version stays,
    /// untouched, and the note is named; an undo leaves a note changed after the action alone.
    func testANoteChangedByAnotherProgramAfterThePlanIsLeftAloneAndReported() throws {
        try write("a.md", "Alpha\n")
        try write("b.md", "Beta\n")
        let plan = batch.plan(.addTag("trip"), ids: ["a.md", "b.md"])
        Thread.sleep(forTimeInterval: 0.01)
        try write("b.md", "Beta, as the phone wrote it\n")
        let outcome = batch.apply(plan)
        XCTAssertEqual(read("a.md"), "Alpha\n#trip\n")
        XCTAssertEqual(read("b.md"), "Beta, as the phone wrote it\n")
        XCTAssertEqual(outcome.failures.map(\.id), ["b.md"])
        XCTAssertEqual(outcome.failures.first?.reason, NoteBatch.changedSince)

        try write("a.md", "Alpha\n#trip\nand more typed elsewhere\n")
        let undone = batch.undo(outcome)
        XCTAssertEqual(undone.failures.map(\.id), ["a.md"])
        XCTAssertEqual(read("a.md"), "Alpha\n#trip\nand more typed elsewhere\n", "the later change is kept")
    }

    func testTrashingManyThenUndoRestoresEveryNoteWhereItWas() throws {
        try write("a.md", "Alpha\n")
        try write("Work/b.md", "Beta\n")
        try write("c.md", "Gamma\n")
        let before = snapshot()
        let outcome = batch.apply(batch.plan(.trash, ids: ["a.md", "Work/b.md", "gone.md"]))
        XCTAssertEqual(outcome.failures, [NoteBatch.Failure(id: "gone.md", reason: NoteBatch.gone)])
        XCTAssertNil(read("a.md"))
        XCTAssertNil(read("Work/b.md"))
        XCTAssertEqual(LibraryTrash(library: library).items().count, 2)
        XCTAssertEqual(batch.undo(outcome).failures, [])
        XCTAssertEqual(snapshot().filter { !$0.key.hasPrefix(".notula") }, before)
        XCTAssertEqual(LibraryTrash(library: library).items(), [])
    }

    func testRestoringManyFromTheTrashAndCancellingHalfWay() throws {
        for n in 1...6 { try write("n\(n).md", "Note \(n)\n") }
        let trashed = batch.apply(batch.plan(.trash, ids: (1...6).map { "n\($0).md" }))
        XCTAssertEqual(trashed.done.count, 6)
        let items = LibraryTrash(library: library).items()
        let restored = batch.restore(items) { $0 < 4 }
        XCTAssertTrue(restored.cancelled)
        XCTAssertEqual(restored.done.count, 4, "stops after the note under way")
        XCTAssertEqual(LibraryTrash(library: library).items().count, 2)
        XCTAssertEqual(batch.undo(restored).failures, [])
        XCTAssertEqual(LibraryTrash(library: library).items().count, 6)
    }

    /// A read-only notebook (as an ordinary user meets one: root ignores permissions) and a
    /// full disk: the rest is done, the notes that could not be are named with why, nothing is lost.
    func testAReadOnlyNotebookAndAFullDiskLoseNothing() throws {
        guard getuid() == 0 else { throw cannotRun("needs root to act as an unprivileged user") }
        let nobody: uid_t = 65534
        chmod(root.url.path, 0o755)
        try write("a.md", "Alpha\n")
        try write("Locked/b.md", "Beta\n")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Work"), withIntermediateDirectories: true)
        for path in ["", "a.md", "Work"] { chown(library.appendingPathComponent(path).path, nobody, gid_t(nobody)) }
        chmod(library.appendingPathComponent("Locked").path, 0o755)  // root's: nobody cannot change it
        let outcome: NoteBatch.Outcome = try {
            guard setegid(gid_t(nobody)) == 0, seteuid(nobody) == 0 else { throw cannotRun("cannot switch the effective user") }
            defer { seteuid(0); setegid(0) }
            return batch.apply(batch.plan(.move(toNotebook: "Work"), ids: ["a.md", "Locked/b.md"]))
        }()
        XCTAssertEqual(outcome.moves, ["a.md": "Work/a.md"])
        XCTAssertEqual(outcome.failures.map(\.id), ["Locked/b.md"])
        XCTAssertEqual(outcome.failures.first?.reason, String(cString: strerror(EACCES)))
        XCTAssertEqual(read("Locked/b.md"), "Beta\n")

        let disk = try SmallDisk(kilobytes: 64)
        let full = NoteBatch(library: disk.url)
        for n in 1...3 { try Data("Note \(n)\n".utf8).write(to: disk.url.appendingPathComponent("n\(n).md")) }
        let filler = disk.url.appendingPathComponent(".filler")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        while (try? handle.write(contentsOf: Data(count: 4096))) != nil {}
        try? handle.close()
        let tagged = full.apply(full.plan(.addTag("trip"), ids: ["n1.md", "n2.md", "n3.md"]))
        XCTAssertEqual(tagged.failures.count, 3, "\(tagged.done)")
        XCTAssertEqual(tagged.failures.first?.reason, String(cString: strerror(ENOSPC)))
        for n in 1...3 {
            XCTAssertEqual(try String(contentsOf: disk.url.appendingPathComponent("n\(n).md"), encoding: .utf8), "Note \(n)\n")
        }
    }

    /// The index after a bulk action, told of the changed notes once, equals a fresh index.
    func testTheIndexAfterABatchEqualsAFreshIndex() throws {
        // Half the notes last changed an hour ago (their rows follow a move as they are), half
        // just now (read again).
        for n in 1...30 {
            let url = try write("n\(n).md", "Note \(n)\nbody word\(n)\n")
            if n % 2 == 0 { try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: url.path) }
        }
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        let notes = NoteLibrary(folder: library)
        let index = try LibraryIndex(library: notes, cacheFolder: nil)
        _ = try index.reconcile { _ in }
        _ = index.indexAllWaitingTexts()
        var outcome = batch.apply(batch.plan(.move(toNotebook: "Trip"), ids: (1...10).map { "n\($0).md" }))
        let moved = index.refresh(outcome.changedIDs, moved: outcome.moves)
        XCTAssertEqual(Set(moved.removed), Set((1...10).map { "n\($0).md" }))
        XCTAssertEqual(Set(moved.upserted.map(\.id)), Set((1...10).map { "Trip/n\($0).md" }), "the list hears of every note moved")
        XCTAssertEqual(try index.matches("word4"), ["Trip/n4.md"], "a moved note is found where it is")
        _ = index.indexAllWaitingTexts()
        XCTAssertEqual(try index.matches("word3"), ["Trip/n3.md", "n30.md"])
        outcome = batch.apply(batch.plan(.addTag("trip"), ids: (11...20).map { "n\($0).md" }))
        _ = index.refresh(outcome.changedIDs)
        outcome = batch.apply(batch.plan(.trash, ids: (21...25).map { "n\($0).md" }))
        _ = index.refresh(outcome.changedIDs)
        let fresh = try LibraryIndex(library: notes, cacheFolder: nil)
        _ = try fresh.reconcile { _ in }
        func rows(_ index: LibraryIndex) -> [String] {
            index.summaries().map { "\($0.id)|\($0.title)|\($0.preview)" }.sorted()
        }
        XCTAssertEqual(rows(index), rows(fresh))
        XCTAssertEqual(rows(index).count, 25)
    }
}

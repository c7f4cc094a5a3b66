import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Moving every note carries the library index over (issue #29): the destination's index is the
/// source's, its rows following the notes — renamed ones (FAT, exFAT, names taken) included —
/// and equal to a fresh index of the destination; the reconcile at the switch reads no note
/// again, except one that changed while it moved.
final class IndexCarryOverTests: XCTestCase {
    private var state: TemporaryFolder!
    private var cache: TemporaryFolder!

    override func setUp() {
        state = TemporaryFolder()
        cache = TemporaryFolder()
    }

    /// Notes of every kind the list shows: in notebooks, with a conflict copy, a conflict copy
    /// whose note is gone, one that is not UTF-8, an empty one, one with Notula's name (its
    /// creation date), a long one; pins and the Trash beside them. Dated in the past.
    private func makeLibrary(in folder: URL, extra: [String: Data] = [:]) throws {
        var files: [String: Data] = [
            "Plain.md": Data("Plain note\nabout the evening walk\n".utf8),
            "note-20240102-030405-abcde.md": Data("# Made by Notula\nwith a date in its name\n".utf8),
            "Empty.md": Data(),
            "binary.md": Data([0x66, 0x6F, 0xFF, 0xFE, 0x0A]),
            "Long.md": Data(("Long note\n" + String(repeating: "zebra crossing paragraph ", count: 2000)).utf8),
            "Work/report.md": Data("Quarterly report\nnumbers go here\n".utf8),
            "Work/Deep/plan.md": Data("Deep plan\nsteps\n".utf8),
            "Shared.md": Data("Shared note\nmine\n".utf8),
            "Shared.sync-conflict-20240101-101010-ABCDEFG.md": Data("Shared note\ntheirs\n".utf8),
            "Orphan.sync-conflict-20240101-101010-ABCDEFG.md": Data("Orphan copy\nalone\n".utf8),
            ".notula/pinned.txt": Data("Plain.md\n".utf8),
            ".notula/Trash/files/old.md": Data("Thrown away\n".utf8),
        ]
        files.merge(extra) { _, new in new }
        var when = Date(timeIntervalSinceNow: -86_400 * 30)
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            when += 3_600.5
            try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: url.path)
        }
    }

    /// The index trusts only files last changed over 2 s ago (`Identity.settled(at:)`): its
    /// clock runs 2.1 s ahead, so a library just written is indexed as a library in use is.
    private static let settled: @Sendable () -> Date = { Date().addingTimeInterval(2.1) }

    private func indexed(_ folder: URL, inMemory: Bool = false) throws -> LibraryIndex {
        let index = try LibraryIndex(library: NoteLibrary(folder: folder), cacheFolder: inMemory ? nil : cache.url, clock: Self.settled)
        _ = try index.reconcile { _ in }
        index.indexAllWaitingTexts()  // texts follow the rows
        return index
    }

    private struct Moved {
        let plan: LibraryMover.Preflight
        let carried: LibraryIndex.Carried?
        /// The source's rows by path, before the move.
        let rowsBefore: [String: Int64]
    }

    /// Indexes `source`, moves every note to `destination` carrying the index over; `during`
    /// runs at each step of the move.
    private func moveCarrying(_ source: URL, _ destination: URL, during: ((Int, LibraryMover.Preflight) -> Void)? = nil,
                              clock: @escaping @Sendable () -> Date = settled) throws -> Moved {
        let sourceIndex = try indexed(source)
        let rowsBefore = Dictionary(uniqueKeysWithValues: sourceIndex.summaries().map { ($0.id, $0.indexRow ?? 0) })
        sourceIndex.close()
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let plan = try mover.preflight()
        let carry = IndexCarryOver(source: source, destination: destination, cacheFolder: cache.url, clock: clock)
        let moved = try mover.run(plan, progress: { done, _ in during?(done, plan) })
        return Moved(plan: plan, carried: carry.finish(moved), rowsBefore: rowsBefore)
    }

    private func reconciled(_ index: LibraryIndex) throws -> LibraryIndex.Changes {
        var all = LibraryIndex.Changes()
        _ = try index.reconcile { batch in
            all.upserted += batch.upserted
            all.removed += batch.removed
            if let every = batch.everyNote { all.everyNote = every }
        }
        if let every = index.indexAllWaitingTexts().everyNote { all.everyNote = every }  // texts follow the rows
        return all
    }

    /// The carried index, reconciled, says what a fresh index of the destination says: the
    /// same rows (paths, titles, previews, dates, flags, conflict copies) and the same answers.
    private func assertEqualsFreshIndex(_ carried: LibraryIndex, _ destination: URL, searches: [String],
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let fresh = try indexed(destination, inMemory: true)
        let freshRows = Dictionary(uniqueKeysWithValues: fresh.summaries().map { ($0.id, $0) })
        let carriedRows = Dictionary(uniqueKeysWithValues: carried.summaries().map { ($0.id, $0) })
        XCTAssertEqual(Set(carriedRows.keys), Set(freshRows.keys), file: file, line: line)
        for (id, note) in freshRows {
            XCTAssertEqual(carriedRows[id], note, id, file: file, line: line)
        }
        for query in searches {
            XCTAssertEqual(try carried.matches(query), try fresh.matches(query), query, file: file, line: line)
        }
        fresh.close()
    }

    private static let searches = ["evening", "zebra crossing", "theirs", "alone", "numbers", "steps", "notula", "ab", "e"]

    func testSameFileSystemMoveCarriesEveryRowUnread() throws {
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync/Notes")
        try makeLibrary(in: source)
        let moved = try moveCarrying(source, destination)
        let carried = try XCTUnwrap(moved.carried)
        XCTAssertEqual(carried, LibraryIndex.Carried(kept: 9, readAgain: 0, dropped: 0))

        let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cache.url, clock: Self.settled)
        let before = Dictionary(uniqueKeysWithValues: index.summaries().map { ($0.id, $0.indexRow ?? 0) })
        XCTAssertEqual(before, moved.rowsBefore, "every row kept its id and its path")
        XCTAssertTrue(try reconciled(index).isEmpty, "the reconcile after the switch finds nothing to read")
        try assertEqualsFreshIndex(index, destination, searches: Self.searches)
        index.close()
    }

    /// Names taken at the destination: the moved notes arrive as "name (2).md", their rows follow,
    /// and the destination's own notes (not in the carried index) are read as new.
    func testMoveWithNameCollisionsCarriesRenamedRows() throws {
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync")
        try makeLibrary(in: source)
        try FileManager.default.createDirectory(at: destination.appendingPathComponent("Work"), withIntermediateDirectories: true)
        try Data("Their plain note\n".utf8).write(to: destination.appendingPathComponent("Plain.md"))
        try Data("Their report\n".utf8).write(to: destination.appendingPathComponent("Work/report.md"))
        try Data("Their shared\n".utf8).write(to: destination.appendingPathComponent("Shared.md"))
        let moved = try moveCarrying(source, destination)
        let targets = Dictionary(uniqueKeysWithValues: moved.plan.journal.items.map { ($0.source, $0.target) })
        XCTAssertEqual(targets["Plain.md"], "Plain (2).md")
        XCTAssertEqual(targets["Work/report.md"], "Work/report (2).md")
        XCTAssertEqual(targets["Shared.md"], "Shared (2).md")
        // The copy keeps its name: it belongs to the destination's own "Shared.md" now.
        XCTAssertEqual(targets["Shared.sync-conflict-20240101-101010-ABCDEFG.md"], "Shared.sync-conflict-20240101-101010-ABCDEFG.md")
        let carried = try XCTUnwrap(moved.carried)
        XCTAssertEqual(carried.readAgain, 0)
        XCTAssertEqual(carried.kept, 9)

        let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cache.url, clock: Self.settled)
        let ids = Dictionary(uniqueKeysWithValues: index.summaries().map { ($0.id, $0.indexRow ?? 0) })
        for (source, row) in moved.rowsBefore {
            XCTAssertEqual(ids[try XCTUnwrap(targets[source])], row, "\(source) kept its row")
        }
        let changes = try reconciled(index)
        XCTAssertEqual(Set(changes.upserted.map(\.id)), ["Plain.md", "Work/report.md", "Shared.md"], "only the destination's own notes are read")
        XCTAssertEqual(changes.removed, [])
        try assertEqualsFreshIndex(index, destination, searches: Self.searches + ["their"])
        index.close()
    }

    /// A note edited in the source while the move is under way (before it moves, and after,
    /// at its new place) is read again after the switch: its new words are found.
    func testNoteEditedDuringTheMoveIsReadAgain() throws {
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync/Notes")
        try makeLibrary(in: source)
        var editedBefore = false, editedAfter = false
        let moved = try moveCarrying(source, destination) { done, plan in
            let items = plan.journal.items
            guard let first = items.firstIndex(where: MovedNote.isNote), let last = items.lastIndex(where: MovedNote.isNote) else { return }
            if !editedBefore, done == first + 1 {
                // The last note, not moved yet, changed in place by another program.
                editedBefore = Self.overwrite(source.appendingPathComponent(items[last].source), with: "Edited before moving: quokka\n")
            } else if !editedAfter, done == last {
                // The first note, at the destination already.
                editedAfter = Self.overwrite(destination.appendingPathComponent(items[first].target), with: "Edited after moving: wombat\n")
            }
        }
        XCTAssertTrue(editedBefore && editedAfter)
        let carried = try XCTUnwrap(moved.carried)
        XCTAssertEqual(carried.readAgain, 2, "\(carried)")
        XCTAssertEqual(carried.kept, 7)

        let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cache.url, clock: Self.settled)
        let changes = try reconciled(index)
        XCTAssertEqual(changes.upserted.count, 2, "the two edited notes, and no other, are read again")
        XCTAssertEqual(try index.matches("quokka")?.count, 1)
        XCTAssertEqual(try index.matches("wombat")?.count, 1)
        try assertEqualsFreshIndex(index, destination, searches: Self.searches + ["quokka", "wombat", "edited"])
        index.close()
    }

    /// Rows of notes that were not there to move (the index was behind the disk) go; notes the
    /// index had not seen yet are read at the switch.
    func testRowsOfNotesGoneBeforeTheMoveAreDropped() throws {
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync/Notes")
        try makeLibrary(in: source, extra: ["Gone.md": Data("Deleted meanwhile\n".utf8)])
        let sourceIndex = try indexed(source)
        sourceIndex.close()
        unlink(source.appendingPathComponent("Gone.md").path)
        try FileManager.default.createDirectory(at: root.file("Sync"), withIntermediateDirectories: true)
        try Data("Arrived meanwhile\n".utf8).write(to: source.appendingPathComponent("New.md"))
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let carry = IndexCarryOver(source: source, destination: destination, cacheFolder: cache.url, clock: Self.settled)
        let carried = try XCTUnwrap(carry.finish(try mover.run(try mover.preflight())))
        XCTAssertEqual(carried, LibraryIndex.Carried(kept: 9, readAgain: 0, dropped: 1))
        let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cache.url, clock: Self.settled)
        XCTAssertEqual(try reconciled(index).upserted.map(\.id), ["New.md"])
        try assertEqualsFreshIndex(index, destination, searches: Self.searches + ["meanwhile"])
        index.close()
    }

    /// A failed carry leaves no index for the destination (it is indexed from the start), and
    /// the source's index goes once its folder holds no notes — not before.
    func testOldIndexRemovedOnlyWhenItsFolderIsEmpty() throws {
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync/Notes")
        try makeLibrary(in: source)
        let sourceIndex = try indexed(source)
        sourceIndex.close()
        let sourceCache = LibraryIndex.cacheURL(for: source, in: cache.url)
        IndexCarryOver.removeIndex(of: source, cacheFolder: cache.url)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sourceCache.path), "its notes are still there")
        try FileManager.default.createDirectory(at: root.file("Sync"), withIntermediateDirectories: true)
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let carry = IndexCarryOver(source: source, destination: destination, cacheFolder: cache.url, clock: Self.settled)
        carry.discard()
        XCTAssertEqual(cache.names, [sourceCache.lastPathComponent], "a discarded copy leaves nothing")
        try mover.run(try mover.preflight())
        IndexCarryOver.removeIndex(of: source, cacheFolder: cache.url)
        XCTAssertEqual(cache.names, [], "every note moved out: its index goes")
    }

    /// The index cannot be copied (the cache's disk is full): nothing is carried, nothing is
    /// left behind, and the destination is indexed from the start, as before.
    func testACarryThatFailsLeavesTheDestinationToBeIndexed() throws {
        let disk = try SmallDisk(kilobytes: 4096)
        cache = nil
        let root = TemporaryFolder()
        let source = root.file("Local"), destination = root.file("Sync")
        try makeLibrary(in: source)
        let cacheFolder = disk.url.appendingPathComponent("cache")
        let sourceIndex = try LibraryIndex(library: NoteLibrary(folder: source), cacheFolder: cacheFolder, clock: Self.settled)
        _ = try sourceIndex.reconcile { _ in }
        sourceIndex.close()
        let filler = disk.url.appendingPathComponent("filler")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        while (try? handle.write(contentsOf: Data(count: 16_384))) != nil {}
        try handle.close()

        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let carry = IndexCarryOver(source: source, destination: destination, cacheFolder: cacheFolder, clock: Self.settled)
        XCTAssertNil(carry.finish(try mover.run(try mover.preflight())))
        unlink(filler.path)
        let sourceIndexName = LibraryIndex.cacheURL(for: source, in: cacheFolder).lastPathComponent
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).filter { !$0.hasPrefix(sourceIndexName) }, [],
                       "no copy, no index of the destination")
        let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cacheFolder, clock: Self.settled)
        XCTAssertEqual(try reconciled(index).upserted.count, 9, "every note read")
        try assertEqualsFreshIndex(index, destination, searches: Self.searches)
        index.close()
    }

    func testMoveToFATCarriesRenamedRows() throws {
        try moveToFAT(FATDisk(.fat))
    }

    func testMoveToExFATCarriesRenamedRows() throws {
        try moveToFAT(FATDisk(.exfat))
    }

    /// Names FAT refuses or cannot tell apart arrive renamed; a conflict copy renamed with its
    /// note may then belong to another note. The carried index says what a fresh one says.
    private func moveToFAT(_ disk: FATDisk) throws {
        guard disk.replacesFiles else { return try assertMoveIsRefused(to: disk) }
        let local = TemporaryFolder()
        let source = local.file("Notes"), destination = disk.url.appendingPathComponent("Notes")
        try makeLibrary(in: source, extra: [
            "Todo.md": Data("Upper todo\n".utf8), "todo.md": Data("Lower todo\n".utf8),
            "a:b.md": Data("Colon note\nkiwi\n".utf8), "a_b.md": Data("Underscore note\n".utf8),
            "a:b.sync-conflict-20240101-101010-ABCDEFG.md": Data("Colon copy\n".utf8),
            "why?.md": Data([0x77, 0xFF, 0x0A]), "Pro:jects/z.md": Data("In a renamed notebook\nmango\n".utf8),
        ])
        // The clock stands at the move's start: whether a note there is trusted depends only on
        // whether the file system kept its time (below) — not on how long the move took on a
        // slow FUSE mount (past the 2 s rule, a time written during the move looked settled).
        let started = Date()
        let moved = try moveCarrying(source, destination, clock: { started })
        XCTAssertFalse(moved.plan.sameFileSystem)
        XCTAssertFalse(moved.plan.renames.isEmpty)
        let carried = try XCTUnwrap(moved.carried)
        print("\(disk.kind.rawValue) (\(disk.driver)): \(carried)")
        let targets = Dictionary(uniqueKeysWithValues: moved.plan.journal.items.map { ($0.source, $0.target) })
        let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cache.url)
        let rows = Dictionary(uniqueKeysWithValues: index.summaries().map { ($0.id, $0.indexRow ?? 0) })
        XCTAssertEqual(rows, Dictionary(uniqueKeysWithValues: try moved.rowsBefore.map { (try XCTUnwrap(targets[$0.key]), $0.value) }),
                       "every row follows its note, with its id")
        let changes = try reconciled(index)
        // fusefat does not keep a copy's modification time: each file there was changed just now,
        // in a tick a later change could share — such notes are read again, and only they.
        var kept = stat()
        lstat(destination.appendingPathComponent("Plain.md").path, &kept)
        if Date().timeIntervalSince1970 - TimeInterval(kept.st_mtim.tv_sec) > 60 {
            XCTAssertEqual(carried, LibraryIndex.Carried(kept: 15, readAgain: 0, dropped: 0))
            XCTAssertTrue(changes.isEmpty, "\(changes.upserted.map(\.id)) \(changes.removed)")
        } else {
            XCTAssertEqual(carried, LibraryIndex.Carried(kept: 0, readAgain: 15, dropped: 0))
            XCTAssertEqual(changes.removed, [])
        }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: index.summaries().map { ($0.id, $0.indexRow ?? 0) }), rows, "read again in their rows")
        try assertEqualsFreshIndex(index, destination, searches: Self.searches + ["kiwi", "mango", "todo", "copy"])
        index.close()
    }

    /// Writes `text` into the file in place (its inode stays, as an editor that does not
    /// replace files writes).
    private static func overwrite(_ url: URL, with text: String) -> Bool {
        guard let handle = try? FileHandle(forWritingTo: url) else { return false }
        defer { try? handle.close() }
        try? handle.truncate(atOffset: 0)
        handle.write(Data(text.utf8))
        return true
    }
}

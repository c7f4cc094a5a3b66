import CSQLite
import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The library index kept like a database: its WAL bounded while a long note is saved again
/// and again and gone after `close`, searches interrupted while refreshes write (in memory
/// too), transient failures tried again without dropping the cache, and a failure that stays
/// handing over every note so nothing deleted meanwhile stays listed.
final class LibraryIndexStoreTests: LibraryIndexTestCase {
    private func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// A 200 KB note saved 300 times (each save re-indexed, as autosave does) while the list
    /// is read and searched: the WAL stays within a few MB, and after `close` it is gone.
    func testTheWALStaysBoundedOverHundredsOfRefreshesOfALongNote() throws {
        var random = SeededRandom(seed: 200)
        let words = (0..<2000).map { "w\($0)x" }
        let texts = (0..<4).map { _ in
            var text = "Long note\n"
            while text.utf8.count < 200_000 { text += words[random.next(upTo: words.count)] + (random.chance(0.1) ? "\n" : " ") }
            return text
        }
        write("long.md", texts[0])
        write("other.md", "Other\nshort")
        let index = try makeIndex()
        _ = try reconciled(index)
        let wal = try XCTUnwrap(index.fileURL).path + "-wal"
        var largest: Int64 = 0
        // 300 rounds: an unbounded WAL grew by ~1 MB a refresh, 300 MB here.
        for round in 0..<300 {
            write("long.md", texts[round % texts.count] + "\nround\(round)")
            XCTAssertEqual(index.refresh(["long.md"]).upserted.count, 1)
            if round % 10 == 0 {
                _ = index.summaries()
                XCTAssertEqual(try index.matches("round\(round)"), ["long.md"])
            }
            largest = max(largest, size(wal))
        }
        print("largest WAL over 300 refreshes of a 200 KB note: \(largest / 1024) KB; file \(size(index.fileURL!.path) / 1024) KB")
        XCTAssertLessThan(largest, 16 << 20, "bounded (it grew by ~1 MB a save before)")
        XCTAssertGreaterThan(size(index.fileURL!.path), 1 << 20, "the texts are in the file itself, not only in the WAL")
        index.close()
        XCTAssertEqual(size(wal), 0, "no WAL after close")
        XCTAssertFalse(FileManager.default.fileExists(atPath: wal))
        XCTAssertEqual(index.refresh(["long.md"]), LibraryIndex.Changes(), "a late event after close does nothing")
        XCTAssertNotNil(index.fileURL, "and does not start an index in memory")
    }

    /// Searches run and are interrupted on the reading connection while refreshes write: no
    /// write is ever stopped (in memory a search used to interrupt the writer, whose failure
    /// started the index over again and again), and every answer is right.
    func testSearchesInterruptedWhileRefreshesWriteNeverStopAWrite() throws {
        try onDiskAndInMemory {
            for number in 0..<300 { write("n\(number).md", "Note \(number)\n" + String(repeating: "filler words here ", count: 200)) }
            let index = try makeIndex()
            _ = try reconciled(index)
            let stop = Shared(false)
            let searches = Shared(0)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                while !stop.value {
                    _ = try? index.matches("—")  // a scan of every text: long enough to be interrupted
                    searches.update { $0 += 1 }
                }
                done.signal()
            }
            DispatchQueue.global().async {
                while !stop.value {
                    index.interruptSearch()
                    usleep(500)
                }
                done.signal()
            }
            for round in 0..<150 {
                write("n\(round % 300).md", "Note \(round % 300)\nchanged in round \(round) marker\(round)")
                let changes = index.refresh(["n\(round % 300).md"])
                XCTAssertEqual(changes.upserted.map(\.id), ["n\(round % 300).md"], "round \(round)")
                XCTAssertNil(changes.everyNote)
            }
            stop.value = true
            done.wait()
            done.wait()
            XCTAssertGreaterThan(searches.value, 5)
            XCTAssertEqual(index.startOvers, 0, "no write was stopped")
            XCTAssertEqual(try index.matches("marker149"), ["n149.md"])
            XCTAssertEqual(try index.matches("nowhereatall"), [], "a word no note holds finds none")
            try assertIndexEqualsDisk(index)
        }
    }

    /// Another program holds the cache locked for longer than SQLite waits: the refresh is
    /// tried again after a pause, and the cache is kept (it used to be deleted and rebuilt).
    func testATransientFailureIsTriedAgainAndTheCacheIsKept() throws {
        write("a.md", "Alpha")
        write("b.md", "Beta")
        let index = try makeIndex()
        _ = try reconciled(index)
        let url = try XCTUnwrap(index.fileURL)
        let holder = try SQLiteDatabase(path: url.path)
        try holder.execute("BEGIN IMMEDIATE")
        DispatchQueue.global().asyncAfter(deadline: .now() + 2.5) { try? holder.execute("COMMIT") }
        unlink(library.folder.appendingPathComponent("b.md").path)
        write("c.md", "Gamma")
        let changes = index.refresh(["b.md", "c.md"])
        XCTAssertEqual(changes.removed, ["b.md"])
        XCTAssertEqual(changes.upserted.map(\.id), ["c.md"])
        XCTAssertEqual(index.fileURL, url, "still the cache on disk")
        XCTAssertEqual(index.startOvers, 0)
        try assertIndexEqualsDisk(index)
    }

    /// The cache's disk fills up while Notula runs: the index goes on in memory (the file is
    /// removed, giving its space back: it is only a cache), and the refresh that failed still
    /// tells the list what it must show — every note, so deletions made meanwhile, named or
    /// not, do not stay listed.
    func testAFailureThatStaysHandsOverEveryNote() throws {
        for number in 0..<20 { write("n\(number).md", "Note \(number)") }
        let disk = try SmallDisk(kilobytes: 2048)
        do {
            let index = try LibraryIndex(library: library, cacheFolder: disk.url)
            _ = try reconciled(index)
            index.close()  // no WAL left: the next write needs new space
        }
        let index = try LibraryIndex(library: library, cacheFolder: disk.url)
        let url = try XCTUnwrap(index.fileURL)
        XCTAssertEqual(index.summaries().count, 20)
        let filler = open(disk.url.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o600)
        let chunk = [UInt8](repeating: 0, count: 4096)
        while Glibc.write(filler, chunk, chunk.count) > 0 {}
        XCTAssertEqual(errno, ENOSPC, "the disk is full")
        Glibc.close(filler)
        for number in 0..<5 { unlink(library.folder.appendingPathComponent("n\(number).md").path) }
        write("new.md", "New")
        let changes = index.refresh(["n0.md", "new.md"])
        XCTAssertNil(index.fileURL, "in memory now")
        XCTAssertEqual(index.startOvers, 1)
        let every = try XCTUnwrap(changes.everyNote, "every note, read again")
        XCTAssertEqual(Set(every.map(\.id)), Set(try onDisk().keys))
        XCTAssertFalse(every.contains { $0.id == "n3.md" }, "a note deleted meanwhile, though not named, is gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "the cache gave its space back")
        index.indexAllWaitingTexts()  // the texts follow the rows, as after any reconcile
        XCTAssertEqual(try index.matches("new"), ["new.md"])
        XCTAssertEqual(index.refresh(["n6.md"]), LibraryIndex.Changes(), "then it goes on as usual, in memory")
    }

    /// Another program keeps the cache locked: after trying again for a while the index goes
    /// on in memory, and that program's file is left alone.
    func testACacheLockedForGoodIsLeftAloneAndEveryNoteHandedOver() throws {
        write("a.md", "Alpha")
        write("b.md", "Beta")
        let index = try makeIndex()
        _ = try reconciled(index)
        let url = try XCTUnwrap(index.fileURL)
        let holder = try SQLiteDatabase(path: url.path)
        try holder.execute("BEGIN IMMEDIATE")  // its write lock, held
        unlink(library.folder.appendingPathComponent("b.md").path)
        let changes = index.refresh(["a.md"])
        XCTAssertNil(index.fileURL)
        XCTAssertEqual(changes.everyNote?.map(\.id), ["a.md"])
        try holder.execute("COMMIT")
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "another program's file is not deleted")
    }
}

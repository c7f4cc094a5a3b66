import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The persistent library index (issue #13): equal to the disk after changes made while
/// Notula was closed (reconcile) and while it runs (refresh), search by substrings ignoring case
/// and accents, short words, notebooks, and bad caches that never stop the app.
final class LibraryIndexTests: LibraryIndexTestCase {
    func testSearchFindsSubstringsIgnoringCaseAndAccentsAndNeedsEveryWord() throws {
        try onDiskAndInMemory {
            write("a.md", "Café plans\nMeet at the CRÈME brûlée place")
            write("b.md", "Groceries\nmilk, bread")
            write("Work/c.md", "Cafeteria menu\nbread rolls")
            write("d.md", "Odd * marks\nwhat? [x] done 50% off")
            let index = try makeIndex()
            _ = try reconciled(index)
            XCTAssertEqual(try index.matches("cafe"), ["a.md", "Work/c.md"])
            XCTAssertEqual(try index.matches("CAFÉ creme"), ["a.md"])
            XCTAssertEqual(try index.matches("bread menu"), ["Work/c.md"], "every word, anywhere in the note")
            XCTAssertEqual(try index.matches("ead"), ["b.md", "Work/c.md"], "inside words")
            XCTAssertEqual(try index.matches("br"), ["a.md", "b.md", "Work/c.md"], "two letters: brûlée and bread")
            XCTAssertEqual(try index.matches("k"), ["b.md", "d.md"], "one letter")
            XCTAssertEqual(try index.matches("ll cafe"), ["Work/c.md"], "short and long words together")
            XCTAssertEqual(try index.matches("zebra"), [])
            XCTAssertEqual(try index.matches("50%"), ["d.md"])
            XCTAssertEqual(try index.matches("*"), ["d.md"], "wildcards are plain characters")
            XCTAssertEqual(try index.matches("br?ad"), [])
            XCTAssertEqual(try index.matches("what?"), ["d.md"])
            XCTAssertEqual(try index.matches("[x]"), ["d.md"])
            XCTAssertEqual(try index.matches("[ab]"), [])
            XCTAssertEqual(try index.matches("\"bread"), [], "quotes are plain characters")
            XCTAssertNil(try index.matches("   "), "no words: every note")
            // The list knows each note's row; a search names the rows.
            let rows = Dictionary(uniqueKeysWithValues: index.summaries().map { ($0.id, $0.indexRow) })
            let found = try XCTUnwrap(try index.matchingRows("cafe"))
            XCTAssertEqual(found.count, 2)
            XCTAssertEqual(Set(rows.filter { _, row in row.map(found.contains) ?? false }.keys), ["a.md", "Work/c.md"])
        }
    }

    /// Words of one or two letters or digits are answered from each note's signature, not its
    /// text: the answers must be exactly what reading the text gives, for every such word, at a
    /// line's start and end, beside punctuation, accents and letters that stay non-ASCII.
    func testShortWordsFindExactlyTheNotesThatContainThem() throws {
        try onDiskAndInMemory {
            var random = SeededRandom(seed: 77)
            let pieces = ["a", "b", "z", "0", "9", "ab", "ba", "x1", "É", "é", "ß", "ж", "日本", "—", "?", " ", "\n", "Q", "q", "-", "ẞ", "1a"]
            var texts: [String: String] = [:]
            for number in 0..<80 {
                let text = (0..<random.next(upTo: 14)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined()
                write("n\(number).md", text)
                texts["n\(number).md"] = text
            }
            let index = try makeIndex()
            _ = try reconciled(index)
            let alphabet = "abz09xq1"
            var queries = alphabet.map { String($0) } + ["é", "ж", "日", "—", "?", "-", "ss", "a?", "qq"]
            for first in alphabet { for second in alphabet { queries.append("\(first)\(second)") } }
            for query in queries + ["ab x1", "a b 9", "abz a", "日本 a"] {
                let words = TextFolding.words(of: query)
                let expected = Set(texts.filter { _, text in words.allSatisfy { TextFolding.fold(text).contains($0) } }.keys)
                XCTAssertEqual(try index.matches(query), expected, "“\(query)”")
            }
            XCTAssertNil(ShortWordTokens.token(for: "é"), "not a–z or 0–9: read the text")
            XCTAssertNotNil(ShortWordTokens.token(for: "e9"))
        }
    }

    /// Typing on stops the search still running for the last keystroke (its answer would be
    /// dropped anyway); the next search works.
    func testARunningSearchCanBeInterruptedByANewerOne() throws {
        try onDiskAndInMemory {
            let text = String(repeating: "words and more words of a longer note\n", count: 150)
            for number in 0..<1500 { write("n\(number).md", "Note \(number)\n" + text) }
            let index = try makeIndex()
            _ = try reconciled(index)
            var interrupted = 0
            for _ in 0..<20 where interrupted == 0 {
                let done = DispatchSemaphore(value: 0)
                let outcome = Shared<Result<Set<String>?, Error>?>(nil)
                DispatchQueue.global().async {
                    outcome.value = Result { try index.matches("—") }  // a scan of every note's text
                    done.signal()
                }
                usleep(3000)
                index.interruptSearch()
                done.wait()
                if case .failure(let error) = outcome.value, error is LibraryIndex.SearchInterrupted { interrupted += 1 }
            }
            XCTAssertEqual(interrupted, 1, "a search was stopped")
            XCTAssertEqual(try index.matches("note 1499"), ["n1499.md"], "and the next one runs")
        }
    }

    func testChangesWhileClosedAreFoundAtTheNextStartReadingOnlyWhatChanged() throws {
        // Files older than two seconds are trusted by their identity: the index's clock runs
        // 2.1 s ahead, so every file counts as settled without waiting.
        let settled: @Sendable () -> Date = { Date().addingTimeInterval(2.1) }
        for number in 0..<30 { write("Book \(number % 3)/note \(number).md", "Note \(number)\nbody \(number)") }
        write("top.md", "Top\nthe first")
        do {
            let index = try LibraryIndex(library: library, cacheFolder: cache, clock: settled)
            let first = try reconciled(index)
            XCTAssertEqual(first.upserted.count, 31)
            try assertIndexEqualsDisk(index)
        }
        // While closed: one changed, one added, one deleted, one renamed, a notebook renamed,
        // and one rewritten by a tool that keeps the size and restores the modification time.
        write("top.md", "Top\nthe second")
        write("Book 1/new.md", "New\narrived")
        unlink(library.folder.appendingPathComponent("Book 0/note 0.md").path)
        rename(library.folder.appendingPathComponent("Book 0/note 3.md").path, library.folder.appendingPathComponent("Book 0/moved.md").path)
        rename(library.folder.appendingPathComponent("Book 2").path, library.folder.appendingPathComponent("Book Two").path)
        let same = library.folder.appendingPathComponent("Book 1/note 1.md")
        let modified = try FileManager.default.attributesOfItem(atPath: same.path)[.modificationDate] as! Date
        try Data("Note 9\nbody 1".utf8).write(to: same)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: same.path)

        let index = try LibraryIndex(library: library, cacheFolder: cache, clock: settled)
        XCTAssertEqual(index.summaries().count, 31, "the list shows at once from the index")
        let changes = try reconciled(index)
        XCTAssertEqual(Set(changes.upserted.map(\.id)), Set(["top.md", "Book 1/new.md", "Book 0/moved.md", "Book 1/note 1.md"]
            + (0..<30).filter { $0 % 3 == 2 }.map { "Book Two/note \($0).md" }))
        XCTAssertEqual(Set(changes.removed), Set(["Book 0/note 0.md", "Book 0/note 3.md"] + (0..<30).filter { $0 % 3 == 2 }.map { "Book 2/note \($0).md" }))
        try assertIndexEqualsDisk(index)
        XCTAssertEqual(try index.matches("second"), ["top.md"])
        XCTAssertEqual(try index.matches("first"), [], "never a note that no longer contains the words")
        XCTAssertEqual(index.summaries().first { $0.id == "Book 1/note 1.md" }?.title, "Note 9")
        XCTAssertEqual(try reconciled(index), LibraryIndex.Changes(), "nothing changed since")
    }

    /// A file renamed while Notula was closed keeps its row and full text (no FTS5 delete and
    /// insert), with its new name's title and date; a second link or an edited file is not taken
    /// for a rename; names swapped are read again.
    func testARenamedFileKeepsItsRowAndWhatChangedIsReadAgain() throws {
        write("a.md", "Alpha\nfirst words")
        write("b.md", "Beta\nsecond words")
        write("c.md", "Gamma\nthird words")
        write("e.md", "Epsilon\nfifth words")
        write("s1.md", "Swap one")
        write("s2.md", "Swap two")
        let rowid = { (index: LibraryIndex, id: String) in try index.writer.integer("SELECT id FROM notes WHERE path = '\(id)'") }
        var before: [String: Int64?] = [:]
        do {
            let index = try LibraryIndex(library: library, cacheFolder: cache)
            _ = try reconciled(index)
            for id in ["a.md", "b.md", "c.md", "e.md"] { before[id] = try rowid(index, id) }
        }
        let folder = library.folder.path
        rename(folder + "/a.md", folder + "/Renamed.md")
        rename(folder + "/b.md", folder + "/2024-01-02 Edited.md")
        let edited = try FileHandle(forWritingTo: library.folder.appendingPathComponent("2024-01-02 Edited.md"))
        try edited.seekToEnd()
        try edited.write(contentsOf: Data("\nand more".utf8))
        try edited.close()
        link(folder + "/c.md", folder + "/c-link.md")
        try FileManager.default.createDirectory(atPath: folder + "/Book", withIntermediateDirectories: true)
        rename(folder + "/e.md", folder + "/Book/e.md")
        rename(folder + "/s1.md", folder + "/swap.tmp")
        rename(folder + "/s2.md", folder + "/s1.md")
        rename(folder + "/swap.tmp", folder + "/s2.md")

        let index = try LibraryIndex(library: library, cacheFolder: cache)
        let changes = try reconciled(index)
        try assertIndexEqualsDisk(index)
        XCTAssertEqual(Set(changes.removed), ["a.md", "b.md", "e.md"])
        XCTAssertEqual(Set(changes.upserted.map(\.id)), ["Renamed.md", "2024-01-02 Edited.md", "c-link.md", "Book/e.md", "s1.md", "s2.md"])
        XCTAssertEqual(try rowid(index, "Renamed.md"), before["a.md"], "the renamed file's row")
        XCTAssertEqual(try rowid(index, "Book/e.md"), before["e.md"], "into a notebook")
        XCTAssertEqual(try rowid(index, "2024-01-02 Edited.md"), before["b.md"])
        XCTAssertEqual(try rowid(index, "c.md"), before["c.md"])
        for note in changes.upserted {
            XCTAssertEqual(note.indexRow, try rowid(index, note.id), "what the list is handed names its row: \(note.id)")
        }
        XCTAssertNotEqual(try rowid(index, "c-link.md"), before["c.md"], "a second link is a note of its own")
        XCTAssertEqual(try index.matches("first words"), ["Renamed.md"])
        XCTAssertEqual(try index.matches("fifth"), ["Book/e.md"])
        XCTAssertEqual(try index.matches("second more"), ["2024-01-02 Edited.md"], "the edit is read")
        XCTAssertEqual(try index.matches("third"), ["c.md", "c-link.md"])
        XCTAssertEqual(try index.matches("swap one"), ["s2.md"])
        XCTAssertEqual(try index.matches("swap two"), ["s1.md"])
        XCTAssertEqual(try index.matches("a"), ["Renamed.md", "2024-01-02 Edited.md", "c.md", "c-link.md", "s1.md", "s2.md"],
                       "short words too")
        XCTAssertEqual(try reconciled(index), LibraryIndex.Changes(), "nothing changed since")
    }

    func testTheWatchersChangesKeepTheIndexExact() throws {
        try onDiskAndInMemory {
            write("a.md", "Alpha\none")
            write("b.md", "Beta\ntwo")
            let index = try makeIndex()
            _ = try reconciled(index)
            write("a.md", "Alpha\nthree")
            unlink(library.folder.appendingPathComponent("b.md").path)
            write("c.md", "Gamma\nfour")
            write("a.sync-conflict-20260101-120000-ABCDEFG.md", "Alpha\nother device")
            let changes = index.refresh(["a.md", "b.md", "c.md", "a.sync-conflict-20260101-120000-ABCDEFG.md"])
            XCTAssertEqual(Set(changes.upserted.map(\.id)), ["a.md", "c.md"])
            XCTAssertEqual(changes.removed, ["b.md"])
            XCTAssertEqual(changes.upserted.first { $0.id == "a.md" }?.conflictCopies, ["a.sync-conflict-20260101-120000-ABCDEFG.md"])
            XCTAssertEqual(try index.matches("three"), ["a.md"])
            XCTAssertEqual(try index.matches("one"), [])
            XCTAssertEqual(try index.matches("two"), [])
            XCTAssertEqual(try index.matches("other device"), [], "a conflict copy is not a note of its own")
            try assertIndexEqualsDisk(index)
            XCTAssertEqual(index.refresh(["a.md"]), LibraryIndex.Changes(), "nothing new")
        }
    }

    /// The watcher reports the note that went or came, not its conflict copies, which did not
    /// change: the copies still become notes of their own while it is gone, and part of its
    /// row again when it is back — as the next start's reconcile lists them. (Found by
    /// DocumentTortureTests: a copy whose note another program deleted was not listed.)
    func testANoteThatGoesOrComesBackTakesItsConflictCopiesAlong() throws {
        try onDiskAndInMemory {
            let copy = "Work/a.sync-conflict-20260101-120000-ABCDEFG.md"
            write("Work/a.md", "Alpha\nmine")
            write(copy, "Alpha\ntheirs")
            let index = try makeIndex()
            _ = try reconciled(index)
            let a = library.folder.appendingPathComponent("Work/a.md"), away = root.file("a.md")
            try FileManager.default.moveItem(at: a, to: away)
            let gone = index.refresh(["Work/a.md"])
            XCTAssertEqual(gone.removed, ["Work/a.md"])
            XCTAssertEqual(gone.upserted.map(\.id), [copy], "the copy is a note of its own now")
            XCTAssertEqual(try index.matches("theirs"), [copy])
            try assertIndexEqualsDisk(index)
            try FileManager.default.moveItem(at: away, to: a)
            let back = index.refresh(["Work/a.md"])
            XCTAssertEqual(back.removed, [copy])
            XCTAssertEqual(back.upserted.map(\.id), ["Work/a.md"])
            XCTAssertEqual(back.upserted.first?.conflictCopies, [(copy as NSString).lastPathComponent])
            XCTAssertEqual(try index.matches("theirs"), [])
            try assertIndexEqualsDisk(index)
        }
    }

    func testRandomChangesWhileClosedAndWhileOpenLeaveTheIndexEqualToTheDisk() throws {
        try onDiskAndInMemory {
            var random = SeededRandom(seed: 1313)
            let words = ["alpha", "beta", "gamma", "café", "Zürich", "x", "ok", "note", "draft"]
            func text() -> String { (0..<(1 + random.next(upTo: 12))).map { _ in words[random.next(upTo: words.count)] }.joined(separator: random.chance(0.3) ? "\n" : " ") }
            var ids: [String] = []
            for number in 0..<60 {
                let id = (random.chance(0.4) ? "Book \(random.next(upTo: 3))/" : "") + "n\(number).md"
                write(id, text())
                ids.append(id)
            }
            var index = try makeIndex()
            _ = try reconciled(index)
            for round in 0..<6 {
                var touched: [String] = []
                for _ in 0..<15 {
                    let id = ids[random.next(upTo: ids.count)]
                    touched.append(id)
                    switch random.next(upTo: 3) {
                    case 0: unlink(library.folder.appendingPathComponent(id).path)
                    default: write(id, text())
                    }
                }
                if round % 2 == 0 {
                    _ = index.refresh(touched)  // while open: the watcher names them
                } else {
                    index = try makeIndex()  // while closed
                    _ = try reconciled(index)
                }
                try assertIndexEqualsDisk(index)
                for word in words + ["a", "ch", "zur", "alpha beta"] {
                    let expected = Set(try onDisk().keys.filter { id in
                        let folded = TextFolding.fold((try? String(contentsOf: library.folder.appendingPathComponent(id), encoding: .utf8)) ?? "")
                        return TextFolding.words(of: word).allSatisfy { folded.contains($0) }
                    })
                    XCTAssertEqual(try index.matches(word), expected, "round \(round), “\(word)”")
                }
            }
        }
    }

    func testAnUnplugedLibraryKeepsItsIndex() throws {
        try onDiskAndInMemory {
            write("a.md", "Alpha")
            let index = try makeIndex()
            _ = try reconciled(index)
            rename(library.folder.path, root.file("Elsewhere").path)
            XCTAssertThrowsError(try reconciled(index))
            XCTAssertEqual(index.summaries().map(\.id), ["a.md"], "not “every note deleted”")
        }
    }

    func testUnreadableNotesAreListedWithTheirReason() throws {
        try onDiskAndInMemory {
            write("a.md", "Alpha")
            let index = try makeIndex()
            // A FIFO named like a note is not a note (never opened).
            mkfifo(library.folder.appendingPathComponent("pipe.md").path, 0o600)
            _ = try reconciled(index)
            XCTAssertEqual(index.summaries().map(\.id), ["a.md"])
        }
    }

    // MARK: Bad caches

    func testAGarbageCacheFileIsReplaced() throws {
        write("a.md", "Alpha")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let url = LibraryIndex.cacheURL(for: library.folder, in: cache)
        try Data(repeating: 0x42, count: 10_000).write(to: url)
        let index = try LibraryIndex(library: library, cacheFolder: cache)
        XCTAssertEqual(index.fileURL, url)
        XCTAssertNil(index.fallbackReason)
        _ = try reconciled(index)
        XCTAssertEqual(try index.matches("alpha"), ["a.md"])
    }

    func testACacheFromAFutureVersionIsReplaced() throws {
        write("a.md", "Alpha")
        _ = try reconciled(LibraryIndex(library: library, cacheFolder: cache))
        let url = LibraryIndex.cacheURL(for: library.folder, in: cache)
        let other = try SQLiteDatabase(path: url.path)
        try other.execute("PRAGMA user_version = 99")
        let index = try LibraryIndex(library: library, cacheFolder: cache)
        XCTAssertEqual(index.summaries(), [], "nothing of the other schema is trusted")
        _ = try reconciled(index)
        XCTAssertEqual(try index.matches("alpha"), ["a.md"])
    }

    /// The list and a search name notes by row id: an id is never given twice in a run, not
    /// after a delete and not by an index started again in memory, or a search could name a
    /// note that is gone for the one that took its id.
    func testARowIdIsNeverGivenTwiceInARun() throws {
        try onDiskAndInMemory {
            struct CacheFailed: Error {}
            write("a.md", "Alpha")
            write("b.md", "Beta")
            let index = try makeIndex()
            let first = try reconciled(index).upserted
            var given = Set(first.compactMap(\.indexRow))
            XCTAssertEqual(given.count, 2)
            let last = try XCTUnwrap(first.max { ($0.indexRow ?? 0) < ($1.indexRow ?? 0) }?.id)
            unlink(library.folder.appendingPathComponent(last).path)  // the largest row goes …
            XCTAssertEqual(index.refresh([last]).removed, [last])
            write("c.md", "Gamma")  // … then a new note comes
            let changes = index.refresh(["c.md"])
            let c = try XCTUnwrap(changes.upserted.first { $0.id == "c.md" }?.indexRow)
            XCTAssertFalse(given.contains(c), "not the row of the note that went")
            given.insert(c)
            index.startOver(because: CacheFailed())
            let again = try reconciled(index)
            XCTAssertEqual(Set(again.upserted.map(\.id)), Set(["a.md", "b.md", "c.md"]).subtracting([last]))
            XCTAssertTrue(again.upserted.allSatisfy { note in note.indexRow.map { !given.contains($0) } ?? false }, "new rows in memory")
            XCTAssertEqual(try index.matches("gamma"), ["c.md"])
        }
    }

    /// The start lists the index on another thread: when that fails, the list is empty, so the
    /// reconcile that follows hands over every note (from an index in memory).
    func testAnIndexThatCannotBeListedHandsOverEveryNote() throws {
        write("a.md", "Alpha")
        write("b.md", "Beta")
        _ = try reconciled(LibraryIndex(library: library, cacheFolder: cache))
        let index = try LibraryIndex(library: library, cacheFolder: cache)
        let other = try SQLiteDatabase(path: LibraryIndex.cacheURL(for: library.folder, in: cache).path)
        try other.execute("ALTER TABLE notes RENAME TO gone")
        XCTAssertEqual(index.summaries(), [])
        XCTAssertTrue(index.couldNotBeListed)
        try other.execute("ALTER TABLE gone RENAME TO notes")  // the index itself is fine again
        let changes = try reconciled(index)
        XCTAssertEqual(Set(changes.upserted.map(\.id)), ["a.md", "b.md"], "every note, though none changed")
        XCTAssertFalse(index.couldNotBeListed)
        XCTAssertEqual(try index.matches("alpha"), ["a.md"])
    }

    func testALockedCacheIsLeftAloneAndTheIndexLivesInMemory() throws {
        write("a.md", "Alpha")
        _ = try reconciled(LibraryIndex(library: library, cacheFolder: cache))
        let url = LibraryIndex.cacheURL(for: library.folder, in: cache)
        let holder = try SQLiteDatabase(path: url.path)
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE")
        let index = try LibraryIndex(library: library, cacheFolder: cache)
        XCTAssertNil(index.fileURL)
        XCTAssertNotNil(index.fallbackReason)
        _ = try reconciled(index)
        XCTAssertEqual(try index.matches("alpha"), ["a.md"], "search works in memory")
        try holder.execute("COMMIT")
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "another program's file is not deleted")
    }

    func testAnUnwritableCacheFolderMeansAnIndexInMemory() throws {
        write("a.md", "Alpha")
        let disk = try SmallDisk(kilobytes: 256)
        try disk.remountReadOnly()
        let index = try LibraryIndex(library: library, cacheFolder: disk.url.appendingPathComponent("notula"))
        XCTAssertNil(index.fileURL)
        _ = try reconciled(index)
        XCTAssertEqual(try index.matches("alpha"), ["a.md"])
    }

    func testACacheDiskThatFillsUpWhileIndexingMeansAnIndexInMemory() throws {
        for number in 0..<40 { write("n\(number).md", "Note \(number) marker\(number)end\n" + (0..<400).map { "word\($0 * number)" }.joined(separator: " ")) }
        let disk = try SmallDisk(kilobytes: 256)
        let index = try LibraryIndex(library: library, cacheFolder: disk.url)
        XCTAssertNotNil(index.fileURL, "it fits at first")
        let changes = try reconciled(index)
        XCTAssertNil(index.fileURL, "then it goes on in memory")
        XCTAssertEqual(Set(changes.upserted.map(\.id)).count, 40)
        XCTAssertEqual(index.summaries().count, 40)
        XCTAssertEqual(try index.matches("marker3end"), ["n3.md"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: LibraryIndex.cacheURL(for: library.folder, in: disk.url).path),
                       "the half-written cache is removed, freeing its space")
    }
}

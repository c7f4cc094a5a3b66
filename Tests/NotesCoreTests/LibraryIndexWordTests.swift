import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The word index (schema 7): a search through the vocabulary finds exactly the notes whose
/// text contains the words, whatever the text (punctuation, non-ASCII, runs too long for
/// FTS5), after changes, and in an index completed from an older Notula's.
final class LibraryIndexWordTests: LibraryIndexTestCase {
    private func text(of id: String) -> String {
        TextFolding.fold((try? String(contentsOf: library.folder.appendingPathComponent(id), encoding: .utf8)) ?? "")
    }

    /// Every query against what reading the notes gives.
    private func assertSearchesReadTheTexts(_ index: LibraryIndex, _ queries: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let texts = Dictionary(uniqueKeysWithValues: try onDisk().keys.map { ($0, text(of: $0)) })
        for query in queries {
            let words = TextFolding.words(of: query)
            let expected = Set(texts.filter { _, text in words.allSatisfy { text.contains($0) } }.keys)
            XCTAssertEqual(try index.matches(query), expected, "“\(query)”", file: file, line: line)
        }
    }

    /// A run of letters longer than FTS5 keeps as one token, with a word in its middle.
    private let longRun = String(repeating: "日本語テキスト", count: 1200) + "needle" + String(repeating: "東京", count: 3000)

    func testWordSearchFindsExactlyWhatTheTextsContain() throws {
        try onDiskAndInMemory {
            var random = SeededRandom(seed: 606)
            let pieces = ["alpha", "Beta", "café", "Zürich", "naïve", "日本語", "東京", "—", "-", "_", "'", "’", "e-mail", "x", "42",
                          "a1b2", " ", " ", "\n", "\t", ".", ",", "ẞ", "\u{00A0}", "déjà-vu", "foo_bar", "ALPHABET", "betamax",
                          "\u{E000}", "\u{E000}ev", "q"]
            func text() -> String { (0..<random.next(upTo: 30)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined() }
            for number in 0..<80 { write("n\(number).md", text()) }
            write("long.md", "Long\n" + longRun + " tail")
            func queries() -> [String] {
                var queries = ["alpha", "alph", "bet", "beta alpha", "cafe", "zurich", "naive", "日本語", "京東", "e-mail", "mail", "foo_bar",
                               "bar", "a1b2", "2a1", "deja-vu", "vu", "needle", "ネ", "テキスト", "needle tail", "alphabet beta", "zebra",
                               "ss", "ẞ", "a\u{00A0}b", "x42", "e", "ev", "q", "2", "\u{E000}e", "\u{E000}ev", "\u{E000}", "ev ta", "q mail"]
                let corpus = (0..<80).map { self.text(of: "n\($0).md") }.filter { $0.count > 3 }
                for _ in 0..<60 {
                    let chosen = Array(corpus[random.next(upTo: corpus.count)])
                    let length = 3 + random.next(upTo: 6)
                    guard chosen.count > length else { continue }
                    let start = random.next(upTo: chosen.count - length)
                    queries.append(String(chosen[start..<(start + length)]).trimmingCharacters(in: .whitespacesAndNewlines))
                }
                return queries.filter { !$0.isEmpty }
            }
            var index = try makeIndex()
            _ = try reconciled(index)
            XCTAssertGreaterThan(try index.writer.integer("SELECT count(*) FROM vocabulary") ?? 0, 10, "the word index is in use")
            XCTAssertEqual(try index.writer.integer("SELECT count(*) FROM longruns"), 1, "the long run's note")
            try assertSearchesReadTheTexts(index, queries())

            // Changed and deleted while open, then while closed: the old words go with the old text.
            var changed: [String] = []
            for number in stride(from: 0, to: 80, by: 3) {
                if number % 2 == 0 { write("n\(number).md", text()) } else { unlink(library.folder.appendingPathComponent("n\(number).md").path) }
                changed.append("n\(number).md")
            }
            write("long.md", "Long\nno longer long")
            _ = index.refresh(changed + ["long.md"])
            XCTAssertEqual(try index.writer.integer("SELECT count(*) FROM longruns"), 0)
            try assertSearchesReadTheTexts(index, queries())
            index = try makeIndex()
            for number in stride(from: 1, to: 80, by: 4) { write("n\(number).md", text()) }
            write("long.md", longRun)
            _ = try reconciled(index)
            try assertSearchesReadTheTexts(index, queries())
            try index.writer.execute("INSERT INTO words(words) VALUES ('integrity-check')")
        }
    }

    /// "qqq" is in more terms than the vocabulary is asked for: the trigram phrase answers.
    /// Typing on reuses the rows of the words already typed, but never after the index changed
    /// (a new note, an edit that took a word away).
    func testAWordsRowsAreReusedOnlyWhileTheIndexIsUnchanged() throws {
        try onDiskAndInMemory {
            write("a.md", "note alpha 4321")
            write("b.md", "note beta 4322")
            let index = try makeIndex()
            _ = try reconciled(index)
            func reused() -> Int { index.wordRows.withLock { $0.reused } }
            XCTAssertEqual(try index.matches("note 43"), ["a.md", "b.md"])
            let before = reused()
            XCTAssertEqual(try index.matches("note 432"), ["a.md", "b.md"])
            XCTAssertEqual(try index.matches("note 4321"), ["a.md"])
            XCTAssertEqual(reused() - before, 2, "“note” was asked for once")

            write("b.md", "beta 4321 without the first word")
            write("c.md", "a new note 4321")
            _ = index.refresh(["b.md", "c.md"])
            XCTAssertEqual(try index.matches("note 4321"), ["a.md", "c.md"], "the change is seen")
            XCTAssertEqual(try index.matches("4321"), ["a.md", "b.md", "c.md"])
            XCTAssertEqual(try index.matches("beta"), ["b.md"])
            unlink(library.folder.appendingPathComponent("a.md").path)
            _ = index.refresh(["a.md"])
            XCTAssertEqual(try index.matches("note 4321"), ["c.md"])
            XCTAssertEqual(try index.matches("4321"), ["b.md", "c.md"])
        }
    }

    func testAWordFoundInManyTermsIsStillFoundExactly() throws {
        try onDiskAndInMemory {
            for number in 0..<300 { write("n\(number).md", "Note\nqqq\(number)x and more") }
            write("other.md", "Other\nq qq")
            let index = try makeIndex()
            _ = try reconciled(index)
            XCTAssertEqual(try index.matches("qqq")?.count, 300)
            XCTAssertEqual(try index.matches("qqq17"), Set(["n17.md"] + (170..<180).map { "n\($0).md" }))
            XCTAssertEqual(try index.matches("qqq17 more"), Set(["n17.md"] + (170..<180).map { "n\($0).md" }))
            XCTAssertEqual(try index.matches("qqq17 less"), [])
        }
    }

    /// A transaction that added terms to the vocabulary and then failed takes them back: the
    /// index must not go on believing it knows them, or the next note with them is unfindable.
    func testTermsOfAFailedTransactionAreAddedAgainLater() throws {
        try onDiskAndInMemory {
            struct Failed: Error {}
            let index = try makeIndex()
            _ = try reconciled(index)
            XCTAssertThrowsError(try index.writing {
                try index.indexWords(999, text: "unheardof words")
                throw Failed()
            })
            XCTAssertEqual(try index.writer.integer("SELECT count(*) FROM vocabulary WHERE term = 'unheardof'"), 0, "rolled back")
            write("a.md", "Title\nUnheardOf words")
            _ = index.refresh(["a.md"])
            XCTAssertEqual(try index.matches("unheard"), ["a.md"])
        }
    }

    /// An index of an older Notula (schema 4: no short-word signatures or word index; 5: no
    /// word index; 6: a word index without short-word tokens) is completed from the texts it
    /// holds: nothing is read or indexed again, and it searches right before, during and after.
    func testAnIndexFromAnOlderVersionIsCompletedWithoutIndexingAgain() throws {
        for version in [4, 5, 6] {
            setUp()
            write("a.md", "Alpha\nzy 42 evening")
            write("b.md", "Beta\nbread")
            _ = try reconciled(LibraryIndex(library: library, cacheFolder: cache))
            let url = LibraryIndex.cacheURL(for: library.folder, in: cache)
            do {
                let old = try SQLiteDatabase(path: url.path)
                // Schema 6 had the word tables (filled: opening it must start them again).
                if version < 6 { try old.execute("DROP TABLE words; DROP TABLE termgrams; DROP TABLE vocabulary; DROP TABLE longruns") }
                if version > 4 { try old.execute("CREATE TABLE grams(id INTEGER PRIMARY KEY, g0 INTEGER NOT NULL)") }
                try old.execute("PRAGMA user_version = \(version)")
            }
            let index = try LibraryIndex(library: library, cacheFolder: cache)
            XCTAssertEqual(Set(index.summaries().map(\.id)), ["a.md", "b.md"], "the index is kept")
            XCTAssertEqual(try index.matches("zy"), ["a.md"], "before the tables are complete: from the texts")
            XCTAssertEqual(try index.matches("even"), ["a.md"])
            XCTAssertEqual(try reconciled(index), LibraryIndex.Changes(), "nothing read again")
            write("c.md", "Gamma\nzy evenings")  // indexed while the tables are incomplete
            write("b.md", "Beta\nbrown bread")
            _ = index.refresh(["c.md", "b.md"])
            _ = index.completeSearchTables()
            XCTAssertEqual(try index.writer.integer("PRAGMA user_version"), LibraryIndex.schemaVersion)
            XCTAssertEqual(try index.writer.integer("SELECT count(*) FROM sqlite_master WHERE name = 'grams'"), 0, "signatures are tokens now")
            XCTAssertEqual(try index.writer.integer("SELECT count(*) FROM vocabulary WHERE term = 'evenings'"), 1)
            XCTAssertEqual(try index.matches("zy"), ["a.md", "c.md"])
            XCTAssertEqual(try index.matches("4"), ["a.md"])
            XCTAssertEqual(try index.matches("evening"), ["a.md", "c.md"])
            XCTAssertEqual(try index.matches("brown"), ["b.md"])
            write("c.md", "Gamma\nmorning")  // the completed word index forgets old words
            _ = index.refresh(["c.md"])
            XCTAssertEqual(try index.matches("evening"), ["a.md"])
            try index.writer.execute("INSERT INTO words(words) VALUES ('integrity-check')")
        }
    }
}

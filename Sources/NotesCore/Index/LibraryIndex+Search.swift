import CSQLite
import Foundation

extension LibraryIndex {
    /// The notes that contain every word of `query`, ignoring case and accents, anywhere
    /// (substrings: "cafe" finds "Cafétéria"), as their index rows (`NoteSummary.indexRow`);
    /// nil for an empty query (every note). Any thread.
    ///
    /// Words of three characters or more made only of term bytes go through the word index
    /// (`LibraryIndex+Words`); other long words are phrases of the trigram index (with
    /// positions, a phrase is an exact substring: no candidate's text is read). Shorter ones
    /// are tokens of the word index (`ShortWordTokens`) when they are letters and digits, else
    /// found with instr() outside FTS5 — SQLite 3.40's trigram code crashes on a pattern under
    /// three characters before a longer one (`LIKE '%ll%' AND LIKE '%eve%'`).
    /// Throws `SearchInterrupted` when `interruptSearch()` stopped it (a newer query came).
    public func matchingRows(_ query: String) throws -> IndexRows? {
        let words = TextFolding.words(of: query)
        guard !words.isEmpty else { return nil }
        let connection = readingConnection()
        let complete = searchTablesComplete.withLock { $0 }
        do {
            return try connection.stoppable { try rows(matching: words, complete: complete, on: connection) }
        } catch let failure as SQLiteDatabase.Failure where failure.primaryCode == SQLITE_INTERRUPT {
            throw SearchInterrupted()
        } catch {
            Self.log("searching the library index failed: \(error)")
            return IndexRows()
        }
    }

    /// `matchingRows`' work, stoppable by `interruptSearch`.
    private func rows(matching words: [String], complete: Bool, on connection: SQLiteDatabase) throws -> IndexRows {
        var search = Search()
        var inTerms: [String] = []
        var foundInNoTerm = false
        for word in words {
            if word.count < 3 {
                if complete, let token = ShortWordTokens.token(for: word) { search.tokens.append(token) } else { search.readWords.append(word) }
            } else if complete, IndexTerms.isInsideOneTerm(word), let terms = try Self.terms(containing: word, in: connection) {
                inTerms.append(word)
                if terms.isEmpty { foundInNoTerm = true } else { search.termGroups.append((word, terms)) }
            } else {
                search.phrases.append(word)
            }
        }
        var found = foundInNoTerm ? IndexRows() : try search.rows(on: connection, cachingIn: self)
        // Notes with a term too long for the word index: their texts tell.
        if !inTerms.isEmpty, try connection.integer("SELECT EXISTS (SELECT 1 FROM longruns)") == 1 {
            found.formUnion(try Self.longRunRows(containing: words, on: connection))
        }
        return found
    }

    /// The notes in `longruns` whose text contains every word (few notes: their texts are read).
    private static func longRunRows(containing words: [String], on connection: SQLiteDatabase) throws -> IndexRows {
        let conditions = words.map { _ in "instr(bodies.text, ?) > 0" }.joined(separator: " AND ")
        return try rows("SELECT notula_rows(longruns.id) FROM longruns CROSS JOIN bodies ON bodies.rowid = longruns.id WHERE \(conditions)",
                        words.map { .text($0) }, on: connection)
    }

    /// The one bitmap `sql` (a `notula_rows` aggregate) answers.
    private static func rows(_ sql: String, _ values: [SQLiteDatabase.Value], on connection: SQLiteDatabase) throws -> IndexRows {
        try connection.prepare(sql).first(values) { IndexRows(bitmap: [UInt8]($0.data(0))) } ?? IndexRows()
    }

    /// `matchingRows` as the notes' ids (paths in the library).
    public func matches(_ query: String) throws -> Set<String>? {
        guard let rows = try matchingRows(query) else { return nil }
        var found = Set<String>()
        let connection = readingConnection()
        do {
            try connection.stoppable {
                try connection.prepare("SELECT id, path FROM notes").forEach { note in
                    if rows.contains(note.integer(0)) { found.insert(note.text(1)) }
                }
            }
        } catch let failure as SQLiteDatabase.Failure where failure.primaryCode == SQLITE_INTERRUPT {
            throw SearchInterrupted()
        }
        return found
    }

    /// Has the searching connection read what every search needs first (each FTS5 table's
    /// structure, ~10 ms at 100,000 notes), so the first keystroke does not. Any thread.
    public func prepareSearch() {
        let connection = readingConnection()
        for table in ["words", "bodies", "termgrams"] {
            _ = try? connection.integer("SELECT count(*) FROM \(table) WHERE \(table) MATCH '\"qqz\"'")
        }
    }

    /// A search was stopped because a newer one came.
    public struct SearchInterrupted: Error {}

    /// Stops the search running now, if any (any thread); not the list's reading, nor a
    /// search begun later.
    public func interruptSearch() {
        readingConnection().stopStoppable()
    }

    /// A search over the word index and the trigram index. Each word is asked for alone and
    /// the bitmaps are intersected, its rows kept in `wordRows` while the index is unchanged
    /// (`PRAGMA data_version` of the reading connection); with a word read in the texts, each
    /// FTS5 table is asked once (a join of two FTS5 tables asks the inner one once per row).
    private struct Search {
        /// Per query word, the terms that contain it (any of them will do).
        var termGroups: [(word: String, terms: [String])] = []
        /// Short words as `ShortWordTokens`.
        var tokens: [String] = []
        /// Words found as trigram phrases.
        var phrases: [String] = []
        /// Words looked for in the texts (instr).
        var readWords: [String] = []

        /// `index`: whose `wordRows` to use (nil: none).
        func rows(on connection: SQLiteDatabase, cachingIn index: LibraryIndex?) throws -> IndexRows {
            if readWords.isEmpty { return try rowsWordByWord(on: connection, cachingIn: index) }
            let wordsMatch = (termGroups.map { Self.anyOf($0.terms) } + tokens.map(LibraryIndex.phrase))
                .joined(separator: " AND ")
            let read = readWords.map { _ in " AND instr(bodies.text, ?) > 0" }.joined()
            let readValues = readWords.map { SQLiteDatabase.Value.text($0) }
            let inWords = "SELECT notula_rows(words.rowid) FROM words"
            if wordsMatch.isEmpty {
                return try inBodies(read: read, readValues, on: connection)
            }
            if phrases.isEmpty {
                // Words read in the texts are read only in the notes with the other words.
                let join = read.isEmpty ? "" : " JOIN bodies ON bodies.rowid = words.rowid"
                return try LibraryIndex.rows(inWords + join + " WHERE words MATCH ?" + read, [.text(wordsMatch)] + readValues, on: connection)
            }
            var found = try LibraryIndex.rows(inWords + " WHERE words MATCH ?", [.text(wordsMatch)], on: connection)
            found.formIntersection(try inBodies(read: read, readValues, on: connection))
            return found
        }

        /// Each word's rows alone, from `index.wordRows` when the index has not changed since,
        /// intersected: only a word typed since the last search is asked for.
        private func rowsWordByWord(on connection: SQLiteDatabase, cachingIn index: LibraryIndex?) throws -> IndexRows {
            if let index {
                let version = try connection.integer("PRAGMA data_version") ?? -1
                index.wordRows.withLock { $0.check(connection: ObjectIdentifier(connection), version: version) }
            }
            let inWords = "SELECT notula_rows(rowid) FROM words WHERE words MATCH ?"
            let parts = termGroups.map { (key: "w" + $0.word, sql: inWords, match: Self.anyOf($0.terms)) }
                + tokens.map { (key: "s" + $0, sql: inWords, match: LibraryIndex.phrase($0)) }
                + phrases.map { (key: "p" + $0, sql: "SELECT notula_rows(rowid) FROM bodies WHERE bodies MATCH ?", match: LibraryIndex.phrase($0)) }
            var found: IndexRows?
            for part in parts {
                let rows: IndexRows
                if let known = index?.wordRows.withLock({ $0.rows(for: part.key) }) {
                    rows = known
                } else {
                    rows = try LibraryIndex.rows(part.sql, [.text(part.match)], on: connection)
                    index?.wordRows.withLock { $0.keep(rows, for: part.key) }
                }
                if found == nil { found = rows } else { found?.formIntersection(rows) }
            }
            return found ?? IndexRows()
        }

        /// Any of `terms`, for a MATCH.
        private static func anyOf(_ terms: [String]) -> String {
            "(" + terms.map(LibraryIndex.phrase).joined(separator: " OR ") + ")"
        }

        /// The notes with every phrase whose texts contain the words read.
        private func inBodies(read: String, _ readValues: [SQLiteDatabase.Value], on connection: SQLiteDatabase) throws -> IndexRows {
            let match = phrases.isEmpty ? "1" : "bodies MATCH ?"
            let values: [SQLiteDatabase.Value] = phrases.isEmpty ? [] : [.text(phrases.map(LibraryIndex.phrase).joined(separator: " AND "))]
            return try LibraryIndex.rows("SELECT notula_rows(bodies.rowid) FROM bodies WHERE \(match)" + read, values + readValues, on: connection)
        }
    }
}

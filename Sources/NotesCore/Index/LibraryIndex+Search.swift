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
    /// are a bit of the note's `ShortWordSignature` when they are letters and digits, else
    /// found with instr() outside FTS5 — SQLite 3.40's trigram code crashes on a pattern under
    /// three characters before a longer one (`LIKE '%ll%' AND LIKE '%eve%'`).
    /// Throws `SearchInterrupted` when `interruptSearch()` stopped it (a newer query came).
    public func matchingRows(_ query: String) throws -> IndexRows? {
        let words = TextFolding.words(of: query)
        guard !words.isEmpty else { return nil }
        let connection = readingConnection()
        let complete = searchTablesComplete.withLock { $0 }
        do {
            var search = Search(shortWords: words.filter { $0.count < 3 }, signatures: complete)
            var inTerms: [String] = []
            var foundInNoTerm = false
            for word in words where word.count >= 3 {
                if complete, IndexTerms.isInsideOneTerm(word), let terms = try Self.terms(containing: word, in: connection) {
                    inTerms.append(word)
                    if terms.isEmpty { foundInNoTerm = true } else { search.termGroups.append(terms) }
                } else {
                    search.phrases.append(word)
                }
            }
            var found = foundInNoTerm ? IndexRows() : try search.rows(on: connection)
            // Notes with a term too long for the word index: the trigram phrases tell.
            if !inTerms.isEmpty, try connection.integer("SELECT EXISTS (SELECT 1 FROM longruns)") == 1 {
                search.termGroups = []
                search.phrases += inTerms
                search.onlyLongRuns = true
                found.formUnion(try search.rows(on: connection))
            }
            return found
        } catch let failure as SQLiteDatabase.Failure where failure.code == SQLITE_INTERRUPT {
            throw SearchInterrupted()
        } catch {
            Self.log("searching the library index failed: \(error)")
            return IndexRows()
        }
    }

    /// `matchingRows` as the notes' ids (paths in the library).
    public func matches(_ query: String) throws -> Set<String>? {
        guard let rows = try matchingRows(query) else { return nil }
        let notes = try readingConnection().prepare("SELECT id, path FROM notes")
        try notes.bind([])
        var found = Set<String>()
        while try notes.step() {
            if rows.contains(notes.integer(0)) { found.insert(notes.text(1)) }
        }
        return found
    }

    /// A search was stopped because a newer one came.
    public struct SearchInterrupted: Error {}

    /// Stops the search running now, if any (any thread).
    public func interruptSearch() {
        readingConnection().interrupt()
    }

    /// One query over the index's tables, joined on the note's row id.
    private struct Search {
        /// Per query word, the terms that contain it (any of them will do).
        var termGroups: [[String]] = []
        /// Words found as trigram phrases.
        var phrases: [String] = []
        var shortWords: [String]
        /// Whether short-word signatures can be trusted.
        var signatures: Bool
        /// Only the notes in `longruns`.
        var onlyLongRuns = false

        init(shortWords: [String], signatures: Bool) {
            self.shortWords = shortWords
            self.signatures = signatures
        }

        /// Each table with its row-id column, in the order that drives the join best (the most
        /// selective index first).
        private static let tables = [("words", "rowid"), ("bodies", "rowid"), ("grams", "id"), ("longruns", "id")]

        /// The rows that match, handed over as one bitmap (`notula_rows`).
        func rows(on connection: SQLiteDatabase) throws -> IndexRows {
            var used: Set<String> = onlyLongRuns ? ["longruns"] : []
            var conditions: [String] = []
            var values: [SQLiteDatabase.Value] = []
            if !termGroups.isEmpty {
                used.insert("words")
                conditions.append("words MATCH ?")
                values.append(.text(termGroups.map { "(" + $0.map(LibraryIndex.phrase).joined(separator: " OR ") + ")" }.joined(separator: " AND ")))
            }
            if !phrases.isEmpty {
                used.insert("bodies")
                conditions.append("bodies MATCH ?")
                values.append(.text(phrases.map(LibraryIndex.phrase).joined(separator: " AND ")))
            }
            for word in shortWords {
                if signatures, let test = ShortWordSignature.test(for: word) {
                    used.insert("grams")
                    conditions.append("(grams.\(test.column) & ?) != 0")
                    values.append(.integer(test.mask))
                } else {
                    used.insert("bodies")
                    conditions.append("instr(bodies.text, ?) > 0")
                    values.append(.text(word))
                }
            }
            let joined = Self.tables.filter { used.contains($0.0) }
            guard let (first, key) = joined.first else { return IndexRows() }
            var source = first
            for (table, column) in joined.dropFirst() { source += " JOIN \(table) ON \(table).\(column) = \(first).\(key)" }
            let rows = try connection.prepare("SELECT notula_rows(\(first).\(key)) FROM \(source) WHERE " + conditions.joined(separator: " AND "))
            try rows.bind(values)
            guard try rows.step() else { return IndexRows() }
            return IndexRows(bitmap: [UInt8](rows.data(0)))
        }
    }
}

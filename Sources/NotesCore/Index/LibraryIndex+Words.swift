import Foundation

/// The word index beside the trigram index (schema 7). A trigram phrase costs FTS5 a check of
/// positions in every note holding its trigrams (8–13 ms for "evening" at 10,000 notes, every
/// keystroke); instead a query word made only of term bytes (`IndexTerms`) becomes the terms
/// of the vocabulary that contain it (a trigram search of a short table), then an OR of those
/// terms in `words` (no positions: ~1 ms). Exact, because such a word occurs only inside one
/// term. Words with punctuation, or found in too many terms, keep the trigram phrase.
///
/// - `words`: contentless FTS5 (`ascii` tokenizer, no positions) over the same folded text as
///   `bodies`, plus its `ShortWordTokens`; a row is deleted with its old text, read from
///   `bodies` first.
/// - `vocabulary` + `termgrams`: every term ever indexed and a trigram index over them. Terms
///   are never removed (a stale term only matches no note).
/// - `longruns`: notes with a term too long for FTS5 (`IndexTerms.longestTerm`); their texts
///   are read as well.
extension LibraryIndex {
    static var wordTables: String {
        """
        CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(text, tokenize = 'ascii', detail = 'none', content = '');
        CREATE TABLE IF NOT EXISTS vocabulary(id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
        CREATE VIRTUAL TABLE IF NOT EXISTS termgrams USING fts5(term, content = 'vocabulary', content_rowid = 'id', tokenize = 'trigram');
        CREATE TABLE IF NOT EXISTS longruns(id INTEGER PRIMARY KEY);
        """
    }

    /// More terms than this contain a query word ("eve"): the trigram phrase is cheaper.
    static let mostTermsPerWord = 200

    /// What `words` holds for a note's folded text (its terms, then its short-word tokens),
    /// and the text its terms are taken from.
    static func wordsText(of folded: String) -> (indexed: String, plain: String) {
        let plain = IndexTerms.withoutMarker(folded)
        return (plain + " " + ShortWordTokens.tokens(of: folded), plain)
    }

    /// Adds a note's folded text to the word tables (the writing queue, in a transaction).
    /// Terms not known to be in the vocabulary are added at the end of the transaction
    /// (`addNewTerms`): each write to an ordinary table opens a statement savepoint, at which
    /// FTS5 flushes what it holds of `bodies` and `words` as a new segment — once per note
    /// with a new term (most notes have one: a number, a name), it took half of a first
    /// start's indexing (issue #29).
    func indexWords(_ rowid: Int64, text: String) throws {
        try indexWords(rowid, words: Self.wordsText(of: text))
    }

    /// `indexWords` with the text's `wordsText` made already (off the writing queue).
    func indexWords(_ rowid: Int64, words: (indexed: String, plain: String)) throws {
        let (indexed, plain) = words
        try statement("INSERT INTO words(rowid, text) VALUES (?, ?)").run([.integer(rowid), .text(indexed)])
        let allKept = IndexTerms.forEach(in: plain) { bytes, hash in
            guard !knownTerms.contains(hash) else { return }
            newTerms.append(String(decoding: bytes, as: UTF8.self))
            knownTerms.insert(hash)
        }
        if !allKept {
            try statement("INSERT OR IGNORE INTO longruns(id) VALUES (?)").run([.integer(rowid)])
        }
    }

    /// Writes the terms `indexWords` met that the vocabulary may lack (before a commit).
    func addNewTerms() throws {
        guard !newTerms.isEmpty else { return }
        let terms = newTerms
        newTerms = []
        let newTerm = try statement("INSERT INTO vocabulary(term) VALUES (?) ON CONFLICT DO NOTHING RETURNING id")
        var added: [(id: Int64, term: String)] = []
        for term in Set(terms) {
            if let id = try newTerm.first([.text(term)], { $0.integer(0) }) { added.append((id, term)) }
        }
        // After the vocabulary's rows: each of those writes would flush what FTS5 holds of
        // `termgrams` again.
        let gram = try statement("INSERT INTO termgrams(rowid, term) VALUES (?, ?)")
        for (id, term) in added { try gram.run([.integer(id), .text(term)]) }
    }

    /// A transaction rolled back: terms it added are gone, and so are those it meant to add.
    func forgetTerms() {
        knownTerms.forgetAll()
        newTerms = []
    }

    /// Removes a note's text, exactly as it was indexed, from the word tables.
    func unindexWords(_ rowid: Int64, text: String) throws {
        try statement("INSERT INTO words(words, rowid, text) VALUES ('delete', ?, ?)").run([.integer(rowid), .text(Self.wordsText(of: text).indexed)])
        try statement("DELETE FROM longruns WHERE id = ?").run([.integer(rowid)])
    }

    /// Runs `body` in one transaction of the writer; when it fails (rolled back), terms it
    /// added are no longer in the vocabulary, so `knownTerms` forgets them all.
    func writing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try writer.transaction {
                let result = try body()
                try addNewTerms()
                return result
            }
        } catch {
            forgetTerms()
            throw error
        }
    }

    /// An index of schema 4, 5 or 6 is kept, not built again (a minute for 100,000 notes): its
    /// word index is filled from the texts it holds, after the start (seconds, on the writing
    /// queue). Until then short words are looked for with instr() and long ones with trigram
    /// phrases, and writes leave the word tables alone. One transaction: killed halfway, the
    /// index stays as it was and the next start does it again. When it keeps failing the
    /// index starts over, and the changes hand over every note read again (`everyNote`).
    public func completeSearchTables() -> Changes {
        guard !isClosed, !isStopped, !searchTablesComplete.withLock({ $0 }) else { return Changes() }
        do {
            try SQLiteStore.retrying {
                try writing {
                    try writer.prepare("SELECT rowid, text FROM bodies").forEach { try indexWords($0.integer(0), text: $0.text(1)) }
                    try writer.execute("PRAGMA user_version = \(Self.schemaVersion)")
                }
            }
            searchTablesComplete.withLock { $0 = true }
            return Changes()
        } catch {
            startOver(because: error)
            return everything()
        }
    }

    /// The terms that contain `word` (folded, ≥ 3 characters, `IndexTerms.isInsideOneTerm`),
    /// or nil when there are more than `mostTermsPerWord`.
    static func terms(containing word: String, in connection: SQLiteDatabase) throws -> [String]? {
        let terms = try connection.prepare("SELECT term FROM termgrams WHERE termgrams MATCH ? LIMIT \(mostTermsPerWord + 1)")
            .all([.text(phrase(word))]) { $0.text(0) }
        return terms.count > mostTermsPerWord ? nil : terms
    }

    /// `word` as an FTS5 string: every character literal.
    static func phrase(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

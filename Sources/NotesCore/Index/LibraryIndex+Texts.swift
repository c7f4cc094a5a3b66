import Foundation

/// Texts after rows (issue #29). A reconcile writes each new or changed note's row from the
/// first few KB of its file (title, preview, dates: what the list shows) and names the note in
/// `unindexed`; its full text (the trigram and word indexes) follows in batches
/// (`indexWaitingTexts`), so a first start lists 100,000 notes in seconds and search fills in
/// behind it. `unindexed` is part of the index: a quit halfway resumes at the next start.
/// A changed note keeps its old text until its new one is in (search finds what it held).
extension LibraryIndex {
    static var unindexedTable: String {
        "CREATE TABLE IF NOT EXISTS unindexed(id INTEGER PRIMARY KEY);"
    }

    /// How many notes are indexed and how many of them have their full text in.
    public struct TextProgress: Equatable, Sendable {
        public var indexed: Int
        public var total: Int
        public var isComplete: Bool { indexed >= total }

        public init(indexed: Int, total: Int) {
            (self.indexed, self.total) = (indexed, total)
        }
    }

    /// What `indexWaitingTexts` did.
    public struct TextStep: Sendable {
        public var progress: TextProgress
        /// Changes for the list (only when the index started over: every note).
        public var changes: Changes
    }

    /// The notes whose full text is still to come, of all (the writing queue).
    public func textProgress() -> TextProgress {
        let total = (try? writer.integer("SELECT count(*) FROM notes")) ?? 0
        let waiting = (try? writer.integer("SELECT count(*) FROM unindexed")) ?? 0
        return TextProgress(indexed: Int(total - waiting), total: Int(total))
    }

    /// Indexes the full text of notes waiting (`unindexed`) for about `seconds` (at least
    /// one note), in one transaction (the writing queue). A note that cannot be read any more
    /// leaves the queue (its row says why, or the watcher removes it). A failure that stays
    /// starts the index over: the step's changes then hand over every note.
    public func indexWaitingTexts(seconds: TimeInterval = 0.25) -> TextStep {
        guard !isClosed, !isStopped else { return TextStep(progress: textProgress(), changes: Changes()) }
        var changes = Changes()
        do {
            try SQLiteStore.retrying {
                try writing {
                    let started = Date()
                    let waiting = try statement("SELECT unindexed.id, notes.path FROM unindexed LEFT JOIN notes ON notes.id = unindexed.id LIMIT 256")
                    repeat {
                        let batch = try waiting.all { ($0.integer(0), $0.isNull(1) ? nil : $0.text(1)) }
                        if batch.isEmpty { break }
                        for (rowid, path) in batch {
                            if let path { try indexText(rowid, id: path) }
                            try statement("DELETE FROM unindexed WHERE id = ?").run([.integer(rowid)])
                        }
                    } while !isStopped && Date().timeIntervalSince(started) < seconds
                }
            }
        } catch {
            startOver(because: error)
            changes = everything()
        }
        return TextStep(progress: textProgress(), changes: changes)
    }

    /// Indexes every waiting text (tests, the crash writer; the app goes a step at a time).
    /// Returns the changes of a start over, if any.
    @discardableResult
    public func indexAllWaitingTexts() -> Changes {
        var changes = Changes()
        while !isClosed, !isStopped {
            let step = indexWaitingTexts()
            if let every = step.changes.everyNote { changes = Changes(everyNote: every) }
            if step.progress.isComplete { break }
        }
        return changes
    }

    /// Reads a note's text and puts it in the search tables in place of what they held.
    private func indexText(_ rowid: Int64, id: String) throws {
        guard let (bytes, _) = try? RegularFile.prefix(library.folder.appendingPathComponent(id), count: Self.indexedBytes) else { return }
        let text = TextFolding.fold(String(decoding: bytes, as: UTF8.self))
        let indexed = try indexedText(rowid)
        if indexed == text { return }
        try replaceText(rowid, indexed: indexed, with: text)
    }
}

import Dispatch
import Foundation
import Synchronization

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

    /// Frees the writer's page cache once the texts are in (the writing queue): it holds the
    /// last pages of the indexing (up to 2 MB), which the next saves' small writes seldom need.
    /// The reader keeps its cache: searches read it.
    public func releaseWritingCache() {
        writer.releaseMemory()
    }

    /// Indexes the full text of notes waiting (`unindexed`) for about `seconds` (at least
    /// one batch), in one transaction (the writing queue). The next batch's files are read
    /// and folded on another core while this one is written (the window's core is idle by
    /// then). A note that cannot be read any more leaves the queue (its row says why, or the
    /// watcher removes it). A failure that stays starts the index over: the step's changes
    /// then hand over every note.
    public func indexWaitingTexts(seconds: TimeInterval = 0.25) -> TextStep {
        guard !isClosed, !isStopped else { return TextStep(progress: textProgress(), changes: Changes()) }
        var changes = Changes()
        do {
            try SQLiteStore.retrying {
                try writing {
                    let started = Date()
                    let waiting = try statement("""
                        SELECT unindexed.id, notes.path FROM unindexed LEFT JOIN notes ON notes.id = unindexed.id
                        WHERE unindexed.id > ? ORDER BY unindexed.id LIMIT 128
                        """)
                    func batch(after rowid: Int64) throws -> [(rowid: Int64, id: String?)] {
                        try waiting.all([.integer(rowid)]) { ($0.integer(0), $0.isNull(1) ? nil : $0.text(1)) }
                    }
                    let library = self.library
                    let withWords = searchTablesComplete.withLock { $0 }
                    var current = try batch(after: 0)
                    var ready = Self.prepare(current, in: library, withWords: withWords)
                    // Written after the texts: an ordinary table's write in between would make
                    // FTS5 flush a segment per note (see `indexWords`).
                    var references: [(Int64, NoteReferences?)] = []
                    while let last = current.last {
                        let next = !isStopped && Date().timeIntervalSince(started) < seconds ? try batch(after: last.rowid) : []
                        let coming = next.isEmpty ? nil : PreparedBatch { Self.prepare(next, in: library, withWords: withWords) }
                        for text in ready {
                            if let folded = text.folded {
                                let indexed = try indexedText(text.rowid)
                                if indexed != folded { try replaceText(text.rowid, indexed: indexed, with: folded, words: text.words) }
                            }
                            try statement("DELETE FROM unindexed WHERE id = ?").run([.integer(text.rowid)])
                            references.append((text.rowid, text.references))
                        }
                        guard let coming else { break }
                        current = next
                        ready = coming.wait()
                    }
                    for (rowid, found) in references { try setReferences(rowid, found) }
                }
            }
        } catch {
            startOver(because: error)
            changes = everything()
        }
        return TextStep(progress: textProgress(), changes: changes)
    }

    /// A note's text, read and folded, and what the word index takes of it (any thread).
    struct PreparedText: Sendable {
        let rowid: Int64
        /// Nil: the file cannot be read (any more).
        let folded: String?
        let words: (indexed: String, plain: String)?
        let references: NoteReferences?
    }

    static func prepare(_ batch: [(rowid: Int64, id: String?)], in library: NoteLibrary, withWords: Bool) -> [PreparedText] {
        batch.map { note in
            guard let id = note.id, let (bytes, _) = try? RegularFile.prefix(library.folder.appendingPathComponent(id), count: indexedBytes) else {
                return PreparedText(rowid: note.rowid, folded: nil, words: nil, references: nil)
            }
            let raw = String(decoding: bytes, as: UTF8.self)
            let folded = TextFolding.fold(raw)
            return PreparedText(rowid: note.rowid, folded: folded, words: withWords ? wordsText(of: folded) : nil,
                                references: NoteReferences(text: raw, noteID: id))
        }
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

}

/// A batch of texts prepared on another thread; `wait` hands it over.
private final class PreparedBatch: Sendable {
    /// Below the window, as the index's own thread is: on two cores, reading and folding at the
    /// rest of the app's priority took a third of the CPU from the main thread's frames.
    private static let preparing = LowPriorityQueue(label: "notula.index-prepare")
    private let result = Mutex<[LibraryIndex.PreparedText]?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () -> [LibraryIndex.PreparedText]) {
        Self.preparing.async { [self] in
            let prepared = work()
            result.withLock { $0 = prepared }
            done.signal()
        }
    }

    func wait() -> [LibraryIndex.PreparedText] {
        done.wait()
        return result.withLock { $0 } ?? []
    }
}

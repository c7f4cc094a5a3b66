import CSQLite
import Foundation

/// Links and tags beside the notes (schema 9, issue #32): `links` holds each `[[Title]]` and
/// relative note link of a note (`NoteReferences`: a title's key or a note's path, with the
/// line that links), `tags` each note's `#tags` by key, and `notes.folded` each note's title
/// as `TitleKey` folds it. They are written with the note's full text, by the same reconcile,
/// text steps and refreshes, so another program's edits count as Notula's do.
///
/// Reads use the search's connection (any thread; a search's interrupt is tried again) and
/// are indexed lookups: a note's backlinks, a tag's notes and title completions stay within
/// a few milliseconds at 100,000 notes (`bench_links.py`).
extension LibraryIndex {
    static var linkTables: String {
        """
        CREATE INDEX IF NOT EXISTS notes_folded ON notes(folded);
        CREATE TABLE IF NOT EXISTS links(source INTEGER NOT NULL, target TEXT NOT NULL, line INTEGER NOT NULL, context TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS links_target ON links(target);
        CREATE INDEX IF NOT EXISTS links_source ON links(source);
        CREATE TABLE IF NOT EXISTS tags(note INTEGER NOT NULL, tag TEXT NOT NULL, written TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS tags_tag ON tags(tag);
        CREATE INDEX IF NOT EXISTS tags_note ON tags(note);
        """
    }

    /// An index of schema 8 or older gains the tables, its titles' keys, and every note's
    /// text is read again (in the background, as any waiting text) for its links and tags.
    /// Done again after a stop halfway (schema 4–6 keep their version until later).
    static func addLinkTables(to database: SQLiteDatabase) throws {
        if try database.integer("SELECT count(*) FROM pragma_table_info('notes') WHERE name = 'folded'") == 0 {
            try database.execute("ALTER TABLE notes ADD COLUMN folded TEXT NOT NULL DEFAULT ''")
        }
        try database.execute(linkTables)
        let titles = try database.prepare("SELECT id, title FROM notes").all { ($0.integer(0), $0.text(1)) }
        let update = try database.prepare("UPDATE notes SET folded = ? WHERE id = ?")
        for (id, title) in titles { try update.run([.text(TitleKey.of(title)), .integer(id)]) }
        try database.execute("INSERT OR IGNORE INTO unindexed(id) SELECT id FROM notes;")
    }

    // MARK: Writing (the writing queue, in a transaction)

    /// Puts a note's links and tags in place of what the index held of it (nil: none).
    func setReferences(_ rowid: Int64, _ references: NoteReferences?) throws {
        try statement("DELETE FROM links WHERE source = ?").run([.integer(rowid)])
        try statement("DELETE FROM tags WHERE note = ?").run([.integer(rowid)])
        guard let references else { return }
        let link = try statement("INSERT INTO links(source, target, line, context) VALUES (?, ?, ?, ?)")
        for found in references.links {
            try link.run([.integer(rowid), .text(found.target), .integer(Int64(found.line)), .text(found.context)])
        }
        let tag = try statement("INSERT INTO tags(note, tag, written) VALUES (?, ?, ?)")
        for found in references.tags { try tag.run([.integer(rowid), .text(found.key), .text(found.written)]) }
    }

    // MARK: Reading (any thread)

    /// A note that links to another, with the first line that does.
    public struct Backlink: Equatable, Sendable {
        public var noteID: String
        public var title: String
        public var line: Int
        public var context: String
    }

    /// A tag, how it was first written, and how many notes hold it or a tag inside it.
    public struct TagCount: Equatable, Sendable {
        public var key: String
        public var name: String
        public var count: Int
    }

    /// A note found by its title.
    public struct TitledNote: Equatable, Sendable {
        public var noteID: String
        public var title: String
    }

    /// The notes that link to the note `noteID` titled `title` — by `[[title]]` or by a
    /// relative link to its file —, newest first, each once, itself left out.
    public func backlinks(toNote noteID: String, title: String) -> [Backlink] {
        let rows = reading { connection in
            try connection.prepare("""
                SELECT notes.path, notes.title, links.line, links.context FROM links JOIN notes ON notes.id = links.source
                WHERE links.target IN (?, ?) AND notes.path != ? ORDER BY notes.modified DESC, notes.path, links.line
                """).all([.text(NoteReferences.Target.title(TitleKey.of(title))), .text(NoteReferences.Target.note(noteID)), .text(noteID)]) {
                Backlink(noteID: $0.text(0), title: $0.text(1), line: Int($0.integer(2)), context: $0.text(3))
            }
        } ?? []
        var seen = Set<String>()
        return rows.filter { seen.insert($0.noteID).inserted }
    }

    /// The notes (ids) whose text links to the title `key` (a `TitleKey`) by `[[…]]`.
    public func notesLinking(toTitle key: String) -> [String] {
        reading { connection in
            try connection.prepare("SELECT DISTINCT notes.path FROM links JOIN notes ON notes.id = links.source WHERE links.target = ?")
                .all([.text(NoteReferences.Target.title(key))]) { $0.text(0) }
        } ?? []
    }

    /// The notes titled `key` (a `TitleKey`): none, one, or several (which one is asked).
    public func notes(titled key: String) -> [TitledNote] {
        reading { connection in
            try connection.prepare("SELECT path, title FROM notes WHERE folded = ? ORDER BY modified DESC")
                .all([.text(key)]) { TitledNote(noteID: $0.text(0), title: $0.text(1)) }
        } ?? []
    }

    /// Which of the title keys `keys` some note has (the editor draws links to the others as missing).
    public func existingTitles(_ keys: Set<String>) -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return reading { connection in
            var found = Set<String>()
            let query = try connection.prepare("SELECT 1 FROM notes WHERE folded = ? LIMIT 1")
            for key in keys where try query.first([.text(key)], { _ in true }) == true { found.insert(key) }
            return found
        } ?? []
    }

    /// Titles for `[[` completion: those starting with `typed` (folded) first, in title
    /// order, then those containing it, at most `limit`.
    public func titles(matching typed: String, limit: Int = 8) -> [TitledNote] {
        let key = TitleKey.of(typed)
        return reading { connection in
            let read = { (row: SQLiteDatabase.Row) in TitledNote(noteID: row.text(0), title: row.text(1)) }
            var found = try connection.prepare("SELECT path, title FROM notes WHERE folded >= ? AND folded < ? ORDER BY folded LIMIT ?")
                .all([.text(key), .text(key + "\u{10FFFF}"), .integer(Int64(limit))], read)
            if found.count < limit, !key.isEmpty {
                // Containing it, not at the start: the keys in memory (`TitleKeysCache`).
                let rows = try titleKeys(on: connection).rows(containing: key, limit: limit - found.count)
                let row = try connection.prepare("SELECT path, title FROM notes WHERE id = ?")
                for id in rows { if let note = try row.first([.integer(id)], read) { found.append(note) } }
            }
            return found
        } ?? []
    }

    /// Every tag with the number of notes holding it or a tag inside it, in key order (by
    /// parts, so a tag's children follow it).
    public func tagCounts() -> [TagCount] {
        reading { connection in
            var tags = try connection.prepare("SELECT tag, min(written), count(DISTINCT note) FROM tags GROUP BY tag ORDER BY tag")
                .all { TagCount(key: $0.text(0), name: $0.text(1), count: Int($0.integer(2))) }
            // A tag only written inside others (#work/meetings without #work) is listed too.
            let known = Set(tags.map(\.key))
            var parents: [String: String] = [:]
            for tag in tags {
                let parts = tag.name.split(separator: "/")
                for (depth, key) in TagMention.lineage(of: tag.key).dropLast().enumerated() where !known.contains(key) && parents[key] == nil {
                    parents[key] = parts.prefix(depth + 1).joined(separator: "/")
                }
            }
            tags += parents.map { TagCount(key: $0.key, name: $0.value, count: 0) }
            // A tag with tags inside it counts their notes too (each note once).
            let withChildren = Set(tags.flatMap { TagMention.lineage(of: $0.key).dropLast() })
            let count = try connection.prepare("SELECT count(DISTINCT note) FROM tags WHERE tag = ? OR (tag > ? AND tag < ?)")
            for index in tags.indices where withChildren.contains(tags[index].key) {
                let key = tags[index].key
                tags[index].count = Int(try count.first([.text(key), .text(key + "/"), .text(key + "0")]) { $0.integer(0) } ?? 0)
            }
            // By parts: "work/meetings" right under "work", before "work-x".
            return tags.sorted { $0.key.split(separator: "/").lexicographicallyPrecedes($1.key.split(separator: "/")) }
        } ?? []
    }

    /// The notes (ids) holding the tag `key` or a tag inside it.
    public func notes(taggedWith key: String) -> Set<String> {
        Set(reading { connection in
            try connection.prepare("SELECT DISTINCT notes.path FROM tags JOIN notes ON notes.id = tags.note WHERE tags.tag = ? OR (tags.tag > ? AND tags.tag < ?)")
                .all([.text(key), .text(key + "/"), .text(key + "0")]) { $0.text(0) }
        } ?? [])
    }

    /// Reads the titles' keys for completion now if the index changed since they were read
    /// (40 ms at 100,000 notes): the window asks after each change, off the main thread, so a
    /// `[[` typed later finds them ready.
    public func prepareTitleKeys() {
        _ = reading { try titleKeys(on: $0) }
    }

    /// `prepareTitleKeys` once the keys are in use (a `[[` completion or a desktop search read
    /// them): a library whose links nobody completes does not keep every title in memory.
    public func refreshTitleKeysInUse() {
        guard titleKeysCache.withLock({ $0 != nil }) else { return }
        prepareTitleKeys()
    }

    /// The titles' keys as last committed, read again when the index changed since.
    func titleKeys(on connection: SQLiteDatabase) throws -> TitleKeysCache {
        let version = try connection.integer("PRAGMA data_version") ?? 0
        let id = ObjectIdentifier(connection)
        if let cached = titleKeysCache.withLock({ $0 }), cached.connection == id, cached.version == version { return cached }
        let keys = try connection.prepare("SELECT id, folded FROM notes ORDER BY folded").all { (row: $0.integer(0), key: $0.text(1)) }
        let cache = TitleKeysCache(connection: id, version: version, keys: keys)
        titleKeysCache.withLock { $0 = cache }
        return cache
    }

    /// Runs a read on the search's connection; an interrupted read (a search typed on) is
    /// tried again, a failure logged and nil. (Also the desktop search's, `+ShellSearch`.)
    func reading<T>(_ body: (SQLiteDatabase) throws -> T) -> T? {
        for _ in 0..<3 {
            do {
                return try SQLiteStore.retrying { try body(readingConnection()) }
            } catch let failure as SQLiteDatabase.Failure where failure.primaryCode == SQLITE_INTERRUPT {
                continue
            } catch is SearchInterrupted {
                continue
            } catch {
                Self.log("reading links and tags from the library index failed: \(error)")
                return nil
            }
        }
        return nil
    }
}

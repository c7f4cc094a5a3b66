import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LibraryIndex {
    /// What changed in the index: notes to show anew (added or changed) and ids that went.
    public struct Changes: Equatable, Sendable {
        public var upserted: [NoteSummary] = []
        public var removed: [String] = []
        /// The index started over (`startOver`) and read the library again: these are all the
        /// notes there are now; a note listed that is not among them is gone.
        public var everyNote: [NoteSummary]?
        public var isEmpty: Bool { upserted.isEmpty && removed.isEmpty && everyNote == nil }

        public init(upserted: [NoteSummary] = [], removed: [String] = [], everyNote: [NoteSummary]? = nil) {
            (self.upserted, self.removed, self.everyNote) = (upserted, removed, everyNote)
        }
    }

    /// What says a file is unchanged: the same inode, size and both times to the nanosecond
    /// (ctime cannot be set by programs that restore an mtime, as sync clients do).
    struct Identity: Equatable {
        var device: Int64, inode: Int64, size: Int64, mtime: Int64, ctime: Int64

        init(_ info: stat) {
            device = Int64(bitPattern: UInt64(info.st_dev))
            inode = Int64(bitPattern: UInt64(info.st_ino))
            size = Int64(info.st_size)
            mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }

        init(device: Int64, inode: Int64, size: Int64, mtime: Int64, ctime: Int64) {
            (self.device, self.inode, self.size, self.mtime, self.ctime) = (device, inode, size, mtime, ctime)
        }

        /// A file changed within the file system's timestamp granularity after we read it
        /// would look unchanged: one changed in the last 2 s is stored so that it never
        /// compares equal, and is read again next time (git's racy-clean rule).
        func settled(at date: Date) -> Identity {
            let now = Int64(date.timeIntervalSince1970 * 1e9)
            var copy = self
            if now - max(mtime, ctime) < 2_000_000_000 { copy.mtime = -1 }
            return copy
        }
    }

    struct Row {
        let rowid: Int64
        let identity: Identity
        let conflicts: String
    }

    /// Brings the index in line with the library: every folder listed (readdir), every note
    /// lstat'ed, and only new or changed files read — their first few KB: what the list
    /// shows; their full texts wait in `unindexed` (`indexWaitingTexts`). `onBatch` gets each
    /// committed batch of changes (a few a second while files are read: a first run fills the
    /// list as it goes), called between transactions: it may `refreshBetweenBatches`.
    /// Returns the notebooks. Throws, changing nothing, when the library itself cannot
    /// be listed (an unplugged disk is not "every note deleted").
    ///
    /// A write that keeps failing starts the index over (`startOver`): the library is then
    /// read again into the new one and the last batch hands over every note (`everyNote`).
    public func reconcile(onBatch: (Changes) -> Void) throws -> [String] {
        if let failure = listingFailure.withLock({ failure in defer { failure = nil }; return failure }) {
            startOver(because: failure)  // the list shows nothing of this index
        }
        if isClosed || isStopped { throw Stopped() }
        refreshedWhileReconciling = []
        defer { refreshedWhileReconciling = nil }
        var notebooks: [String]
        do {
            notebooks = try SQLiteStore.retrying { try reconcileOnce(onBatch: onBatch) }
        } catch let failure as SQLiteDatabase.Failure {
            startOver(because: failure)
            notebooks = try reconcileOnce(onBatch: onBatch)
        }
        if needsFullReconcile || startedOver {
            startedOver = false
            needsFullReconcile = false
            onBatch(Changes(everyNote: try everyNoteIndexed()))
        }
        return notebooks
    }

    /// Every note of the index, read on the writer (the writing queue, after a reconcile).
    private func everyNoteIndexed() throws -> [NoteSummary] {
        try statement("SELECT \(Self.summaryColumns) FROM notes").all { Self.summary(from: $0, library: library) }
    }

    private func reconcileOnce(onBatch: (Changes) -> Void) throws -> [String] {
        if needsFullReconcile { startedOver = true }
        needsFullReconcile = false
        let rootNames = try FolderEntries.read(library.folder.path).map(\.name)
        var known = try rows()
        let notebooks = library.notebooks()
        var changes = Changes()
        var batchStart = Date()
        // A new name whose file (device and inode) the index knows under another name: renamed,
        // if that name is gone once every folder is listed. Its row is kept (`renamed`).
        var knownInodes: [Int64: String]?
        var maybeRenamed: [(id: String, from: String, conflicts: [String], info: stat)] = []
        // New notes are read several at once just ahead of this loop (a first start's cold disk).
        let readAhead = ReadAhead(library: libraryPath)
        defer { readAhead.finish() }
        try writer.begin()
        do {
            for notebook in [""] + notebooks {
                let names: [String]
                if notebook.isEmpty {
                    names = rootNames
                } else if let listed = try? FolderEntries.read(library.folder.appendingPathComponent(notebook).path) {
                    names = listed.map(\.name)
                } else {
                    // Cannot be listed now: its notes are kept as they were, not dropped.
                    known = known.filter { !$0.key.hasPrefix(notebook + "/") || $0.key.dropFirst(notebook.count + 1).contains("/") }
                    continue
                }
                let (own, copies) = NoteLibrary.classify(names)
                let prefix = notebook.isEmpty ? "" : notebook + "/"
                readAhead.add(own.map { prefix + $0 }.filter { known[$0] == nil })
                // Each file is looked up in its folder (fstatat), not by walking its whole path.
                let folder = open(notebook.isEmpty ? libraryPath : path(of: notebook), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                defer { if folder >= 0 { Glibc.close(folder) } }
                for name in own {
                    if isStopped { throw Stopped() }
                    let id = prefix + name
                    let row = known.removeValue(forKey: id)
                    if row == nil { readAhead.passed() }
                    // Refreshed meanwhile (the watcher): looked at after this listing, and
                    // any later change comes as another refresh.
                    if refreshedWhileReconciling?.contains(id) == true { continue }
                    var info = stat()
                    let found = folder >= 0 ? fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 : lstat(path(of: id), &info) == 0
                    // Could not be looked at (EACCES: its folder may be listed, not searched): kept as it was, not dropped.
                    if !found, errno != ENOENT { continue }
                    if row == nil, found, !known.isEmpty {
                        if knownInodes == nil {
                            knownInodes = Dictionary(known.map { ($0.value.identity.inode, $0.key) }, uniquingKeysWith: { first, _ in first })
                        }
                        let identity = Identity(info)
                        if let from = knownInodes?[identity.inode], known[from]?.identity.device == identity.device {
                            maybeRenamed.append((id, from, (copies[name] ?? []).sorted(), info))
                            continue
                        }
                    }
                    switch try update(id, row: row, conflicts: (copies[name] ?? []).sorted(), info: found ? info : nil, textLater: true) {
                    case .changed(let summary): changes.upserted.append(summary)
                    case .notANote where row != nil:
                        try delete(id)
                        changes.removed.append(id)
                    case .notANote, .unchanged: break
                    }
                    // Committed a few times a second, so the watcher's refreshes wait little
                    // (`onBatch` runs them); the live library hands the window fewer, bigger batches.
                    if changes.upserted.count >= 20000 || Date().timeIntervalSince(batchStart) > 0.2 {
                        try addNewTerms()
                        try writer.commit()
                        onBatch(changes)
                        changes = Changes()
                        batchStart = Date()
                        try writer.begin()
                    }
                }
            }
            let refreshed = refreshedWhileReconciling ?? []
            for candidate in maybeRenamed where !refreshed.contains(candidate.id) {
                let from = refreshed.contains(candidate.from) ? nil : known.removeValue(forKey: candidate.from).map { (candidate.from, $0) }
                try renamed(candidate.id, from: from, conflicts: candidate.conflicts, info: candidate.info, changes: &changes)
            }
            for id in known.keys where !refreshed.contains(id) {
                try delete(id)
                changes.removed.append(id)
            }
            try addNewTerms()
            try writer.commit()
        } catch {
            writer.rollBack()
            forgetTerms()  // terms of this transaction are gone again
            throw error
        }
        onBatch(changes)
        return notebooks
    }

    /// A new name in the library whose file was indexed under `from` (nil: that name is still
    /// there, so this is another link or a copy): the row moves to the new name and keeps its
    /// full text when the words are the same.
    private func renamed(_ id: String, from old: (id: String, row: Row)?, conflicts: [String], info: stat,
                         changes: inout Changes) throws {
        guard let old else {
            if case .changed(let summary) = try update(id, row: nil, conflicts: conflicts, info: info, textLater: true) { changes.upserted.append(summary) }
            return
        }
        // Read it again (its name gives the note's creation date, its title may be its name).
        let unknown = Row(rowid: old.row.rowid, identity: Identity(device: -1, inode: -1, size: -1, mtime: -1, ctime: -1), conflicts: "")
        switch try update(id, row: unknown, conflicts: conflicts, info: info, textLater: true) {
        case .changed(let summary):
            changes.removed.append(old.id)
            changes.upserted.append(summary)
        case .unchanged, .notANote:  // gone meanwhile
            try delete(old.id)
            changes.removed.append(old.id)
        }
    }

    enum Update {
        /// Read and written again: the list shows this now.
        case changed(NoteSummary)
        /// As indexed (or read again and found the same).
        case unchanged
        /// Not there, or not a regular file (any more).
        case notANote
    }

    /// Reads the note if it changed since it was indexed (or is new) and writes its row and
    /// text — or, `textLater`, its row from the file's first few KB, its text named in
    /// `unindexed`. `info`: the file's lstat, nil when it is not there.
    func update(_ id: String, row: Row?, conflicts: [String], info: stat?, textLater: Bool) throws -> Update {
        guard let info, (info.st_mode & S_IFMT) == S_IFREG else { return .notANote }
        let joined = conflicts.joined(separator: "\n")
        if let row, row.identity == Identity(info) {
            guard row.conflicts != joined else { return .unchanged }
            try statement("UPDATE notes SET conflicts = ? WHERE id = ?").run([.text(joined), .integer(row.rowid)])
            return try summary(row.rowid).map { .changed($0) } ?? .unchanged
        }
        var summary: NoteSummary
        var text = IndexedText.none
        var identity = Identity(info)
        do {
            let count = textLater ? NoteLibrary.summaryPrefixLength : Self.indexedBytes
            let (bytes, opened) = try RegularFile.prefix(library.folder.appendingPathComponent(id), count: count)
            identity = Identity(opened)
            summary = library.summary(of: id, prefix: bytes.prefix(NoteLibrary.summaryPrefixLength), info: opened)
            if textLater {
                text = .later
            } else {
                let raw = String(decoding: bytes, as: UTF8.self)
                text = .text(TextFolding.fold(raw), NoteReferences(text: raw, noteID: id))
            }
        } catch let error as StorageError where error.code == EACCES || error.code == EPERM || error.code == EIO {
            summary = library.unreadableSummary(id, error: error)  // listed, greyed, with the reason
        } catch {
            return .notANote  // swapped for a FIFO, or gone meanwhile
        }
        summary.conflictCopies = conflicts
        // Read again only because it was too recent to trust (or touched, not changed): the
        // list has it right already.
        let before = try row.flatMap { try self.summary($0.rowid) }
        summary.indexRow = try write(summary, identity: identity.settled(at: clock()), text: text, rowid: row?.rowid)
        return summary == before ? .unchanged : .changed(summary)
    }

    /// A note's full text, for `write`.
    private enum IndexedText {
        /// None (the file cannot be read): the search tables hold nothing of it.
        case none
        /// The folded text and its links and tags.
        case text(String, NoteReferences)
        /// Read later (`unindexed`): what the search tables hold stays until then.
        case later
    }

    /// Writes the note's row (and text, when read); returns its row id.
    private func write(_ note: NoteSummary, identity: Identity, text: IndexedText, rowid: Int64?) throws -> Int64 {
        let values: [SQLiteDatabase.Value] = [
            .integer(identity.device), .integer(identity.inode), .integer(identity.size), .integer(identity.mtime), .integer(identity.ctime),
            .text(note.title), .text(note.preview), .real(note.created.timeIntervalSince1970), .real(note.modified.timeIntervalSince1970),
            .integer(note.isValidText ? 1 : 0), .integer(note.mightBeLarge ? 1 : 0),
            note.unreadableReason.map { .text($0) } ?? .null, .text(note.conflictCopies.joined(separator: "\n")),
            .text(TitleKey.of(note.title)),
        ]
        let id: Int64
        if let rowid {
            try statement("""
                UPDATE notes SET path = ?, device = ?, inode = ?, size = ?, mtime = ?, ctime = ?, title = ?, preview = ?, created = ?,
                modified = ?, valid = ?, large = ?, unreadable = ?, conflicts = ?, folded = ? WHERE id = ?
                """).run([.text(note.id)] + values + [.integer(rowid)])
            switch text {
            case .later:
                try statement("INSERT OR IGNORE INTO unindexed(id) VALUES (?)").run([.integer(rowid)])
            case .text(let text, let references):
                try statement("DELETE FROM unindexed WHERE id = ?").run([.integer(rowid)])
                try setReferences(rowid, references)
                // The same words (touched, read again because it was too recent to trust):
                // the full-text row stays (an FTS5 delete tokenizes the old text again).
                let indexed = try indexedText(rowid)
                if indexed != text { try replaceText(rowid, indexed: indexed, with: text) }
            case .none:
                try statement("DELETE FROM unindexed WHERE id = ?").run([.integer(rowid)])
                try deleteText(rowid, indexed: indexedText(rowid))
                try setReferences(rowid, nil)
            }
            return rowid
        } else {
            id = nextRowID
            nextRowID += 1
            try statement("""
                INSERT INTO notes(id, path, device, inode, size, mtime, ctime, title, preview, created, modified, valid, large, unreadable, conflicts, folded)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run([.integer(id), .text(note.id)] + values)
        }
        switch text {
        case .later: try statement("INSERT OR IGNORE INTO unindexed(id) VALUES (?)").run([.integer(id)])
        case .text(let text, let references):
            try replaceText(id, indexed: nil, with: text)
            try setReferences(id, references)
        case .none: break
        }
        return id
    }

    /// Puts `text` in the search tables in place of `indexed` (what `bodies` holds, if anything).
    /// `words`: `wordsText(of: text)` if made already.
    func replaceText(_ rowid: Int64, indexed: String?, with text: String, words: (indexed: String, plain: String)? = nil) throws {
        try deleteText(rowid, indexed: indexed)
        try statement("INSERT INTO bodies(rowid, text) VALUES (?, ?)").run([.integer(rowid), .text(text)])
        if searchTablesComplete.withLock({ $0 }) { try indexWords(rowid, words: words ?? Self.wordsText(of: text)) }
    }

    func indexedText(_ rowid: Int64) throws -> String? {
        try statement("SELECT text FROM bodies WHERE rowid = ?").first([.integer(rowid)]) { $0.text(0) }
    }

    func delete(_ id: String) throws {
        guard let row = try row(id) else { return }
        try deleteText(row.rowid, indexed: indexedText(row.rowid))
        try statement("DELETE FROM unindexed WHERE id = ?").run([.integer(row.rowid)])
        try setReferences(row.rowid, nil)
        try statement("DELETE FROM notes WHERE id = ?").run([.integer(row.rowid)])
    }

    /// Removes a note's text (`indexed`, as `bodies` holds it) from every search table.
    func deleteText(_ rowid: Int64, indexed: String?) throws {
        guard let indexed else { return }
        try statement("DELETE FROM bodies WHERE rowid = ?").run([.integer(rowid)])
        if searchTablesComplete.withLock({ $0 }) { try unindexWords(rowid, text: indexed) }
    }

    func path(of id: String) -> String { libraryPath + "/" + id }

    private func rows() throws -> [String: Row] {
        var found: [String: Row] = [:]
        try statement("SELECT path, id, device, inode, size, mtime, ctime, conflicts FROM notes").forEach { row in
            found[row.text(0)] = Row(rowid: row.integer(1), identity: Identity(device: row.integer(2), inode: row.integer(3), size: row.integer(4),
                                                                              mtime: row.integer(5), ctime: row.integer(6)),
                                     conflicts: row.text(7))
        }
        return found
    }

    /// What the index holds as a note's file identity (tests: what a start would trust).
    func storedIdentity(of id: String) -> Identity? { (try? row(id))?.identity }

    func row(_ id: String) throws -> Row? {
        try statement("SELECT id, device, inode, size, mtime, ctime, conflicts FROM notes WHERE path = ?").first([.text(id)]) { row in
            Row(rowid: row.integer(0), identity: Identity(device: row.integer(1), inode: row.integer(2), size: row.integer(3),
                                                         mtime: row.integer(4), ctime: row.integer(5)),
                conflicts: row.text(6))
        }
    }

    func summary(_ rowid: Int64) throws -> NoteSummary? {
        try statement("SELECT \(Self.summaryColumns) FROM notes WHERE id = ?").first([.integer(rowid)]) { Self.summary(from: $0, library: library) }
    }
}

import Foundation

extension LibraryIndex {
    /// What carrying an index over did with its rows (`carryOver`).
    public struct Carried: Equatable, Sendable {
        /// Rows taken over as they are, with the moved file's identity: not read again.
        public var kept = 0
        /// Rows renamed but to be read again by the next reconcile (the note changed while it
        /// moved, or was not seen well enough to be trusted); their text stays if it is the same.
        public var readAgain = 0
        /// Rows of no note that moved (the index was behind the disk) or of a note that became
        /// another note's conflict copy.
        public var dropped = 0
    }

    /// This index is a copy of the index of the folder all notes just moved from (`IndexCarryOver`):
    /// each row of a note in `moved` takes the note's path at the destination. A row whose
    /// identity is the one the mover saw before moving the file, and whose file at the
    /// destination is still as the mover left it, takes that file's identity (and the dates and
    /// name-made title a reading would give), so the reconcile finds it unchanged and does not
    /// read it. Every other moved row is marked unknown (read again, keeping its id and text when
    /// the words are the same); rows of no moved note go. Conflict copies are as the
    /// destination's folders list them. One transaction: all of it, or nothing.
    func carryOver(_ moved: [MovedNote]) throws -> Carried {
        let now = clock()
        let bySource = Dictionary(moved.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        // The destination's folders, classified as `reconcile` does (readdir only).
        var listings: [String: (own: Set<String>, copies: [String: [String]])] = [:]
        for folder in Set(moved.map { ($0.target as NSString).deletingLastPathComponent }) {
            let names = try FolderEntries.read(folder.isEmpty ? libraryPath : libraryPath + "/" + folder).map(\.name)
            let (own, copies) = NoteLibrary.classify(names)
            listings[folder] = (Set(own), copies)
        }
        struct Row {
            let rowid: Int64, path: String, identity: Identity, isValidText: Bool, isUnreadable: Bool
        }
        let rows = try statement("SELECT id, path, device, inode, size, mtime, ctime, valid, unreadable IS NOT NULL FROM notes").all { row in
            Row(rowid: row.integer(0), path: row.text(1),
                identity: Identity(device: row.integer(2), inode: row.integer(3), size: row.integer(4), mtime: row.integer(5), ctime: row.integer(6)),
                isValidText: row.integer(7) != 0, isUnreadable: row.integer(8) != 0)
        }
        var carried = Carried()
        try writer.transaction {
            var kept: [(Row, MovedNote)] = []
            for row in rows {
                if let note = bySource[row.path],
                   listings[(note.target as NSString).deletingLastPathComponent]?.own.contains((note.target as NSString).lastPathComponent) == true {
                    kept.append((row, note))
                } else {
                    try delete(row.path)
                    carried.dropped += 1
                }
            }
            // Out of the way first: a note's new path may be another row's old one.
            try writer.execute("UPDATE notes SET path = char(1) || id")
            let trusted = try statement("""
                UPDATE notes SET path = ?, device = ?, inode = ?, size = ?, mtime = ?, ctime = ?, modified = ?, created = ?,
                title = ifnull(?, title), folded = ifnull(?, folded), conflicts = ? WHERE id = ?
                """)
            let unknown = try statement("UPDATE notes SET path = ?, device = -1, inode = -1, size = -1, mtime = -1, ctime = -1 WHERE id = ?")
            for (row, note) in kept {
                let folder = (note.target as NSString).deletingLastPathComponent
                let name = (note.target as NSString).lastPathComponent
                guard !row.isUnreadable, let identity = trustedIdentity(row.identity, note, now: now) else {
                    try unknown.run([.text(note.target), .integer(row.rowid)])
                    carried.readAgain += 1
                    continue
                }
                // As `NoteLibrary.summary` makes them from the file and its name.
                let modified = Self.date(nanoseconds: identity.mtime)
                let created = NoteFileName.creationDate(of: note.target) ?? modified
                // A note that is not UTF-8 is titled by its name (nil: the title stays).
                let title = row.isValidText || note.target == note.source ? nil : PathBytes.display(note.target)
                let conflicts = (listings[folder]?.copies[name] ?? []).sorted().joined(separator: "\n")
                try trusted.run([.text(note.target), .integer(identity.device), .integer(identity.inode), .integer(identity.size),
                                 .integer(identity.mtime), .integer(identity.ctime), .real(modified.timeIntervalSince1970),
                                 .real(created.timeIntervalSince1970), title.map { .text($0) } ?? .null,
                                 title.map { .text(TitleKey.of($0)) } ?? .null, .text(conflicts), .integer(row.rowid)])
                carried.kept += 1
            }
        }
        return carried
    }

    /// The identity of the moved note's file at the destination, if the row may be trusted to
    /// describe it: the row's identity is what the mover saw of the source (before and after
    /// reading it, or before linking it), the file placed is that file (the same inode, size and
    /// time, or a copy of its size verified byte for byte by the mover), it is unchanged since it
    /// was placed, and was last modified over 2 s ago (a change in the same tick would look
    /// the same: `Identity.settled(at:)`).
    private func trustedIdentity(_ indexed: Identity, _ note: MovedNote, now: Date) -> Identity? {
        guard let before = note.before, let placed = note.placed, indexed == before, placed.size == before.size else { return nil }
        if note.sameFile, placed.device != before.device || placed.inode != before.inode || placed.mtime != before.mtime { return nil }
        guard let current = MovedNote.identity(at: libraryPath + "/" + note.target), current == placed else { return nil }
        guard Int64(now.timeIntervalSince1970 * 1e9) - current.mtime >= 2_000_000_000 else { return nil }
        return current
    }

    /// A file time in nanoseconds as `stat` gives it, as a date (as `NoteLibrary.summary` makes it).
    static func date(nanoseconds: Int64) -> Date {
        let perSecond: Int64 = 1_000_000_000
        var seconds = nanoseconds / perSecond
        if nanoseconds % perSecond < 0 { seconds -= 1 }
        let fraction = nanoseconds - seconds * perSecond
        return Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(fraction) / 1e9)
    }
}

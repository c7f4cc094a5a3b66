import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The watcher's changes: the notes it names are read again (`refresh`), also between a
/// reconcile's batches (`refreshBetweenBatches`), and the whole library after a start over.
extension LibraryIndex {
    /// The watcher saw these notes (ids) change, come or go: reads what changed of them. A
    /// transient failure is tried again; one that stays starts the index over, and the
    /// library is read again: the changes then hand over every note (`everyNote`).
    ///
    /// `moved`: notes Notula moved itself (old id → new id: a selection moved into a notebook).
    /// Each row takes its new path, its words staying searchable, and is read again as above
    /// but its full text later (`indexWaitingTexts`), not in this transaction: 10,000 notes
    /// moved were listed after 11 s, their texts indexed all over again first.
    public func refresh(_ ids: [String], moved: [String: String] = [:]) -> Changes {
        if isClosed || isStopped { return Changes() }
        if needsFullReconcile { return everything() }
        do {
            return try SQLiteStore.retrying { try writing { try refreshOnce(ids, moved: moved) } }
        } catch {
            startOver(because: error)
            return everything()
        }
    }

    /// `refresh` in the middle of a reconcile (its `onBatch`, between transactions): a change
    /// the watcher reported is listed now, not when the reconcile ends (issue #29). The
    /// reconcile then leaves these notes to the refresh. Nil when the write failed: the
    /// caller refreshes them again after the reconcile (which this never starts over).
    public func refreshBetweenBatches(_ ids: [String]) -> Changes? {
        if isClosed || isStopped { return Changes() }
        guard refreshedWhileReconciling != nil, !needsFullReconcile else { return nil }
        do {
            let changes = try SQLiteStore.retrying { try writing { try refreshOnce(ids) } }
            refreshedWhileReconciling?.formUnion(ids)
            refreshedWhileReconciling?.formUnion(changes.upserted.map(\.id))
            refreshedWhileReconciling?.formUnion(changes.removed)
            return changes
        } catch {
            return nil
        }
    }

    /// After the index started over: the whole library read again, as every note (or no
    /// change while the library cannot be listed: the next write tries again).
    func everything() -> Changes {
        var changes = Changes()
        do {
            _ = try reconcile { batch in
                if let every = batch.everyNote { changes = Changes(everyNote: every) }
            }
        } catch {
            Self.log("the library could not be read again into the index (\(error))")
            needsFullReconcile = true
        }
        return changes
    }

    private func refreshOnce(_ ids: [String], moved: [String: String] = [:]) throws -> Changes {
        var changes = Changes()
        var ids = Set(ids)
        var renamed: [Int64] = []
        let now = Int64(clock().timeIntervalSince1970 * 1e9)
        for (from, to) in moved {
            guard try row(to) == nil, let old = try row(from) else { continue }
            // The same file, unchanged by the move (a rename: only its ctime is new) and not
            // modified in the last 2 s (`Identity.settled`), keeps its row as it is, as a carried
            // index does (`carryOver`); any other is read again below.
            var info = stat()
            let placed = lstat(path(of: to), &info) == 0 ? Identity(info) : nil
            if let placed, placed.device == old.identity.device, placed.inode == old.identity.inode, placed.size == old.identity.size,
               placed.mtime == old.identity.mtime, now - placed.mtime >= 2_000_000_000 {
                try statement("UPDATE notes SET path = ?, ctime = ? WHERE id = ?").run([.text(to), .integer(placed.ctime), .integer(old.rowid)])
            } else {
                try statement("UPDATE notes SET path = ? WHERE id = ?").run([.text(to), .integer(old.rowid)])
            }
            changes.removed.append(from)
            ids.insert(to)
            renamed.append(old.rowid)
        }
        let textLater = Set(moved.values)
        // Each folder's conflict copies looked for once per refresh, not once per note: a
        // folder changed in the last 2 s is not cached (`ConflictCopyScan`), and 10,000 notes
        // just moved into one read its 10,000 names 20,000 times (11 s).
        var candidates: [String: [String]] = [:]
        func conflictCopies(of id: String) -> [String] {
            let folder = (id as NSString).deletingLastPathComponent
            let names = candidates[folder] ?? ConflictCopyScan.shared.candidates(in: library.folder.appendingPathComponent(folder))
            candidates[folder] = names
            let name = (id as NSString).lastPathComponent
            return names.filter { ConflictCopy.parse($0)?.originalName == name }
        }
        // A note that comes or goes changes what its conflict copies are: rows of their own
        // while it is gone, part of its row while it is there (as `reconcile` lists them).
        for id in ids where ConflictCopy.parse((id as NSString).lastPathComponent) == nil {
            let folder = (id as NSString).deletingLastPathComponent
            for copy in conflictCopies(of: id) { ids.insert(folder.isEmpty ? copy : "\(folder)/\(copy)") }
        }
        for id in ids {
            let row = try self.row(id)
            let name = (id as NSString).lastPathComponent
            let folder = (id as NSString).deletingLastPathComponent
            // A conflict copy whose note is there belongs to that note: not a row of its own.
            if let copy = ConflictCopy.parse(name),
               access(library.folder.appendingPathComponent(folder).appendingPathComponent(copy.originalName).path, F_OK) == 0 {
                if row != nil { try delete(id); changes.removed.append(id) }
                continue
            }
            var info = stat()
            guard NoteLibrary.isNoteFileName(name), lstat(path(of: id), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                if row != nil { try delete(id); changes.removed.append(id) }
                continue
            }
            if case .changed(let summary) = try update(id, row: row, conflicts: conflictCopies(of: id), info: info, textLater: textLater.contains(id)) {
                changes.upserted.append(summary)
            }
        }
        // A row that only took its new path is "unchanged" to `update`: the list hears of it too.
        let upserted = Set(changes.upserted.map(\.id))
        for rowid in renamed {
            if let summary = try summary(rowid), !upserted.contains(summary.id) { changes.upserted.append(summary) }
        }
        return changes
    }
}

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
    public func refresh(_ ids: [String]) -> Changes {
        if isClosed || isStopped { return Changes() }
        if needsFullReconcile { return everything() }
        do {
            return try SQLiteStore.retrying { try writing { try refreshOnce(ids) } }
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

    private func refreshOnce(_ ids: [String]) throws -> Changes {
        var changes = Changes()
        var ids = Set(ids)
        // A note that comes or goes changes what its conflict copies are: rows of their own
        // while it is gone, part of its row while it is there (as `reconcile` lists them).
        for id in ids where ConflictCopy.parse((id as NSString).lastPathComponent) == nil {
            let folder = (id as NSString).deletingLastPathComponent
            for copy in library.conflictCopies(of: id) { ids.insert(folder.isEmpty ? copy : "\(folder)/\(copy)") }
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
            if case .changed(let summary) = try update(id, row: row, conflicts: library.conflictCopies(of: id), info: info, textLater: false) {
                changes.upserted.append(summary)
            }
        }
        return changes
    }
}

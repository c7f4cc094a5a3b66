import Dispatch
import Foundation
import NotesCore

/// The live library: what other programs or a sync client add, change or delete in the
/// library folder shows at once (one inotify watch per notebook on the process's one
/// instance; rescans when watches run out; the folder itself going away starts the list over).
extension NotesController {
    func watchLibrary() {
        guard watcher == nil else { return }
        let watcher = LibraryWatcher(library: library.folder) { [weak self] changes in self?.libraryChanged(changes) }
        // Out of watches: read the library again every few seconds, and say so once.
        watcher.onRescan = { [weak self] in self?.reload() }
        watcher.onDegraded = { [weak self] message in self?.toast.show(message) }
        self.watcher = watcher
    }

    /// Files other programs added, changed or removed: list, refresh or drop their rows.
    /// Sync clients' temporary and partial files are not note names, so they never show.
    private func libraryChanged(_ changes: [FolderWatcher.Change]) {
        // The library folder itself was deleted or moved away.
        if changes.contains(where: { $0.name.isEmpty && $0.kind == .removed }) {
            restart()
            return
        }
        // A notebook came, went or was renamed elsewhere: its notes moved without events of their own.
        if changes.contains(where: { change in
            let name = (change.name as NSString).lastPathComponent
            return NoteLibrary.isNotebookName(name) && !NoteLibrary.isNoteFileName(name) && (name as NSString).pathExtension.isEmpty
        }) {
            reload()
        }
        var names = Set(changes.map(\.name).filter { NoteLibrary.isNoteFileName(($0 as NSString).lastPathComponent) })
        guard !names.isEmpty else { return }
        // A conflict copy that comes or goes changes its note (yellow in the list).
        for name in names {
            let folder = (name as NSString).deletingLastPathComponent
            guard let copy = ConflictCopy.parse((name as NSString).lastPathComponent) else { continue }
            ConflictCopyScan.shared.forget(library.folder.appendingPathComponent(folder))
            names.insert(folder.isEmpty ? copy.originalName : "\(folder)/\(copy.originalName)")
        }
        refreshIndex(Array(names))
    }

    /// These notes changed on disk (or may have): the index reads what changed of them, then
    /// the list shows it.
    func refreshIndex(_ ids: [String], then: (@MainActor (LibraryIndex.Changes) -> Void)? = nil) {
        guard let index = libraryIndex else { return }
        indexing.async {
            let changes = index.refresh(ids)
            DispatchQueue.main.async { [weak self] in
                self?.applyIndexChanges(changes)
                then?(changes)
            }
        }
    }

    /// Shows what the index found changed: rows added, updated or removed.
    func applyIndexChanges(_ changes: LibraryIndex.Changes) {
        guard !changes.isEmpty else { return }
        var changes = changes
        if let every = changes.everyNote {
            // The index started over: these are all the notes there are.
            let present = Set(every.map(\.id))
            changes = LibraryIndex.Changes(upserted: every, removed: list.allIDs.filter { !present.contains($0) })
        }
        var upserted = changes.upserted.filter { $0.id != pendingDeletion?.id }
        if let openID, let position = upserted.firstIndex(where: { $0.id == openID }),
           let document = openNote.document, !document.isReadOnly {
            // The editor is ahead of the file (typing not saved yet): its text names the row.
            let leading = openNote.editor.leadingText
            upserted[position].title = NoteText.title(of: leading)
            upserted[position].preview = NoteText.preview(of: leading)
        }
        // The open note's document says itself that its file went away.
        let removed = changes.removed.filter { $0 != openID }
        list.apply(upserted: upserted, removed: removed)
        StartupReport.listShown(count: list.allIDs.count)
        search.findAgainIfNeeded()
    }

    /// A note file appeared (Keep Both): index it and list it.
    func add(_ name: String) {
        refreshIndex([name])
    }
}

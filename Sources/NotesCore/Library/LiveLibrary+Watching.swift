import Dispatch
import Foundation

/// Watching the library folder (`LibraryWatcher`): what other programs change is refreshed in
/// the index; the open note's own saves wait until the user stops typing (`editedNote`).
extension LiveLibrary {
    func watch() {
        guard watcher == nil, !isClosed else { return }
        let watcher = LibraryWatcher(library: library.folder) { [weak self] changes in self?.folderChanged(changes) }
        watcher.rescanInterval = rescanInterval
        // Out of watches: read the library again every few seconds, and say so once.
        watcher.onRescan = { [weak self] in self?.rescan() }
        watcher.onDegraded = { [weak self] message in self?.onEvent?(.degraded(message)) }
        self.watcher = watcher
    }

    /// Files other programs added, changed or removed. Sync clients' temporary and partial
    /// files are not note names, so they never show.
    private func folderChanged(_ changes: [FolderWatcher.Change]) {
        // The library folder itself was deleted or moved away.
        if changes.contains(where: { $0.name.isEmpty && $0.kind == .removed }) {
            return reopen()
        }
        // A notebook came, went or was renamed elsewhere: its notes moved without events of their
        // own. (The top `attachments/` folder is not one: it is neither watched nor rescanned for.)
        if changes.contains(where: { change in
            let name = PathName.last(change.name)
            return !PathName.hasExtension(name) && NoteLibrary.isNotebook(name, in: PathName.parent(change.name))
        }) {
            rescan()
        }
        var names = Set<String>()
        for change in changes where NoteLibrary.isNoteFileName(PathName.last(change.name)) { names.insert(change.name) }
        // The edited note saved again (written, or renamed into place) waits for a pause; gone, it is listed at once.
        if let edited = editedNote, !changes.contains(where: { $0.name == edited && [.removed, .movedOut].contains($0.kind) }),
           names.remove(edited) != nil {
            holdBack(edited)
        }
        guard !names.isEmpty else { return }
        // A conflict copy that comes or goes changes its note (yellow in the list).
        for name in names {
            guard let copy = ConflictCopy.parse(PathName.last(name)) else { continue }
            let folder = PathName.parent(name)
            ConflictCopyScan.shared.forget(library.folder.appendingPathComponent(folder))
            names.insert(folder.isEmpty ? copy.originalName : "\(folder)/\(copy.originalName)")
        }
        guard batchesUnderWay == 0 else { return heldForBatch.append(contentsOf: names) }
        refresh(Array(names))
    }

    /// Notula is about to change many notes at once (move, tag or trash a selection): what the
    /// watcher hears of them waits, so the list changes once, not once per few notes.
    public func holdChanges() {
        batchesUnderWay += 1
    }

    /// The action is done: the notes it changed (`ids`) and whatever the watcher heard of
    /// meanwhile are read in one refresh; `then` gets what changed.
    /// `moved`: the notes it moved (old id → new id): their rows follow them.
    public func releaseChanges(with ids: [String], moved: [String: String] = [:], then done: (@MainActor (LibraryIndex.Changes) -> Void)? = nil) {
        batchesUnderWay = max(0, batchesUnderWay - 1)
        var held: [String] = []
        if batchesUnderWay == 0 { swap(&held, &heldForBatch) }
        refresh(ids, alsoIDs: held, moved: moved, then: done)  // the index reads each once
    }

    /// The user typed into the edited note: its saves wait until typing pauses.
    public func noteTyped() {
        lastTyped = .now()
        if !heldBack.isEmpty { indexHeldBackAfterPause() }
    }

    /// The edited note's file changed: indexed once the user has not typed for `editPause`
    /// (at once when that is so already), or when it is left.
    private func holdBack(_ id: String) {
        heldBack.insert(id)
        indexHeldBackAfterPause()
    }

    private func indexHeldBackAfterPause() {
        pauseTimer?.cancel()
        let timer = DispatchWorkItem { [weak self] in
            guard let self, !self.heldBack.isEmpty else { return }
            let ids = Array(self.heldBack)
            self.heldBack = []
            self.refresh(ids)
        }
        pauseTimer = timer
        DispatchQueue.main.asyncAfter(deadline: max(.now(), lastTyped + editPause), execute: timer)
    }
}

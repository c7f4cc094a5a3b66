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
        io.async { [library] in
            // A conflict copy that comes or goes changes its note (yellow in the list).
            for name in names {
                let folder = (name as NSString).deletingLastPathComponent
                if let copy = ConflictCopy.parse((name as NSString).lastPathComponent) {
                    ConflictCopyScan.shared.forget(library.folder.appendingPathComponent(folder))
                    let original = folder.isEmpty ? copy.originalName : "\(folder)/\(copy.originalName)"
                    if FileManager.default.fileExists(atPath: library.folder.appendingPathComponent(original).path) {
                        names.remove(name)
                        names.insert(original)
                    }
                }
            }
            let found = names.map { name -> (String, NoteSummary?) in
                guard var note = try? library.summary(ofFileNamed: name) else { return (name, nil) }
                note.conflictCopies = library.conflictCopies(of: name)
                return (name, note)
            }
            let entries = SearchIndex.entries(for: found.compactMap(\.1))
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                for (name, summary) in found where name != self.pendingDeletion?.id {
                    if let entry = entries[name] { self.searchIndex.set(name, entry) } else { self.searchIndex.remove(name) }
                    if var summary {
                        if name == self.openID, let document = self.openNote.document, !document.isReadOnly {
                            // The editor is ahead of the file (typing not saved yet): its text names the row.
                            let leading = self.openNote.editor.leadingText
                            summary.title = NoteText.title(of: leading)
                            summary.preview = NoteText.preview(of: leading)
                        }
                        self.list.upsert(summary)
                        self.searchAgainIfNeeded()
                    } else if name != self.openID {
                        // The open note's document says itself that its file went away.
                        self.list.remove(name)
                    }
                }
            }
        }
    }

    /// A note file appeared (Keep Both): read its summary and list it.
    func add(_ name: String) {
        io.async { [library] in
            guard let note = try? library.summary(ofFileNamed: name) else { return }
            let entries = SearchIndex.entries(for: [note])
            DispatchQueue.main.async { [weak self] in
                if let entry = entries[name] { self?.searchIndex.set(name, entry) }
                self?.list.upsert(note)
                self?.searchAgainIfNeeded()
            }
        }
    }
}

import Dispatch
import Foundation
import Gtk
import NotesCore

/// Notebooks in the sidebar: choosing one shows its notes (and new notes go there); creating,
/// renaming and deleting them (a non-empty one after asking, into the Trash); moving notes by
/// menu or by dragging a row onto a notebook. All file work runs on the library's `io` queue.
final class NotebooksController {
    private unowned let notes: NotesController
    let list = NotebookList()
    /// The notebook whose notes the list shows (nil: All Notes); new notes go there.
    private(set) var selected: String? {
        didSet { notes.search.notebook = selected }
    }
    /// The user chose another notebook (the window enables Rename and Delete Notebook).
    var onChosen: ((String?) -> Void)?
    private var nameDialog: NameDialog?
    private var chooser: NotebookChooser?

    init(notes: NotesController) {
        self.notes = notes
        list.onSelect = { [weak self] path in
            guard let self else { return }
            self.selected = path
            self.notes.search.find(self.notes.search.entry.text)
            self.onChosen?(path)
        }
        list.onAdd = { [weak self] in self?.askForNew() }
        list.onDropNote = { [weak self] text, notebook in
            guard let self else { return }
            // Several notes dragged together move as one action (one Undo); text from another
            // program is only ids to look up.
            let ids = DraggedNotes.ids(in: text).filter { self.notesList.summary($0) != nil }
            if ids.count == 1 { self.move(ids[0], to: notebook) } else if ids.count > 1 { self.notes.bulk.run(.move(toNotebook: notebook), ids: ids) }
        }
    }

    private var notesList: NotesListView { notes.list }

    func askForNew() {
        let parent = selected ?? ""
        // TRANSLATORS: %s is the notebook the new one is made in.
        let prompt = parent.isEmpty ? tr("Name of the new notebook:") : tr("Name of the new notebook inside “%s”:", parent)
        // TRANSLATORS: the dialog's title.
        let title = tr("New Notebook")
        // TRANSLATORS: the New Notebook dialog's button.
        let confirm = tr("Create")
        presentNameDialog(title: title, prompt: prompt, name: "", confirm: confirm) { [weak self] name in
            self?.runNotebookChange(OperationError.Action.createNotebook, name: name) { notebooks in try notebooks.create(name, in: parent) }
        }
    }

    func askToRename() {
        guard let path = selected else { return }
        let current = PathBytes.displayName(path)
        // TRANSLATORS: the dialog's title.
        let title = tr("Rename Notebook")
        // TRANSLATORS: %s is the notebook's current name.
        let prompt = tr("New name for “%s”:", current)
        // TRANSLATORS: the Rename Notebook dialog's button.
        let confirm = tr("Rename")
        // A name that is not UTF-8 ("�") is offered as the name its bytes most likely meant.
        let suggested = PathBytes.repaired((path as NSString).lastPathComponent)
        presentNameDialog(title: title, prompt: prompt, name: suggested, confirm: confirm) { [weak self] name in
            guard let self else { return }
            // A note open inside goes with the folder: save it, and open it again where it is now.
            let openInside = self.notes.openID.flatMap { $0.hasPrefix(path + "/") ? String($0.dropFirst(path.count)) : nil }
            let io = self.notes.io
            // Its newest words could not be written: nothing moves, and the user hears why.
            self.notes.leaveOpenNote(if: openInside != nil, for: .renameNotebook, note: current) { [weak self] in
                self?.runNotebookChange(.renameNotebook, name: current, then: { [weak self] newPath in
                    guard let self, let openInside else { return }
                    let id = newPath + openInside
                    self.notes.list.select(id, notify: false)
                    self.notes.open(id)
                }) { notebooks in
                    let newPath = try notebooks.rename(path, to: name, followingLinks: false)
                    // Links into it follow once the window shows it (a look through every note).
                    io.async { notebooks.followLinks(intoNotebookRenamedFrom: path, to: newPath) }
                    return newPath
                }
            }
        }
    }

    /// An empty notebook goes at once; one with notes goes to the Trash (with them) after asking.
    func askToDelete() {
        guard let path = selected else { return }
        let name = PathBytes.displayName(path)
        let library = notes.library.folder
        notes.io.async {
            let isEmpty = Notebooks(library: library).isEmpty(path)
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if isEmpty { return self.delete(path) }
                let count = self.notesList.allIDs.filter { $0.hasPrefix(path + "/") }.count
                let question = RecoverableFailure(
                    failureReason: tr("Delete the notebook “%s”?", name),
                    // TRANSLATORS: %d is the number of notes in the notebook about to be deleted.
                    recoverySuggestion: trn("It holds %d note. The notebook and everything in it go to the Trash, where you can restore them.", "It holds %d notes. The notebook and everything in it go to the Trash, where you can restore them.", count),
                    // TRANSLATORS: the button that deletes the notebook (into the Trash).
                    actions: [.cancel(), RecoveryAction(tr("Move to Trash"), role: .destructive) { [weak self] done in
                        self?.delete(path)
                        done(false)
                    }])
                self.notesList.presentError(question) { _ in }
            }
        }
    }

    private func delete(_ path: String) {
        let isOpenInside = notes.openID?.hasPrefix(path + "/") ?? false
        notes.leaveOpenNote(if: isOpenInside, for: .deleteNotebook, note: PathBytes.displayName(path)) { [weak self] in
            self?.remove(path)
        }
    }

    private func remove(_ path: String) {
        let trash = notes.trash.trash
        let library = notes.library.folder
        notes.io.async {
            let result = Result { () -> Void in
                let notebooks = Notebooks(library: library)
                if notebooks.isEmpty(path) {
                    try notebooks.removeEmpty(path)
                } else {
                    try trash.trash(relativePath: path)
                }
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if case .failure(let error) = result {
                    self.notesList.presentError(OperationError(.deleteNotebook, note: PathBytes.displayName(path), underlying: error)) { _ in }
                }
                self.list.select(nil)
                self.notes.live.rescan()
                self.notes.trash.refresh()
            }
        }
    }

    /// Moves a note into `notebook` ("" for the top): the file is renamed, the list, pins,
    /// search and the open editor follow it.
    func move(_ id: String, to notebook: String) {
        guard notesList.summary(id) != nil, (id as NSString).deletingLastPathComponent != notebook else { return }
        let wasOpen = notes.openID == id
        notes.leaveOpenNote(if: wasOpen, for: .moveNote, note: notesList.summary(id)?.title) { [weak self] in
            self?.moveFile(id, to: notebook, wasOpen: wasOpen)
        }
    }

    private func moveFile(_ id: String, to notebook: String, wasOpen: Bool) {
        let library = notes.library
        let notebooks = Notebooks(library: library.folder, history: notes.openNote.history)
        notes.io.async { [io = notes.io] in
            let result = Result { () -> (String, NoteSummary) in
                let newID = try notebooks.move(note: id, to: notebook, followingLinks: false)
                return (newID, try library.summary(ofFileNamed: newID))
            }
            // Links to it in other notes follow once the window shows the move (a look
            // through every note); on this queue, so no other change of the library overlaps.
            if case .success(let (newID, _)) = result {
                io.async { notebooks.followLinks(toNoteMovedFrom: id, to: newID) }
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let (newID, note)):
                    self.notesList.remove(id)
                    self.notesList.upsert(note)
                    self.notes.presenter.refreshIndex([id, newID])
                    if self.notesList.arrangement.pinned.contains(id) {
                        self.notesList.arrangement.pinned.remove(id)
                        self.notes.setPinned(true, id: newID)
                    }
                    self.notes.search.findAgainIfNeeded()
                    if wasOpen {
                        self.notesList.select(newID, notify: false)
                        self.notes.openNote.open(note.url)
                    }
                    if notebook.isEmpty {
                        // TRANSLATORS: a toast; %s is the note's title, moved out of every notebook.
                        self.notes.toast.show(tr("“%s” moved to All Notes", note.title))
                    } else {
                        // TRANSLATORS: a toast; %1$s is the note's title, %2$s the notebook it went to.
                        self.notes.toast.show(tr("“%1$s” moved to “%2$s”", note.title, PathBytes.displayName(notebook)))
                    }
                case .failure(let error):
                    if wasOpen { self.notes.open(id) }
                    self.notesList.presentError(OperationError(.moveNote, note: self.notesList.summary(id)?.title, underlying: error)) { _ in }
                }
            }
        }
    }

    /// Move to Notebook… for the selected note: a dialog listing the notebooks.
    func askWhereToMoveSelected() {
        guard let id = notesList.selectedID, let note = notesList.summary(id) else { return }
        // TRANSLATORS: the title of the dialog that picks a notebook; %s is the note's title.
        let chooser = NotebookChooser(title: tr("Move “%s”", note.title), notebooks: list.notebooks, current: note.notebook,
                                      parent: notes.window) { [weak self] notebook in
            if let notebook { self?.move(id, to: notebook) }
        }
        self.chooser = chooser
        chooser.present()
    }

    private func presentNameDialog(title: String, prompt: String, name: String, confirm: String, then: @escaping @MainActor (String) -> Void) {
        let dialog = NameDialog(title: title, prompt: prompt, name: name, confirmLabel: confirm, parent: notes.window) { [weak self] answer in
            self?.nameDialog = nil
            if let answer { then(answer) }
        }
        nameDialog = dialog
        dialog.present()
    }

    private func runNotebookChange(_ action: OperationError.Action, name: String, then: (@MainActor (String) -> Void)? = nil,
                                   _ change: @escaping @Sendable (Notebooks) throws -> String) {
        let notebooks = Notebooks(library: notes.library.folder, history: notes.openNote.history)
        notes.io.async {
            let result = Result { try change(notebooks) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let path):
                    self.notes.live.rescan {
                        self.list.select(path)
                        then?(path)
                    }
                case .failure(let error):
                    self.notesList.presentError(OperationError(action, note: name, underlying: error)) { _ in }
                }
            }
        }
    }
}

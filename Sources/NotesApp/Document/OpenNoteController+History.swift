import Dispatch
import Foundation
import Gtk
import NotesCore

/// Browse Versions: the open note's history beside its text, and Restore as an edit that
/// Ctrl+Z takes back (the text it replaces is kept as a version first). Without an open note,
/// or with `allNotes` (the window's All Notes button), every note's history.
extension OpenNoteController {
    func showHistory(allNotes: Bool = false) {
        historyWindow?.close()
        let history = self.history
        let document = self.document
        let url = allNotes ? nil : document?.fileURL
        DispatchQueue.global(qos: .userInitiated).async {
            let problem = history.unavailableReason
            var sections: [HistoryWindow.Section] = []
            if let url {
                sections = [HistoryWindow.Section(title: nil, versions: (try? history.versions(of: url)) ?? [])]
            } else {
                for note in ((try? history.notes()) ?? []).prefix(500) {
                    // What became of it is looked up on disk here, off the main thread.
                    sections.append(HistoryWindow.Section(title: HistoryWindow.heading(for: note),
                                                          versions: (try? history.versions(ofHistory: note.id)) ?? []))
                }
            }
            DispatchQueue.main.async { [weak self, sections] in
                guard let self, self.document === document else { return }
                self.presentHistory(sections, of: url == nil ? nil : document, problem: problem)
            }
        }
    }

    /// Shows `sections`, of `document` (beside its text) or of every note (nil).
    private func presentHistory(_ sections: [HistoryWindow.Section], of document: NoteDocument?, problem: String?) {
        let window = HistoryWindow(parent: self.window)
        historyWindow = window
        let history = self.history
        let load: @Sendable (HistoryVersion) -> String? = { version in
            (try? history.contents(of: version)).map { NoteEncoding.decode($0).text }
        }
        window.onClose = { [weak self, weak window] in
            if let self, self.historyWindow === window { self.historyWindow = nil }
        }
        window.onOpenAsNew = { [weak self] text in
            guard let self else { return }
            self.historyWindow?.close()
            self.delegate?.openNote(self, openAsNewNote: text)
        }
        window.onRestore = { [weak self] text in self?.restoreVersion(text) }
        window.onShowAllNotes = { [weak self] in self?.showHistory(allNotes: true) }
        if let document {
            // TRANSLATORS: window title; %s is the note's title
            window.show(title: tr("Versions of “%s”", document.displayName), sections: sections, current: editor.text,
                        canRestore: !document.state.contains(.editingDisabled), problem: problem, load: load)
        } else {
            window.show(title: tr("Versions of All Notes"), sections: sections, current: nil, problem: problem, load: load)
        }
    }

    /// Puts `text` in the editor as one undoable edit; autosave writes it like typing.
    func restoreVersion(_ text: String) {
        guard let document, !document.state.contains(.editingDisabled) else { return }
        document.recordCurrentText(origin: .beforeRestore)
        historyWindow?.close()
        editor.replaceTextAsEdit(text)
        editor.focusText()
        delegate?.openNote(self, notice: tr("Version restored. Undo (Ctrl+Z) brings back the text it replaced."))
    }
}

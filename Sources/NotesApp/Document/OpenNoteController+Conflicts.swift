import Foundation
import Gtk
import NotesCore

/// Show Conflicts for the open note: the conflict window, and the user's choice carried out
/// by the document (which never loses a version). Failures climb the responder chain from
/// the editor like any other.
extension OpenNoteController {
    func showConflicts() {
        guard let document, document.state.contains(.inConflict) else { return }
        let conflicts = conflictWindow ?? ConflictWindow(parent: window)
        if conflictWindow == nil {
            conflictWindow = conflicts
            conflicts.onClose = { [weak self] in self?.conflictWindow = nil }
            conflicts.onChoice = { [weak self] version, choice in self?.resolve(version, choice) }
        }
        conflicts.show(document)
    }

    private func resolve(_ version: ConflictingVersion, _ choice: ConflictWindow.Choice) {
        guard let document else { return }
        let newNote: URL?
        let decision: NoteDocument.ConflictChoice
        switch choice {
        case .keepThis: decision = .keepThis; newNote = nil
        case .keepOther: decision = .keepOther; newNote = nil
        case .keepBoth:
            guard let url = delegate?.newNoteURL(for: self) else { return }
            decision = .keepBoth(newNote: url); newNote = url
        }
        let name = document.displayName
        document.resolveConflict(with: version, choosing: decision) { [weak self, weak document] result in
            guard let self, let document else { return }
            switch result {
            case .success:
                if let newNote { self.delegate?.openNote(self, added: newNote) }
                self.delegate?.openNote(self, changed: document, leadingText: self.editor.leadingText)
                if document.otherVersions.isEmpty {
                    self.conflictWindow?.close()
                    self.delegate?.openNote(self, notice: newNote == nil ? tr("Conflict resolved; the other version is kept in Browse Versions")
                                                  : tr("Conflict resolved; the other version is now a note of its own"))
                } else {
                    self.conflictWindow?.show(document)
                }
            case .failure(let error):
                self.conflictWindow?.setBusy(false)
                self.editor.presentError(OperationError(.resolveConflict, note: name, underlying: error)) { _ in }
            }
        }
    }
}

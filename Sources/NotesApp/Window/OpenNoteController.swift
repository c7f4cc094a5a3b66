import Dispatch
import Foundation
import Gtk
import NotesCore

/// The note in the editor: opens and closes its document, passes edits to it, and makes the
/// editor, its banner and the status light follow every change of the document's state.
final class OpenNoteController {
    let editor: EditorView
    let status: StatusLight
    let alerts: AlertPresenter
    private let drafts: RecoveryDrafts
    private(set) var document: NoteDocument?
    private var observer: UUID?
    private var openingURL: URL?

    /// The open note's title or preview (from the text's first lines) or its file date
    /// changed: the list refreshes its row.
    var onNoteChanged: ((NoteDocument, _ leadingText: String) -> Void)?
    /// Keep Both saved the local text as this new note.
    var onNoteAdded: ((URL) -> Void)?
    /// Where a new note's file goes (for Keep Both).
    var newNoteURL: (() -> URL)?

    init(editor: EditorView, status: StatusLight, alerts: AlertPresenter, drafts: RecoveryDrafts = .standard) {
        self.editor = editor
        self.status = status
        self.alerts = alerts
        self.drafts = drafts
        editor.onChange = { [weak self] kind in self?.edited(kind) }
        status.onShowReason = { [weak self] reason in self?.showUnsavedReason(reason) }
        status.onShowConflicts = { [weak self] in self?.showConflicts() }
    }

    var openFileName: String? { document?.fileURL.lastPathComponent }
    var isOpening: Bool { openingURL != nil }

    /// Opens the note at `url` (nil: none), closing (and saving) the one before.
    func open(_ url: URL?, then: (() -> Void)? = nil) {
        if let url, url == document?.fileURL, openingURL == nil { then?(); return }
        close()
        openingURL = url
        guard let url else {
            editor.showPlaceholder()
            status.follow(nil)
            return
        }
        let document = NoteDocument(fileURL: url, drafts: drafts)
        document.errorPresenter = { [weak self] document, error, done in self?.present(error, of: document, done: done) }
        document.open { [weak self] opened in
            guard let self, self.openingURL == url else {
                document.close()
                return
            }
            self.openingURL = nil
            guard opened else {
                self.editor.showPlaceholder()
                return
            }
            self.attach(document)
            then?()
        }
    }

    /// Closes the open note; its document saves unsaved text in the background.
    func close() {
        guard let document else { return }
        if let observer { document.removeObserver(observer) }
        observer = nil
        self.document = nil
        let onNoteChanged = self.onNoteChanged
        document.close { _ in onNoteChanged?(document, document.text) }
        status.follow(nil)
    }

    /// Saves the open note and waits, at most a few seconds (window closing, quitting).
    func saveAndWait() throws {
        try document?.saveAndWait(timeout: 10)
    }

    private func attach(_ document: NoteDocument) {
        self.document = document
        document.contentProvider = { [weak editor] in editor?.text ?? "" }
        observer = document.addObserver { [weak self] document, event in self?.documentChanged(document, event) }
        editor.show(text: document.text, editable: !document.state.contains(.editingDisabled))
        follow(document)
    }

    private func edited(_ kind: DocumentChangeKind) {
        guard let document else { return }
        document.updateChangeCount(kind)
        onNoteChanged?(document, editor.leadingText)
    }

    private func documentChanged(_ document: NoteDocument, _ event: DocumentEvent) {
        guard document === self.document else { return }
        switch event {
        case .textReplaced:
            editor.replaceText(document.text)
            onNoteChanged?(document, editor.leadingText)
        case .saved:
            onNoteChanged?(document, editor.leadingText)
        case .statusChanged:
            break
        }
        follow(document)
    }

    /// The editor, its banner and the light show the document's state.
    private func follow(_ document: NoteDocument) {
        editor.isEditable = !document.state.contains(.editingDisabled)
        status.follow(document)
        if let reason = document.readOnlyReason {
            editor.setBanner(reason)
        } else if document.fileIsMissing {
            editor.setBanner("This note’s file was deleted or moved by another program. Your text is still here.",
                             action: ("Save Again", { [weak document] in document?.saveAgain() }))
        } else {
            editor.setBanner(nil)
        }
    }

    // MARK: Errors and conflicts (the responder chain of #4 takes errors over)

    private func present(_ error: Error, of document: NoteDocument, done: @escaping (Bool) -> Void) {
        let action = (error as? StorageError)?.operation.rawValue ?? "save the note"
        alerts.present(
            title: "Could not \(action) “\(document.displayName)”",
            detail: NotesController.describe(error) + "\n\nYour text is kept in the window and in a recovery draft.",
            choices: [
                .init("Try Again", role: .suggested) { [weak document] in
                    document?.save { saved in done(saved) } ?? done(false)
                },
                .init("Keep Editing") { done(false) },
            ])
    }

    private func showUnsavedReason(_ reason: String) {
        guard let document else { return }
        if document.fileIsMissing {
            alerts.present(title: "“\(document.displayName)” is not saved", detail: reason,
                           choices: [.init("Save Again", role: .suggested) { [weak document] in document?.saveAgain() },
                                     .init("Keep Editing")])
        } else {
            alerts.present(title: "“\(document.displayName)” is not saved", detail: reason,
                           choices: [.init("Try Again", role: .suggested) { [weak document] in document?.save() },
                                     .init("Keep Editing")])
        }
    }

    /// Both versions exist; nothing is lost whichever the user picks.
    func showConflicts() {
        guard let document, document.state.contains(.inConflict) else { return }
        let other = document.conflictVersion
        let when = other.map { RelativeTimeFormatter().string(for: $0.modified).lowercased() } ?? "recently"
        alerts.present(
            title: "“\(document.displayName)” was changed somewhere else",
            detail: "Another program changed this note on disk (\(when)) while you were editing it. "
                + "Notula keeps both: the other version is untouched on disk, yours is in the window and in a recovery draft.\n\n"
                + "Keep Both saves your version as a new note and shows the other one here.",
            choices: [
                .init("Keep Both", role: .suggested) { [weak self] in self?.keepBoth() },
                .init("Use the Other Version") { [weak document] in document?.resolveConflictKeepingDiskVersion() },
                .init("Decide Later"),
            ])
    }

    private func keepBoth() {
        guard let document, let url = newNoteURL?() else { return }
        document.resolveConflictKeepingBoth(savingLocalTextTo: url) { [weak self] done in
            if done { self?.onNoteAdded?(url) }
        }
    }
}

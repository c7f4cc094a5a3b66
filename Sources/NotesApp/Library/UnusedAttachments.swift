import Dispatch
import Foundation
import Gtk
import NotesCore

/// Remove Unused Attachments…: finds the files in `attachments/` no note links (in the library,
/// in the Trash, or in an open editor's text) off the main thread, lists them and asks; Remove
/// removes those still unused (`AttachmentUsage` checks again) and a toast says how many went.
/// Nothing unused is information (a toast), not a dialog; a note that cannot be read stops it
/// with the note's name (it might link anything).
final class UnusedAttachments {
    /// The library's writer queue: a move of every note never runs beside a removal.
    private let queue: DispatchQueue
    /// The question on screen (tests answer it).
    private(set) var dialog: MessageDialog?
    /// Called when a run ended (tests).
    var onFinished: (() -> Void)?

    init(queue: DispatchQueue = DispatchQueue(label: "notula.unused-attachments", qos: .userInitiated)) {
        self.queue = queue
    }

    /// Looks for unused attachments of `library` and asks before removing them.
    func run(library: URL, parent: Window?, responder: Responder, toast: @escaping @MainActor @Sendable (String) -> Void) {
        let usage = AttachmentUsage(library: library, openTexts: SharedDocuments.shared.openTexts(in: library))
        queue.async { [weak self] in
            let found = Result { try usage.unused() }
            DispatchQueue.main.async {
                guard let self else { return }
                let unused: [String]
                switch found {
                case .success(let files): unused = files
                case .failure(let error):
                    responder.presentError(OperationError(.removeUnusedAttachments, note: nil, underlying: error)) { _ in }
                    self.onFinished?()
                    return
                }
                guard !unused.isEmpty else {
                    // TRANSLATORS: a toast: Remove Unused Attachments… found nothing to remove.
                    toast(tr("No unused attachments"))
                    self.onFinished?()
                    return
                }
                self.ask(unused, library: library, parent: parent, responder: responder, toast: toast)
            }
        }
    }

    private func ask(_ unused: [String], library: URL, parent: Window?, responder: Responder, toast: @escaping @MainActor @Sendable (String) -> Void) {
        dialog?.destroy()
        let dialog = MessageDialog(parent: parent,
                                   // TRANSLATORS: the question of Remove Unused Attachments…; %d files no note links.
                                   text: trn("Remove %d unused attachment?", "Remove %d unused attachments?", unused.count, unused.count),
                                   // TRANSLATORS: below the question of Remove Unused Attachments…
                                   secondaryText: tr("No note links these files, in your notes or in the Trash. They are deleted, not moved to the Trash."))
        let names = Label(unused.map { ($0 as NSString).lastPathComponent }.joined(separator: "\n"))
        names.xalign = 0
        names.isSelectable = true
        let scroller = ScrolledWindow()
        scroller.scrollVerticallyOnly()
        scroller.child = names
        scroller.propagatesNaturalHeight = true
        scroller.maxContentHeight = 240
        // TRANSLATORS: the accessible name of the list of files Remove Unused Attachments… would delete.
        scroller.accessibleLabel = tr("Unused attachments")
        dialog.addExtraChild(scroller)
        dialog.addButton(tr("Cancel"), response: 0)
        // TRANSLATORS: a button: deletes the unused attachments listed.
        dialog.addButton(tr("Remove"), response: 1, role: .destructive)
        dialog.setDefaultResponse(0)
        dialog.onResponse { [weak self] dialog, response in
            dialog.destroy()
            guard let self else { return }
            if self.dialog === dialog { self.dialog = nil }
            guard response == 1 else {
                self.onFinished?()
                return
            }
            // The editors' texts as they are now: one may have linked a file since the question.
            let usage = AttachmentUsage(library: library, openTexts: SharedDocuments.shared.openTexts(in: library))
            self.queue.async { [weak self] in
                let outcome = Result { try usage.remove(unused) }
                DispatchQueue.main.async {
                    switch outcome {
                    case .success(let removed):
                        // TRANSLATORS: a toast after Remove Unused Attachments…
                        toast(trn("%d unused attachment removed", "%d unused attachments removed", removed.count, removed.count))
                    case .failure(let error):
                        responder.presentError(OperationError(.removeUnusedAttachments, note: nil, underlying: error)) { _ in }
                    }
                    self?.onFinished?()
                }
            }
        }
        self.dialog = dialog
        dialog.present()
    }
}

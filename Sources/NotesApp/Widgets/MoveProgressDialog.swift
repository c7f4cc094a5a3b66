import Gtk
import NotesCore

/// "Moving Notes" (or "Importing Notes"): what moves where, a progress bar, and Cancel (until
/// the move can no longer be undone cheaply, when Cancel goes insensitive). Finishing a move that was
/// interrupted has no Cancel: stopping half-way again would only leave it for the next start.
final class MoveProgressDialog {
    let window = Window()
    private let message = Label()
    private let bar = ProgressBar()
    let cancelButton = Button(label: tr("Cancel"))
    var onCancel: (() -> Void)?

    init(parent: Window, message text: String, title: String = tr("Moving Notes"), progressLabel: String = tr("Moving notes"),
         cancellable: Bool = true) {
        window.title = title
        window.transientFor = parent
        window.isModal = true
        window.setDefaultSize(width: 420, height: -1)
        let box = Box(.vertical, spacing: 12)
        box.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        message.text = text
        message.wraps = true
        message.xalign = 0
        bar.text = tr("Preparing…")
        bar.accessibleLabel = progressLabel
        cancelButton.halign = .end
        box.append(message)
        box.append(bar)
        box.append(cancelButton)
        window.child = box
        cancelButton.onClicked { [weak self] _ in
            self?.cancelButton.isSensitive = false
            self?.bar.text = tr("Cancelling…")
            self?.onCancel?()
        }
        cancelButton.isVisible = cancellable
        // Closing the dialog's window is the same as Cancel.
        window.onCloseRequest { [weak self] _ in
            if cancellable { self?.cancelButton.click() }
            return true
        }
    }

    func show() { window.present() }

    func update(done: Int, total: Int) {
        bar.fraction = total == 0 ? 1 : Double(done) / Double(total)
        // TRANSLATORS: the progress of a move: notes moved of how many, "3 of 10".
        bar.text = trn("%1$d of %2$d", "%1$d of %2$d", total, done, total)
    }

    func close() { window.destroy() }
}

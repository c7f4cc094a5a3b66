import Gtk
import NotesCore

/// A notice above the notes list — information, not an error, so it stays in the window
/// instead of a dialog (as GNOME Text Editor does): a sentence, an optional action button and a
/// close button. Several notices queue; closing one shows the next.
final class NoticeBanner {
    private let actionButton = Button(label: "")
    private let dismissButton = Button(label: tr("Dismiss"))
    private let box: BannerBox
    var root: Box { box.root }
    private var notices: [(text: String, action: (label: String, run: () -> Void)?)] = []

    init() {
        box = BannerBox(cssClass: "notice-banner", buttons: [actionButton, dismissButton])
        actionButton.onClicked { [weak self] _ in
            guard let self, let action = self.notices.first?.action else { return }
            self.dismiss()
            action.run()
        }
        dismissButton.accessibleLabel = tr("Dismiss this notice")
        dismissButton.onClicked { [weak self] _ in self?.dismiss() }
    }

    /// Shows `text` (after any notice already shown), with a button that runs `action`.
    func show(_ text: String, action: (label: String, run: () -> Void)? = nil) {
        notices.append((text, action))
        if notices.count == 1 { update() }
    }

    func dismiss() {
        guard !notices.isEmpty else { return }
        notices.removeFirst()
        update()
    }

    var text: String? { notices.first?.text }

    private func update() {
        guard let notice = notices.first else {
            root.isVisible = false
            return
        }
        box.message.text = notice.text
        actionButton.label = notice.action?.label ?? ""
        actionButton.isVisible = notice.action != nil
        root.isVisible = true
    }
}

import Gtk

/// A notice above the notes list — information, not an error, so it stays in the window
/// instead of a dialog (as GNOME Text Editor does): a sentence, an optional action button and a
/// close button. Several notices queue; closing one shows the next.
final class NoticeBanner {
    let root = Box(.vertical, spacing: 6)
    private let message = Label()
    private let actionButton = Button(label: "")
    private let dismissButton = Button(label: "Dismiss")
    private var notices: [(text: String, action: (label: String, run: () -> Void)?)] = []

    init() {
        root.addCSSClass("notice-banner")
        message.wraps = true
        message.maxWidthChars = 30
        message.xalign = 0
        let buttons = Box(.horizontal, spacing: 6)
        buttons.append(actionButton)
        buttons.append(dismissButton)
        root.append(message)
        root.append(buttons)
        root.isVisible = false
        actionButton.onClicked { [weak self] _ in
            guard let self, let action = self.notices.first?.action else { return }
            self.dismiss()
            action.run()
        }
        dismissButton.accessibleLabel = "Dismiss this notice"
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
        message.text = notice.text
        actionButton.label = notice.action?.label ?? ""
        actionButton.isVisible = notice.action != nil
        root.isVisible = true
    }
}

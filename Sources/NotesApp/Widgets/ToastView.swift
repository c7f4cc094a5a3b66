import Dispatch
import Gtk
import NotesCore

/// A brief message at the bottom of the window, with one action ("Undo") or none; it goes
/// away by itself. When it expires without the action, `onExpire` runs.
final class ToastView {
    let root = Revealer()
    private let label = Label()
    let button = Button(label: tr("Undo"))
    private var expiry: DispatchWorkItem?
    private var action: (() -> Void)?
    private var onExpire: (() -> Void)?
    /// Ctrl+Z anywhere in the window runs the action while the toast shows (a change made
    /// outside the text, such as links rewritten in other notes, is undone as the user expects).
    private(set) var takesControlZ = false

    init() {
        let pill = Box(.horizontal, spacing: 12)
        pill.addCSSClass("toast")
        label.xalign = 0
        pill.append(label)
        pill.append(button)
        root.child = pill
        root.halign = .center
        root.valign = .end
        root.revealsChild = false
        root.isVisible = false
        button.onClicked { [weak self] _ in self?.performAction() }
    }

    /// Shows `message`; a toast already showing expires first (its pending work is done).
    func show(_ message: String, actionLabel: String, action: @escaping @MainActor () -> Void,
              onExpire: @escaping @MainActor () -> Void, seconds: Double = 6, takesControlZ: Bool = false) {
        expireNow()
        self.takesControlZ = takesControlZ
        label.text = message
        button.label = actionLabel
        button.isVisible = !actionLabel.isEmpty
        // TRANSLATORS: the accessible name of a toast's button: %1$s is the button ("Undo"), %2$s the message.
        button.accessibleLabel = tr("%1$s: %2$s", actionLabel, message)
        self.action = action
        self.onExpire = onExpire
        root.isVisible = true
        root.revealsChild = true
        let item = DispatchWorkItem { [weak self] in self?.expireNow() }
        expiry = item
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: item)
    }

    /// Shows a notice without an action.
    func show(_ message: String, seconds: Double = 4) {
        show(message, actionLabel: "", action: {}, onExpire: {}, seconds: seconds)
    }

    /// Ends the toast now as if it had timed out.
    func expireNow() {
        let finish = onExpire
        dismiss()
        finish?()
    }

    var isShowing: Bool { root.revealsChild }
    var message: String { label.text }

    /// Ctrl+Z while the toast takes it: runs its action; false when it does not.
    func controlZ() -> Bool {
        guard isShowing, takesControlZ, action != nil else { return false }
        performAction()
        return true
    }

    private func performAction() {
        let run = action
        dismiss()
        run?()
    }

    private func dismiss() {
        expiry?.cancel()
        expiry = nil
        action = nil
        onExpire = nil
        takesControlZ = false
        root.revealsChild = false
        root.isVisible = false
    }
}

import Dispatch
import Gtk
import NotesCore

/// A brief message at the bottom of the window, with one action ("Undo") or none; it goes
/// away by itself, but not while the pointer is over it or the keyboard focus in it (GNOME's
/// rule for toasts: the time starts again when both left). When it expires without the
/// action, `onExpire` runs.
final class ToastView {
    let root = Revealer()
    private let label = Label()
    private let pill = Box(.horizontal, spacing: 12)
    let button = Button(label: tr("Undo"))
    private var expiry: DispatchWorkItem?
    private var seconds = 0.0
    private var hovered = false
    private var focused = false
    private var pointerWatch: RepeatingTimeout?
    private var action: (() -> Void)?
    private var onExpire: (() -> Void)?
    /// Ctrl+Z anywhere in the window runs the action while the toast shows (a change made
    /// outside the text, such as links rewritten in other notes, is undone as the user expects).
    private(set) var takesControlZ = false

    init() {
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
        let motion = MotionController()
        motion.onEnter { [weak self] _, _, _ in self?.hold(hovered: true) }
        motion.onLeave { [weak self] _ in self?.hold(hovered: false) }
        pill.addController(motion)
        let focus = FocusController()
        focus.onEnter { [weak self] _ in self?.hold(focused: true) }
        focus.onLeave { [weak self] _ in self?.hold(focused: false) }
        pill.addController(focus)
        // Shown under a pointer at rest: held as if the pointer had come.
        root.onSlideEnded { [weak self] _ in self?.holdIfUnderPointer() }
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
        self.seconds = seconds
        startClock()
        Idle.once { [weak self] in self?.holdIfUnderPointer() }  // laid out by then
    }

    /// A toast shown under a pointer at rest gets neither "enter" nor, when the pointer goes,
    /// "leave": held, and looked at four times a second until the pointer is gone.
    private func holdIfUnderPointer() {
        guard isShowing, !hovered, pill.hasPointer else { return }
        hold(hovered: true)
        pointerWatch = RepeatingTimeout(milliseconds: 250) { [weak self] in
            guard let self, !self.pill.hasPointer else { return }
            self.pointerWatch = nil
            self.hold(hovered: false)
        }
    }

    private func startClock() {
        expiry?.cancel()
        expiry = nil
        guard isShowing, !hovered, !focused else { return }
        let item = DispatchWorkItem { [weak self] in self?.expireNow() }
        expiry = item
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: item)
    }

    /// The pointer or the focus came or went: the clock stops while either is on the toast.
    private func hold(hovered: Bool? = nil, focused: Bool? = nil) {
        self.hovered = hovered ?? self.hovered
        self.focused = focused ?? self.focused
        startClock()
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
        pointerWatch = nil
        hovered = false  // a hidden toast has neither; the next one starts its clock
        focused = false
        root.revealsChild = false
        root.isVisible = false
    }
}

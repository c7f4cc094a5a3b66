import Gtk
import NotesCore

/// A heading and a row (or a column) of radio buttons, one per choice (Preferences ▸ Style, ▸ Trash).
final class ChoicePicker<Value: Equatable> {
    let root = Box(.vertical, spacing: 8)
    private let buttons: [(value: Value, button: CheckButton)]
    /// Set while the buttons are changed from here (not by the user).
    private var showing = false
    /// The user chose.
    var onChoose: ((Value) -> Void)?

    /// `accessiblePrefix` names each button for screen readers ("Style: Dark"); `stacked`: one
    /// choice under the other (long ones), not side by side.
    init(heading: String, choices: [(Value, String)], accessiblePrefix: String, stacked: Bool = false) {
        buttons = choices.map { (value: $0.0, button: CheckButton(label: $0.1)) }
        let title = Label(heading)
        title.addCSSClass("heading")
        title.xalign = 0
        let row = stacked ? Box(.vertical, spacing: 4) : Box(.horizontal, spacing: 18)
        for ((value, button), (_, label)) in zip(buttons, choices) {
            if button !== buttons[0].button { button.group(with: buttons[0].button) }
            // TRANSLATORS: the accessible name of a choice: %1$s is the setting, %2$s the choice ("Style: Dark").
            button.accessibleLabel = tr("%1$s: %2$s", accessiblePrefix, label)
            button.onToggled { [weak self] button in
                guard let self, !self.showing, button.isActive else { return }
                self.onChoose?(value)
            }
            row.append(button)
        }
        root.append(title)
        root.append(row)
    }

    /// Shows `chosen` as the choice, without reporting it as the user's.
    func show(_ chosen: Value) {
        showing = true
        for (value, button) in buttons { button.isActive = value == chosen }
        showing = false
    }
}

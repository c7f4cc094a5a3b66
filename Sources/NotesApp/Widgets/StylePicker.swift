import Gtk
import NotesCore

/// Preferences ▸ Style: Follow System, Light or Dark (radio buttons in a row).
final class StylePicker {
    let root = Box(.vertical, spacing: 8)
    private static let titles: [(ColorScheme, String)] = [(.system, "Follow System"), (.light, "Light"), (.dark, "Dark")]
    private let buttons = StylePicker.titles.map { (scheme: $0.0, title: $0.1, button: CheckButton(label: $0.1)) }
    /// Set while the buttons are changed from here (not by the user).
    private var showing = false
    /// The user chose a style.
    var onChoose: ((ColorScheme) -> Void)?

    init() {
        let heading = Label("Style")
        heading.addCSSClass("heading")
        heading.xalign = 0
        let row = Box(.horizontal, spacing: 18)
        for (scheme, title, button) in buttons {
            if button !== buttons[0].button { button.group(with: buttons[0].button) }
            button.accessibleLabel = "Style: \(title)"
            button.onToggled { [weak self] button in
                guard let self, !self.showing, button.isActive else { return }
                self.onChoose?(scheme)
            }
            row.append(button)
        }
        root.append(heading)
        root.append(row)
    }

    /// Shows `chosen` as the choice, without reporting it as the user's.
    func show(_ chosen: ColorScheme) {
        showing = true
        for (scheme, _, button) in buttons { button.isActive = scheme == chosen }
        showing = false
    }
}

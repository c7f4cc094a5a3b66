import Gtk
import NotesCore

/// Asks for a name (a new notebook, a notebook's new name): a modal window with a text field,
/// Cancel and a confirming button. Enter confirms, Escape cancels.
final class NameDialog {
    let window = Window()
    let entry = Entry()
    let confirm: Button
    private var answered = false
    private let completion: (String?) -> Void

    init(title: String, prompt: String, name: String = "", confirmLabel: String, parent: Window?, completion: @escaping @MainActor (String?) -> Void) {
        self.completion = completion
        confirm = Button(label: confirmLabel)
        window.title = title
        window.transientFor = parent
        window.isModal = true
        window.setDefaultSize(width: 360, height: -1)
        let box = Box(.vertical, spacing: 12)
        box.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        let label = Label(prompt)
        label.xalign = 0
        label.wraps = true
        entry.text = name
        entry.accessibleLabel = prompt
        let buttons = Box(.horizontal, spacing: 8)
        buttons.halign = .end
        let cancel = Button(label: tr("Cancel"))
        cancel.accessibleLabel = tr("Cancel")
        confirm.accessibleLabel = confirmLabel
        confirm.addCSSClass("suggested-action")
        buttons.append(cancel)
        buttons.append(confirm)
        for widget: Widget in [label, entry, buttons] { box.append(widget) }
        window.child = box
        cancel.onClicked { [weak self] _ in self?.finish(nil) }
        confirm.onClicked { [weak self] _ in self?.finish(self?.entry.text) }
        entry.onActivate { [weak self] entry in self?.finish(entry.text) }
        window.onEscape { [weak self] in self?.finish(nil) }
        window.onCloseRequest { [weak self] _ in
            self?.finish(nil)
            return true
        }
    }

    func present() {
        window.present()
        _ = entry.grabFocus()
        entry.selectAll()
    }

    private func finish(_ name: String?) {
        guard !answered else { return }
        answered = true
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        window.destroy()
        completion(trimmed?.isEmpty == false ? trimmed : nil)
    }
}

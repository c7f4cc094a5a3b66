import Foundation
import Gtk
import NotesCore

/// Move to Notebook…: a modal list of the notebooks ("All Notes" for the library's top); the
/// note's own notebook is shown but cannot be chosen. Escape cancels. Many notebooks scroll
/// (at most `listHeight` high): the window stays on the screen, Cancel in reach.
final class NotebookChooser {
    let window = Window()
    private var answered = false
    private let completion: (String?) -> Void
    /// The most the list asks for, in pixels (about twelve notebooks); fewer show whole.
    static let listHeight = 420

    init(title: String, notebooks: [String], current: String?, parent: Window?, completion: @escaping @MainActor (String?) -> Void) {
        self.completion = completion
        window.title = title
        window.transientFor = parent
        window.isModal = true
        window.setDefaultSize(width: 320, height: -1)
        let box = Box(.vertical, spacing: 6)
        box.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        // TRANSLATORS: above the list of notebooks a note can be moved to
        let prompt = Label(tr("Move to:"))
        prompt.xalign = 0
        box.append(prompt)
        let choices = Box(.vertical, spacing: 6)
        let scroller = ScrolledWindow()
        scroller.scrollVerticallyOnly()
        scroller.propagatesNaturalHeight = true
        scroller.maxContentHeight = Self.listHeight
        scroller.vexpand = true
        scroller.child = choices
        box.append(scroller)
        for path in [""] + notebooks {
            let depth = path.isEmpty ? 0 : path.split(separator: "/").count - 1
            let title = path.isEmpty ? tr("All Notes (no notebook)") : PathBytes.displayName(path)
            let button = Button(label: title)
            // TRANSLATORS: %s is a notebook's path ("Work/Projects")
            button.accessibleLabel = path.isEmpty ? tr("Move to All Notes, no notebook") : tr("Move to notebook %s", PathBytes.display(path))
            button.setMargins(top: 0, bottom: 0, start: 14 * depth, end: 0)
            button.isSensitive = path != current
            button.onClicked { [weak self] _ in self?.finish(path) }
            choices.append(button)
        }
        let cancel = Button(label: tr("Cancel"))
        cancel.accessibleLabel = tr("Cancel")
        cancel.halign = .end
        cancel.onClicked { [weak self] _ in self?.finish(nil) }
        box.append(cancel)
        window.child = box
        window.onEscape { [weak self] in self?.finish(nil) }
        window.onCloseRequest { [weak self] _ in
            self?.finish(nil)
            return true
        }
    }

    func present() { window.present() }

    private func finish(_ notebook: String?) {
        guard !answered else { return }
        answered = true
        window.destroy()
        completion(notebook)
    }
}

import Gtk
import NotesCore

/// One row of the notebook sidebar: a flat button with the notebook's name, indented by its
/// depth, marked when chosen; a note dropped on it moves there. Recycled: `show` gives it
/// another notebook (nil: All Notes).
final class NotebookRow {
    let button: Button
    private let label = Label()
    /// The notebook shown (nil: All Notes).
    private(set) var path: String?
    /// Clicked: pick `path`.
    var onPick: ((String?) -> Void)?
    /// A note (its id) was dropped on `path` ("" for All Notes: the library's top).
    var onDropNote: ((String, String) -> Void)?

    init() {
        label.xalign = 0
        label.ellipsizesAtEnd = true
        button = Button(child: label)
        button.addCSSClass("flat")
        button.addCSSClass("notebook-row")
        button.halign = .fill
        button.onClicked { [weak self] _ in
            guard let self else { return }
            self.onPick?(self.path)
        }
        button.acceptDroppedText({ [weak self] id in
            guard let self else { return false }
            self.onDropNote?(id, self.path ?? "")
            return true
        }, onHover: { [weak self] in DragReport.over(self?.path ?? "") })
    }

    func show(_ path: String?, selected: Bool) {
        self.path = path
        if let path {
            label.text = PathBytes.displayName(path)
            // TRANSLATORS: the accessible name of a notebook in the sidebar; %s is its path ("Work/Projects").
            button.accessibleLabel = tr("Notebook %s", path)
        } else {
            label.text = tr("All Notes")
            button.accessibleLabel = tr("All Notes")
        }
        let depth = path.map { $0.split(separator: "/").count - 1 } ?? 0
        button.setMargins(top: 0, bottom: 0, start: 6 + 14 * depth, end: 6)
        mark(selected: selected)
    }

    var isMarked: Bool { button.hasCSSClass("selected-notebook") }

    func mark(selected: Bool) {
        if selected { button.addCSSClass("selected-notebook") } else { button.removeCSSClass("selected-notebook") }
    }
}

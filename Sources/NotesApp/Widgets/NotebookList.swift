import Foundation
import Gtk
import NotesCore

/// The notebooks in the sidebar: "All Notes", then every notebook (nested ones indented),
/// the chosen one highlighted; "+" makes a new one. Notes dropped on a notebook move there.
/// It shows what it is given and reports what the user picks.
final class NotebookList {
    let root = Box(.vertical, spacing: 0)
    let addButton = Button(iconName: "list-add-symbolic")
    private let rows = Box(.vertical, spacing: 0)
    private var buttons: [(path: String?, button: Button)] = []
    /// The chosen notebook (nil: All Notes).
    private(set) var selected: String?
    /// The notebooks shown (paths relative to the library).
    private(set) var notebooks: [String] = []

    var onSelect: ((String?) -> Void)?
    var onAdd: (() -> Void)?
    /// A note (its id) was dropped on a notebook ("" for All Notes: the library's top).
    var onDropNote: ((String, String) -> Void)?

    init() {
        let header = Box(.horizontal, spacing: 6)
        header.setMargins(top: 6, bottom: 2, start: 10, end: 6)
        let title = Label(tr("Notebooks"))
        title.addCSSClass("note-meta")
        title.xalign = 0
        title.hexpand = true
        header.append(title)
        addButton.addCSSClass("flat")
        addButton.tooltip = tr("New Notebook")
        addButton.accessibleLabel = tr("New Notebook")
        addButton.onClicked { [weak self] _ in self?.onAdd?() }
        header.append(addButton)
        root.append(header)
        root.append(rows)
        root.addCSSClass("notebook-list")
        show([])
    }

    /// Shows the notebooks (paths relative to the library), keeping the choice if it is still there.
    func show(_ notebooks: [String]) {
        self.notebooks = notebooks
        for (_, button) in buttons { rows.remove(button) }
        buttons = [(nil, makeButton(path: nil, title: tr("All Notes"), depth: 0))]
        for path in notebooks {
            let depth = path.split(separator: "/").count - 1
            buttons.append((path, makeButton(path: path, title: (path as NSString).lastPathComponent, depth: depth)))
        }
        for (_, button) in buttons { rows.append(button) }
        if let selected, !notebooks.contains(selected) { select(nil) } else { highlight() }
    }

    func select(_ path: String?) {
        selected = path
        highlight()
        onSelect?(path)
    }

    private func highlight() {
        for (path, button) in buttons {
            if path == selected { button.addCSSClass("selected-notebook") } else { button.removeCSSClass("selected-notebook") }
        }
    }

    private func makeButton(path: String?, title: String, depth: Int) -> Button {
        let label = Label(title)
        label.xalign = 0
        label.ellipsizesAtEnd = true
        let button = Button(child: label)
        button.addCSSClass("flat")
        button.addCSSClass("notebook-row")
        button.halign = .fill
        button.setMargins(top: 0, bottom: 0, start: 6 + 14 * depth, end: 6)
        if let path {
            // TRANSLATORS: the accessible name of a notebook in the sidebar; %s is its path ("Work/Projects").
            button.accessibleLabel = tr("Notebook %s", path)
        } else {
            button.accessibleLabel = tr("All Notes")
        }
        button.onClicked { [weak self] _ in self?.select(path) }
        button.acceptDroppedText { [weak self] id in
            self?.onDropNote?(id, path ?? "")
            return true
        }
        return button
    }
}

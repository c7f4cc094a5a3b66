import Foundation
import Gtk
import NotesCore

/// The notebooks in the sidebar: "All Notes", then every notebook (nested ones indented),
/// the chosen one highlighted; "+" makes a new one. Notes dropped on a notebook move there.
/// It shows what it is given and reports what the user picks.
///
/// However many notebooks there are, the section asks for a bounded height: the notebooks
/// scroll within at most `maximumHeight` (a few rows show whole), so the notes list below
/// keeps its room and the window never grows to hold them (200 notebooks made it taller than
/// the screen, with no note visible).
final class NotebookList {
    let root = Box(.vertical, spacing: 0)
    let addButton = Button(iconName: "list-add-symbolic")
    private let rows = Box(.vertical, spacing: 0)
    /// The notebooks' own scrolled area (All Notes stays above it, always in reach).
    private let scroller = ScrolledWindow()
    /// The most the notebooks ask for (five and a half rows: the half one says there is
    /// more); fewer show whole.
    static let maximumHeight = 190
    /// The least they keep when the window is small (about one row).
    static let minimumHeight = 36
    /// The least the notes list below keeps (a few rows): the sidebar gives it this first.
    static let notesListMinimumHeight = 180
    private lazy var allNotesButton = makeButton(path: nil, title: tr("All Notes"), depth: 0)
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
        root.append(allNotesButton)
        scroller.scrollVerticallyOnly()
        scroller.propagatesNaturalHeight = true
        scroller.maxContentHeight = Self.maximumHeight
        scroller.minContentHeight = Self.minimumHeight
        scroller.child = rows
        root.append(scroller)
        root.addCSSClass("notebook-list")
        show([])
    }

    /// Shows the notebooks (paths relative to the library), keeping the choice if it is still there.
    func show(_ notebooks: [String]) {
        self.notebooks = notebooks
        for (path, button) in buttons where path != nil { rows.remove(button) }
        buttons = [(nil, allNotesButton)]
        for path in notebooks {
            let depth = path.split(separator: "/").count - 1
            let button = makeButton(path: path, title: PathBytes.displayName(path), depth: depth)
            buttons.append((path, button))
            rows.append(button)
        }
        // Only notebooks scroll; without any, their area takes no room at all.
        scroller.isVisible = !notebooks.isEmpty
        if let selected, !notebooks.contains(selected) { select(nil) } else { highlight() }
    }

    func select(_ path: String?) {
        selected = path
        highlight()
        if path != nil {
            // Once laid out: a notebook just made has no place yet (nor room to scroll to). Its
            // button is looked up then: a reload meanwhile makes new ones.
            scroller.onNextFramePainted { [weak self] in
                guard let self, let selected = self.selected, let button = self.buttons.first(where: { $0.path == selected })?.button else { return }
                self.scroller.scrollToShow(button)
            }
        }
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

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
    /// The notebooks: widgets only for the rows GTK shows (2,000 notebooks made 2,000 buttons).
    private let rows = RecyclingListView<NotebookRow>(widgetOf: { $0.button }, selectable: false)
    /// The notebooks' own scrolled area (All Notes stays above it, always in reach).
    private let scroller = ScrolledWindow()
    /// The most the notebooks ask for (five and a half rows: the half one says there is
    /// more); fewer show whole.
    static let maximumHeight = 190
    /// The least they keep when the window is small (about one row).
    static let minimumHeight = 36
    /// The least the notes list below keeps (a few rows): the sidebar gives it this first.
    static let notesListMinimumHeight = 180
    private lazy var allNotesRow: NotebookRow = {
        let row = makeRow()
        row.show(nil, selected: selected == nil)
        return row
    }()
    /// The chosen notebook (nil: All Notes).
    private(set) var selected: String?
    /// The notebooks shown (paths relative to the library).
    private(set) var notebooks: [String] = []
    /// How many rows' widgets were made (a test's figure).
    var rowsMade: Int { rows.rowsMade }
    /// The notebooks that have a row now (a test's figure).
    var notebooksWithRows: [String] { Array(rows.visibleRows.keys) }
    /// Whether the row of `path` is marked chosen (a test's view; false without a row).
    func isMarked(_ path: String) -> Bool { rows.row(showing: path)?.isMarked ?? false }

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
        root.append(allNotesRow.button)
        rows.onMakeRow = { [weak self] in self?.makeRow() ?? NotebookRow() }
        rows.onShowRow = { [weak self] row, path in row.show(path, selected: path == self?.selected) }
        // TRANSLATORS: the accessible name of the list of notebooks in the sidebar
        rows.accessibleLabel = tr("Notebooks")
        rows.addCSSClass("notebook-list-rows")
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
        ListsReport.notebooksListed(count: notebooks.count)
        // The same notebooks again (the folder read again after a note moved): the rows stay.
        // Made again, every row's widget goes (GTK 4.8 empties the list first), and a click on
        // a notebook at that moment is lost.
        if notebooks != self.notebooks { rows.replaceAll(with: notebooks) }
        self.notebooks = notebooks
        // Only notebooks scroll; without any, their area takes no room at all.
        scroller.isVisible = !notebooks.isEmpty
        if let selected, !notebooks.contains(selected) {
            select(nil)
        } else {
            highlight()
            // A new list starts at the top: the chosen notebook is brought back into view (a
            // notebook just made is often chosen before the reload that lists it).
            scrollToSelectedOnceLaidOut()
        }
        ListsReport.notebooksShown(count: notebooks.count, in: rows)
    }

    func select(_ path: String?) {
        selected = path
        highlight()
        scrollToSelectedOnceLaidOut()
        onSelect?(path)
    }

    /// Once laid out: a notebook just made has no place yet (nor room to scroll to). Its place
    /// is looked up then: a reload meanwhile may move it.
    private func scrollToSelectedOnceLaidOut() {
        guard selected != nil else { return }
        scroller.onNextFramePainted { [weak self] in
            guard let self, let selected = self.selected, let position = self.notebooks.firstIndex(of: selected) else { return }
            self.rows.scrollToShow(position)
        }
    }

    private func highlight() {
        allNotesRow.mark(selected: selected == nil)
        for (path, row) in rows.visibleRows { row.mark(selected: path == selected) }
    }

    private func makeRow() -> NotebookRow {
        let row = NotebookRow()
        row.onPick = { [weak self] path in self?.select(path) }
        row.onDropNote = { [weak self] id, path in self?.onDropNote?(id, path) }
        return row
    }
}

import Gtk
import NotesCore

/// The tags in the sidebar, under the notebooks: every `#tag` of the library with how many
/// notes hold it, nested tags (`#work/meetings`) under their parents as a tree. Clicking one
/// shows only its notes (with those of the tags inside it), together with the notebook and the
/// search; clicking it again shows all. Widgets only for the rows GTK shows. Hidden while the
/// library has no tags. It shows what it is given and reports what the user picks.
final class TagList {
    let root = Box(.vertical, spacing: 0)
    private let rows = RecyclingListView<TagRow>(widgetOf: { $0.button }, selectable: false)
    private let scroller = ScrolledWindow()
    private var tags: [String: LibraryIndex.TagCount] = [:]
    /// The tags shown, by key, in order (tests read it back).
    private(set) var keys: [String] = []
    /// The chosen tag's key (nil: none).
    private(set) var selected: String?
    var onSelect: ((String?) -> Void)?
    /// About one row's height (a flat button in the sidebar).
    static let rowHeight = 34

    init() {
        let header = Box(.horizontal, spacing: 6)
        header.setMargins(top: 6, bottom: 2, start: 10, end: 6)
        // TRANSLATORS: the heading of the list of #tags in the sidebar
        let title = Label(tr("Tags"))
        title.addCSSClass("note-meta")
        title.xalign = 0
        header.append(title)
        root.append(header)
        rows.onMakeRow = { [weak self] in
            let row = TagRow()
            row.onPick = { [weak self] key in self?.select(key == self?.selected ? nil : key) }
            return row
        }
        rows.onShowRow = { [weak self] row, key in
            guard let self, let tag = self.tags[key] else { return }
            row.show(tag, selected: key == self.selected)
        }
        // TRANSLATORS: the accessible name of the list of tags in the sidebar
        rows.accessibleLabel = tr("Tags")
        scroller.scrollVerticallyOnly()
        scroller.propagatesNaturalHeight = true
        scroller.maxContentHeight = 150
        scroller.child = rows
        root.append(scroller)
        root.addCSSClass("tag-list")
        root.isVisible = false
    }

    /// Shows the tags (in key order: parents before what is inside them), keeping the choice
    /// while the tag is still there.
    func show(_ counts: [LibraryIndex.TagCount]) {
        tags = Dictionary(counts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = counts.map(\.key)
        root.isVisible = !ordered.isEmpty
        // A few tags always show whole, however tall the rest of the sidebar is.
        scroller.minContentHeight = min(max(ordered.count, 1), 3) * Self.rowHeight
        if ordered != keys {
            keys = ordered
            rows.replaceAll(with: ordered)
        } else {
            for (key, row) in rows.visibleRows { if let tag = tags[key] { row.show(tag, selected: key == selected) } }
        }
        if let selected, tags[selected] == nil { select(nil) }
    }

    func select(_ key: String?) {
        selected = key
        for (shown, row) in rows.visibleRows { row.mark(selected: shown == key) }
        onSelect?(key)
    }

    /// Whether the row of `key` is marked chosen (tests; false without a row).
    func isMarked(_ key: String) -> Bool { rows.row(showing: key)?.isMarked ?? false }
}

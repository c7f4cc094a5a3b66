import Gtk
import NotesCore

/// The notes list: a `RecyclingListView` of the ids it shows — in `arrangement` order, only
/// the matches while searching — (a search result or a re-sort reaches GTK as one change, with
/// no object per note and no filter pass over the rows; GTK 4.8's row quirks are handled
/// there), with an empty state.
/// It shows summaries it is given and reports what the user selects; it never touches files.
/// The first responder for the library's errors (they climb to its controller).
final class NotesListView: Responder {
    let root = Stack()
    /// The rows: widgets only for the notes GTK shows.
    let list = RecyclingListView<NoteRow>(widgetOf: { $0.root })
    /// The ids shown, in order (`order`).
    var shown: IdListModel { list.model }
    var selection: SingleSelection { list.selection }
    private let scroller = ScrolledWindow()
    private(set) var notes = NoteTable()
    /// The ids the list shows, in order.
    var order: [String] { shown.ids }
    /// Pinned first, then the chosen sort order.
    var arrangement = NoteArrangement() {
        didSet { if arrangement != oldValue { rearrange() } }
    }
    /// Every note's id in `arrangement` order. A single note's change moves it by binary search
    /// (`upsert`, `remove`): no keystroke passes over every note.
    private(set) var sorted: [String] = []
    /// The index row of each of `sorted`: kept in step by `upsert` and `remove`, made again when
    /// the main loop is idle after a batch or a re-sort (40 ms at 100,000 notes) or when a
    /// search needs them first: typing then tests bits, not 100,000 dictionary lookups a
    /// keystroke.
    private var sortedRows: [Int64]?
    private var sortedRowsScheduled = false
    /// While searching: which notes match, by id and index row (nil: all notes), and the
    /// query, for highlights.
    private(set) var matching: ((_ id: String, _ indexRow: Int64?) -> Bool)?
    private(set) var query = ""
    /// While searching: a note's line that matches, for rows whose preview does not show it.
    var snippet: ((String) -> String?)?
    /// Rows on screen by note id, to refresh one without touching the model.
    var visibleRows: [String: NoteRow] { list.visibleRows }
    private var suppressSelectionEvents = false
    /// The notes selected, by id: one (GTK's selection, the editor's note), or several
    /// (Ctrl/Shift, Ctrl+A: `NotesListView+Selection`), GTK's then marking only the lead.
    /// A Ctrl+A still being made on another thread is shown first when asked for.
    var selectedNotes: NoteSelection {
        get {
            if pendingSelection != nil { showPendingSelection() }
            return shownSelection
        }
        set {
            pendingSelection = nil
            shownSelection = newValue
        }
    }
    /// The selection the rows show (`selectedNotes` without waiting for a pending one).
    var shownSelection = NoteSelection()
    var pendingSelection: PendingSelection?
    /// A plain press on one of several selected notes: it may start dragging them all, so
    /// that note alone is selected only when the button goes up.
    var pressOnSelection: String?
    /// A press or a key in the list is being handled (until the main loop turns): a change of
    /// GTK's row now is the user's.
    var handlingInput = false
    /// Several notes selected, or back to one.
    var onSelectedNotesChanged: ((NoteSelection) -> Void)?
    /// Delete with several notes selected.
    var onDeleteSelectedRequest: (() -> Void)?
    /// A batch large enough to be merged on another thread, being merged
    /// (`NotesListView+Batches`), and what waits for the list to show it.
    var batchInFlight: BatchInFlight?
    var waitingForBatch: [() -> Void] = []
    /// From how many changes a batch is merged on another thread (a test makes it small).
    var mergesOffMainFrom = 4096
    /// From how many notes shown Ctrl+A makes its selection on another thread (a test makes it small).
    var selectsAllOffMainFrom = 10_000
    /// Rows GTK made and mapped before the layout that gives them a place (`showAfterLayout`).
    var rowsAwaitingLayout: [NoteRow] = []
    let timeFormatter = RelativeTimeFormatter()
    private let noResults = Label()

    var onSelect: ((String?) -> Void)?
    var onDeleteRequest: ((String) -> Void)?
    /// The user clicked a row's yellow dot.
    var onShowConflicts: ((String) -> Void)?
    /// A middle-click on a row: the note in a window of its own.
    var onOpenInNewWindow: ((String) -> Void)?

    override init() {
        super.init()
        root.owner = self
        // TRANSLATORS: the accessible name of the list of notes.
        list.accessibleLabel = tr("Notes")
        list.addCSSClass("navigation-sidebar")
        scroller.scrollVerticallyOnly()
        scroller.child = list
        scroller.vexpand = true

        let empty = Box(.vertical, spacing: 8)
        empty.valign = .center
        empty.addCSSClass("empty-state")
        let headline = Label(tr("No notes yet"))
        let hint = Label(tr("Press Ctrl+N to write one"))
        hint.addCSSClass("note-meta")
        empty.append(headline)
        empty.append(hint)
        empty.setMargins(top: 24, bottom: 24, start: 24, end: 24)

        let unavailable = Label(tr("Your notes appear here when their folder is back"))
        unavailable.wraps = true
        unavailable.maxWidthChars = 24
        unavailable.addCSSClass("note-meta")
        unavailable.valign = .center

        root.add(scroller, name: "list")
        root.add(empty, name: "empty")
        root.add(unavailable, name: "unavailable")
        noResults.wraps = true
        noResults.maxWidthChars = 24
        noResults.addCSSClass("note-meta")
        noResults.valign = .center
        root.add(noResults, name: "no-results")
        root.visibleChildName = "empty"
        root.setSizeRequest(width: 220, height: -1)

        list.onMakeRow = { [weak self] in self?.makeRow() ?? NoteRow() }
        list.onShowRow = { [weak self] row, id in self?.bind(row, to: id) }
        selection.onSelectionChanged { [weak self] _ in
            guard let self, !self.suppressSelectionEvents else { return }
            // A press on one of several selected notes waits for the button to go up.
            if let pressed = self.pressOnSelection, pressed == self.selectedID { return }
            // GTK moves its row on its own too (4.18 selects the row it gives the focus to
            // when the focused row leaves the list): of several notes, only a click or a key
            // of the user's picks one alone.
            if self.selectedNotes.isMultiple && !self.handlingInput {
                let lead = self.shownPosition(of: self.selectedNotes.lead)
                return self.quietly { self.selection.selected = lead }
            }
            self.selectOnly(self.selectedID)  // a plain click, the arrow keys: that note alone
            self.onSelect?(self.selectedID)
        }
        addSelectionKeys()
        marksSelectedNotes()
    }

    override var nextResponder: Responder? { root.ancestorOwner as? Responder }

    var selectedID: String? { selection.selected.flatMap { order.indices.contains($0) ? order[$0] : nil } }
    var count: Int { order.count }
    /// Every note's id, shown or not (in list order).
    var allIDs: [String] { sorted }
    /// How many rows GTK's model holds.
    var shownCount: Int { shown.count }
    var orderedIDs: [String] { order }

    /// Replaces the whole list (start-up, rescan).
    func show(_ summaries: [NoteSummary]) {
        cancelBatchInFlight()
        notes = NoteTable(summaries)
        forgetSortedRows()
        rearrange()
    }

    /// Shows only the notes `includes` says (a search's matches) with `query` highlighted; nil
    /// shows every note. One change for GTK, whatever the number of rows (see `make bench`).
    func filter(_ includes: ((_ id: String, _ indexRow: Int64?) -> Bool)?, query: String) {
        matching = includes
        self.query = includes == nil ? "" : query
        let keep = selectedID
        replaceShown(with: visibleSorted())
        if let keep { select(keep, notify: false, scroll: false) }
        keepSelectedNotes()
        // New highlights: rows on screen now; the list's spare rows when they come into view.
        for (id, row) in visibleRows where row.root.isMapped { refreshRow(id) }
        updateEmptyState()
    }

    private func forgetSortedRows() {
        sortedRows = nil
        guard !sortedRowsScheduled else { return }
        sortedRowsScheduled = true
        Idle.once { [weak self] in
            guard let self else { return }
            self.sortedRowsScheduled = false
            _ = self.rowsOfSorted()
        }
    }

    /// `sortedRows`, -1 for a note the index has not listed yet.
    private func rowsOfSorted() -> [Int64] {
        if let sortedRows { return sortedRows }
        let rows = sorted.map { notes.indexRow(of: $0) ?? -1 }
        sortedRows = rows
        return rows
    }

    /// The notes of `sorted` that `matching` includes, in order.
    private func visibleSorted() -> [String] {
        guard let matching else { return sorted }
        let rows = rowsOfSorted()
        var shown: [String] = []
        for (id, row) in zip(sorted, rows) where matching(id, row < 0 ? nil : row) { shown.append(id) }
        return shown
    }

    /// Sorts every note again (start-up, sort order or pins changed), keeping the selection;
    /// the list shows the top of the new order.
    private func rearrange() {
        if let batchInFlight { batchInFlight.replay.append { [weak self] in self?.rearrange() } }
        show(order: arrangement.sortedIDs(notes.values), asNewItems: true)
    }

    /// Shows every note in `newSorted` order (`arrangement`'s), keeping the selection.
    private func show(order newSorted: [String], asNewItems: Bool = false) {
        guard newSorted != sorted else { return updateEmptyState() }
        let keep = selectedID
        sorted = newSorted
        forgetSortedRows()
        replaceShown(with: visibleSorted(), asNewItems: asNewItems)
        if let keep { select(keep, notify: false, scroll: false) }
        keepSelectedNotes()
        updateEmptyState()
    }

    /// The library cannot be reached: show nothing that looks like "no notes".
    func showUnavailable() {
        show([])
        root.visibleChildName = "unavailable"
    }

    /// Inserts or updates one note and keeps the list's order, moving as little as possible:
    /// its old and new places are found by binary search, in the whole order and in the
    /// search's matches (work per keystroke independent of the number of notes).
    func upsert(_ note: NoteSummary) {
        if let batchInFlight { batchInFlight.replay.append { [weak self] in self?.upsert(note) } }
        let note = keepingIndexRow(note)
        let old = notes[note.id]
        let wasSelected = old != nil && selectedID == note.id
        let from = old.flatMap { place(of: $0, in: sorted) }
        let shownFrom = matching == nil ? from : old.flatMap { place(of: $0, in: order) }
        notes[note.id] = note
        if let from {
            sorted.remove(at: from)
            sortedRows?.remove(at: from)
        }
        let to = arrangement.insertionIndex(of: note, count: sorted.count, id: { sorted[$0] }, summary: { notes[$0] })
        sorted.insert(note.id, at: to)
        sortedRows?.insert(note.indexRow ?? -1, at: to)
        // Where it shows now: its place in the order, or among the matches while searching.
        var shownTo: Int?
        if let matching {
            if matching(note.id, note.indexRow) {
                let order = self.order, skipped = shownFrom ?? order.count
                shownTo = arrangement.insertionIndex(of: note, count: order.count - (shownFrom == nil ? 0 : 1),
                                                     id: { order[$0 < skipped ? $0 : $0 + 1] }, summary: { notes[$0] })
            }
        } else {
            shownTo = to
        }
        if let shownFrom, shownFrom == shownTo {
            refreshRow(note.id)
        } else {
            quietly {
                if let shownFrom { list.splice(at: shownFrom, removing: 1, inserting: []) }
                if let shownTo { list.splice(at: shownTo, removing: 0, inserting: [note.id]) }
            }
        }
        if wasSelected, let shownTo { quietly { selection.selected = shownTo } }
        if shownTo == nil, selectedNotes.contains(note.id) { keepSelectedNotes() }  // no longer a match
        updateEmptyState()
    }

    /// Where a note, as the list holds it, is in `ids` (the order, or the matches shown).
    func place(of note: NoteSummary, in ids: [String]) -> Int? {
        arrangement.index(of: note, in: ids) { notes[$0] }
    }

    /// The row GTK shows the note `id` in, if it shows it.
    func shownPosition(of id: String?) -> Int? {
        id.flatMap { id in notes[id].flatMap { place(of: $0, in: order) } }
    }

    /// Many notes changed at once (a batch of the library index): the changed notes merged into
    /// the order (`NoteListBatch`), not a pass over every note per note, nor a sort of them
    /// all; a large batch is merged on another thread (`mergeOffMain`).
    func apply(upserted: [NoteSummary], removed: [String]) {
        if let batchInFlight { return batchInFlight.replay.append { [weak self] in self?.apply(upserted: upserted, removed: removed) } }
        guard upserted.count + removed.count > 16 else {
            removed.forEach(remove)
            upserted.forEach(upsert)
            return
        }
        guard upserted.count + removed.count < mergesOffMainFrom else { return mergeOffMain(upserted: upserted, removed: removed) }
        take(NoteListBatch(upserted: upserted, removed: removed, to: notes, sorted: sorted, arrangement: arrangement))
    }

    /// Shows `batch`'s notes, keeping the selection, and gives back the contents it replaced.
    /// A removed note's row stays in `visibleRows` until GTK unbinds it: a row reused in place
    /// is found by the note it showed.
    /// `selectionGone`: the selected notes the batch removes, when the selection is `as` still.
    @discardableResult
    func take(_ batch: NoteListBatch, selectionGone: (as: NoteSelection, gone: Set<String>)? = nil) -> (NoteTable, [String]) {
        let replaced = (notes, sorted)
        let keep = selectedNotes.isMultiple ? selectedNotes.lead : selectedID
        notes = batch.notes
        sorted = batch.sorted
        sortedRows = batch.indexRows
        replaceShown(with: visibleSorted())
        if let keep { select(keep, notify: false, scroll: false) }
        keepSelectedNotes(gone: selectionGone.flatMap { $0.as == selectedNotes ? $0.gone : nil })
        updateEmptyState()
        for (id, row) in visibleRows where batch.changed.contains(id) && row.noteID == id { refreshRow(id) }
        return replaced
    }

    /// Removes a note from the list (the caller decides what to select next).
    func remove(_ id: String) {
        if let batchInFlight { batchInFlight.replay.append { [weak self] in self?.remove(id) } }
        list.forgetRow(showing: id)
        guard let old = notes[id] else { return updateEmptyState() }
        let from = place(of: old, in: sorted)
        let shownFrom = matching == nil ? from : place(of: old, in: order)
        notes[id] = nil
        if let from {
            sorted.remove(at: from)
            sortedRows?.remove(at: from)
        }
        if let shownFrom { quietly { list.splice(at: shownFrom, removing: 1, inserting: []) } }
        if selectedNotes.contains(id) { keepSelectedNotes() }
        updateEmptyState()
    }

    func summary(_ id: String) -> NoteSummary? { notes[id] }

    /// A summary made outside the index (the editor's title, a restored note) keeps the row the
    /// index gave the note: search finds notes by it.
    private func keepingIndexRow(_ note: NoteSummary) -> NoteSummary {
        guard note.indexRow == nil, let row = notes[note.id]?.indexRow else { return note }
        var kept = note
        kept.indexRow = row
        return kept
    }

    /// Selects the note; `scroll` brings it into view — which in GTK 4.8 also moves the
    /// keyboard focus into the list, so keeping a selection while the user types elsewhere
    /// (search, editor) must not scroll.
    /// The lead of several selected notes selected again keeps them all; any other note is
    /// selected alone.
    func select(_ id: String?, notify: Bool, scroll: Bool = true) {
        if !(selectedNotes.isMultiple && id != nil && selectedNotes.lead == id) { selectOnly(id) }
        let position = shownPosition(of: id)
        if notify {
            selection.selected = position
        } else {
            quietly { selection.selected = position }
        }
        if scroll, let position { list.scrollTo(position) }
    }

    func focus() { list.grabFocus() }

    /// Shows `ids` in one change, with no row selected meanwhile: GtkSingleSelection looks for
    /// its selected item among every row a change adds (one GObject each: 0.4 s for 10,000
    /// rows). The caller selects again by id.
    ///
    /// While searching, rows of notes that no longer match go to notes that now do (GTK keeps
    /// those widgets and binds them again).
    private func replaceShown(with ids: [String], asNewItems: Bool = false) {
        quietly {
            selection.selected = nil
            let isGone: ((String) -> Bool)? = asNewItems ? nil : matching.map { matching in { !matching($0, self.notes.indexRow(of: $0)) } }
            list.replace(with: ids, asNewItems: asNewItems, isGone: isGone)
        }
    }

    func quietly(_ body: () -> Void) {
        let previous = suppressSelectionEvents
        suppressSelectionEvents = true
        body()
        suppressSelectionEvents = previous
    }

    private func updateEmptyState() {
        if order.isEmpty && matching != nil && !notes.isEmpty {
            if query.isEmpty {
                // No words searched for: the filter is a notebook's, and it is empty.
                noResults.text = tr("No notes in this notebook yet")
            } else {
                // TRANSLATORS: %s is what the user searched for.
                noResults.text = tr("No notes contain “%s”", query)
            }
            root.visibleChildName = "no-results"
        } else {
            root.visibleChildName = order.isEmpty ? "empty" : "list"
        }
    }
}

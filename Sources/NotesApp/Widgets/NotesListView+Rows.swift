import Gtk
import NotesCore

/// The rows of the notes list: made once (drag, middle click, context menu), then given a note
/// each time GTK binds them. Only a row on screen lays out its text; one out of sight is
/// placed (`NoteRow.place`) and shown when it maps or once the layout puts it on screen.
extension NotesListView {
    /// `row` shows the note `id` from now on.
    func bind(_ row: NoteRow, to id: String) {
        guard let note = notes[id] else { return }
        show(note, in: row)
    }

    /// How many rows' widgets were made (a test's figure).
    var rowsMade: Int { list.rowsMade }

    func makeRow() -> NoteRow {
        let row = NoteRow()
        row.root.dragsText { [weak self, weak row] in  // onto a notebook: moves the note there (or all selected)
            guard let self, let id = row?.noteID else { return nil }
            DragReport.began(id)
            return self.isSelectedAmongSeveral(id) ? DraggedNotes.text(for: self.selectedIDs) : id
        }
        addSelectionClicks(to: row)
        // On screen now: a row placed out of sight gets its text, a search's its matching line.
        row.root.onMap { [weak self, weak row] _ in
            if let self, let row, let id = row.noteID, row.isPlaceholder || !self.query.isEmpty { self.refreshRow(id) }
        }
        row.onShowConflicts = { [weak self] id in self?.onShowConflicts?(id) }
        let middle = ClickGesture(button: 2)
        middle.onPressed { [weak self, weak row] _, _, _, _ in
            if let id = row?.noteID { self?.onOpenInNewWindow?(id) }
        }
        row.root.addController(middle)
        // The right button selects the row (or keeps the notes selected with it), then offers
        // what the window's menu does for them.
        let secondary = ClickGesture(button: 3)
        secondary.onPressed { [weak self, weak row] _, _, x, y in
            guard let self, let row, let id = row.noteID else { return }
            if self.isSelectedAmongSeveral(id) {
                PopoverMenu(Self.severalMenu, on: row.root).popup(x: x, y: y)
            } else {
                self.select(id, notify: true, scroll: false)
                PopoverMenu(Self.rowMenu, on: row.root).popup(x: x, y: y)
            }
        }
        row.root.addController(secondary)
        return row
    }

    /// A row's context menu (the window's actions on the selected note).
    private static let rowMenu: Menu = {
        let menu = Menu()
        menu.append(tr("Open in New Window"), action: "win.open-in-new-window")
        menu.append(tr("Pin Note"), action: "win.pin-note")
        menu.append(tr("Move to Notebook…"), action: "win.move-note")
        menu.append(tr("Add Tag…"), action: "win.add-tag")
        menu.append(tr("Remove Tag…"), action: "win.remove-tag")
        menu.append(tr("Delete Note"), action: "win.delete-note")
        return menu
    }()

    /// The context menu of one of several selected notes: the actions on all of them.
    private static let severalMenu: Menu = {
        let menu = Menu()
        for (label, action) in SelectionPane.actions { menu.append(label, action: action) }
        return menu
    }()

    /// How many rows are bound to notes right now (the list recycles a screenful).
    var boundRowCount: Int { visibleRows.count }

    /// Updates the row of a note in place (title typed, time passed).
    func refreshRow(_ id: String) {
        guard let row = visibleRows[id], row.noteID == id, let note = notes[id] else { return }
        show(note, in: row)
    }

    /// Only a row on screen gets its text. One out of sight is placed (`NoteRow.place`) and
    /// shown when it maps; one GTK has just made is mapped before it has a place (GTK 4.8 makes
    /// ~200 at once as a search is cleared), so it waits for the layout (`laidOut`) to say.
    func show(_ note: NoteSummary, in row: NoteRow, laidOut: Bool = false) {
        let time = timeFormatter.string(for: note.modified), pinned = arrangement.pinned.contains(note.id)
        guard row.root.isMapped, laidOut || row.root.width > 0 else {
            row.place(note, time: time, pinned: pinned)
            if row.root.isMapped { showAfterLayout(row) }
            return
        }
        var shown = note
        // A match further down the note than the preview: show that line instead — read from
        // the file only for rows on screen (GTK binds ~200 rows; the rest get it when they map).
        if !query.isEmpty, !SearchHighlight.contains(note.title + note.preview, query),
           let line = snippet?(note.id) {
            shown.preview = line
        }
        row.show(shown, time: time, pinned: pinned, query: query)
    }

    /// Shows `row` in the next layout, if GTK put it on screen (else it waits for its map).
    private func showAfterLayout(_ row: NoteRow) {
        let isFirst = rowsAwaitingLayout.isEmpty
        rowsAwaitingLayout.append(row)
        guard isFirst else { return }
        list.onNextLayout { [weak self] in
            guard let self else { return }
            let rows = self.rowsAwaitingLayout
            self.rowsAwaitingLayout = []
            for row in rows where row.isPlaceholder && row.root.isMapped {
                guard let id = row.noteID, self.visibleRows[id] === row, let note = self.notes[id] else { continue }
                self.show(note, in: row, laidOut: true)
            }
        }
    }

    /// Relative times age: refresh the rows on screen.
    func refreshTimes() {
        for id in visibleRows.keys { refreshRow(id) }
    }
}

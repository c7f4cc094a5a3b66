import Gtk
import NotesCore

/// Several notes selected at once (issue #47): Ctrl+click toggles a note, Shift+click and
/// Shift+Up/Down extend a range from the anchor, Ctrl+A selects every note the list shows (a
/// search's or a notebook's), Escape goes back to one. GTK's own selection keeps one row, the
/// lead (the keyboard's place); the others are marked on their rows. The selection is kept by
/// id (`NoteSelection`): when the list changes under it, the same notes stay selected — those
/// it still shows — and never others.
extension NotesListView {
    /// The selected notes, in list order.
    /// (The selection holds only notes the list shows, but while a batch is merged: as many
    /// as it shows are all of them, with no lookup of 100,000.)
    var selectedIDs: [String] {
        guard selectedNotes.isMultiple else { return selectedID.map { [$0] } ?? [] }
        return batchInFlight == nil && selectedNotes.count == order.count ? order : selectedNotes.ordered(in: order)
    }

    /// Changes the selection as `change` says, marks the rows, and tells the window: the one
    /// note left is opened, several show what they are.
    func changeSelection(_ change: (inout NoteSelection) -> Void) {
        let before = selectedNotes
        change(&selectedNotes)
        if before.count >= OffMainRelease.worthFrom { OffMainRelease.later(before) }
        guard selectedNotes != before else { return }
        markSelectedRows()
        let lead = selectedNotes.lead
        let position = shownPosition(of: lead)
        quietly { selection.selected = position }
        if let position { list.scrollToShow(position) }
        if !selectedNotes.isMultiple { onSelect?(lead) }
        if selectedNotes.isMultiple || before.isMultiple { onSelectedNotesChanged?(selectedNotes) }
    }

    /// Ctrl+A: every note the list shows. From `selectsAllOffMainFrom` notes the set of them is
    /// made on another thread and shown once made, a moment later; whatever reads the
    /// selection before (a key pressed at once, the list changing) shows it first.
    /// `whenShown`: once the window painted it.
    func selectEveryShownNote(whenShown: (@MainActor () -> Void)? = nil) {
        let order = self.order
        guard order.count >= selectsAllOffMainFrom else {
            changeSelection { $0.selectAll(order) }
            if let whenShown { root.onNextFramePainted { whenShown() } }
            return
        }
        let pending = PendingSelection(whenShown: whenShown)
        let base = selectedNotes
        pendingSelection = pending
        pending.make(from: base, selectingAll: order) { [weak self] in
            // Shown already (something asked for it), or replaced: nothing more to do.
            guard let self, self.pendingSelection === pending else { return }
            self.showPendingSelection()
        }
    }

    /// The Ctrl+A made on another thread becomes the selection (waiting for it if not made yet).
    func showPendingSelection() {
        guard let pending = pendingSelection else { return }
        pendingSelection = nil
        let made = pending.wait()
        changeSelection { $0 = made }
        if let whenShown = pending.whenShown { root.onNextFramePainted { whenShown() } }
    }

    /// `id` alone (the caller selects it in GTK's selection and opens it); several selected
    /// before, the window shows the editor again.
    func selectOnly(_ id: String?) {
        guard selectedNotes.ids != Set([id].compactMap { $0 }) || selectedNotes.lead != id else { return }
        let wasMultiple = selectedNotes.isMultiple
        selectedNotes.selectOnly(id)
        guard wasMultiple else { return }
        markSelectedRows()
        onSelectedNotesChanged?(selectedNotes)
    }

    /// The list changed: selected notes it no longer shows leave the selection. Of several,
    /// the rest stay (GTK's row on the lead); one note alone gone or hidden leaves nothing
    /// selected, and its caller says what comes next, as before.
    /// A batch being merged may bring the notes back: the list keeps them until it is shown.
    /// `gone`, when the caller knows it, is every selected note the list no longer has (a
    /// large batch finds them on its own thread): the selection is not gone through again.
    func keepSelectedNotes(gone: Set<String>? = nil) {
        guard batchInFlight == nil, !selectedNotes.ids.isEmpty else { return }
        let wasMultiple = selectedNotes.isMultiple
        let changed = if let gone, matching == nil {
            !gone.isEmpty && selectedNotes.keep { !gone.contains($0) }
        } else {
            selectedNotes.keep { id in
                notes.contains(id) && (matching.map { $0(id, notes.indexRow(of: id)) } ?? true)
            }
        }
        guard changed, wasMultiple else { return }
        markSelectedRows()
        let lead = selectedNotes.lead
        quietly { selection.selected = shownPosition(of: lead) }
        if !selectedNotes.isMultiple { onSelect?(lead) }
        onSelectedNotesChanged?(selectedNotes)
    }

    /// GTK's selection model asks again which rows are selected: it draws them so and tells
    /// screen readers how many are.
    func markSelectedRows() {
        list.marks.marksChanged()
    }

    /// GTK asks whether the row at `position` is selected besides its own one.
    func marksSelectedNotes() {
        list.marks.isMarked = { [weak self] position in
            // The rows shown: a selection still being made is marked once made.
            guard let self, self.shownSelection.isMultiple, let id = self.shown[position] else { return false }
            return self.shownSelection.contains(id)
        }
    }

    func isSelectedAmongSeveral(_ id: String) -> Bool { selectedNotes.isMultiple && selectedNotes.contains(id) }

    /// The user's press or key is being handled: GTK may move its row for it
    /// (`handlingInput`), until the main loop turns (a timeout at the default priority runs
    /// before the next frame, where GTK moves the focus on its own).
    func noteInput() {
        guard !handlingInput else { return }
        handlingInput = true
        Timeout.once(milliseconds: 0) { [weak self] in self?.handlingInput = false }
    }

    /// Ctrl+click and Shift+click on a row, seen before GTK's own click selects it alone.
    func addSelectionClicks(to row: NoteRow) {
        let click = ClickGesture(button: 1)
        click.runBeforeWidget()
        click.onPressed { [weak self, weak row] gesture, _, _, _ in
            guard let self, let id = row?.noteID else { return }
            self.noteInput()
            switch gesture.currentModifiers & Key.modifierMask {
            case Key.primaryMask:
                gesture.claim()
                self.changeSelection { $0.toggle(id) }
            case Key.shiftMask:
                gesture.claim()
                let order = self.order
                self.changeSelection { $0.extend(to: id, in: order) }
            case 0 where self.selectedNotes.isMultiple && self.selectedNotes.contains(id):
                self.pressOnSelection = id
            default:
                break
            }
        }
        click.onReleased { [weak self, weak row] _, _, _, _ in
            self?.noteInput()
            guard let self, let id = self.pressOnSelection, id == row?.noteID else { return }
            self.pressOnSelection = nil
            self.changeSelection { $0.selectOnly(id) }
        }
        click.onCancelled { [weak self] _ in self?.pressOnSelection = nil }  // a drag took the press
        row.root.addController(click)
    }

    /// Ctrl+A, Escape, Shift+Up/Down and Delete in the list, before GTK's own bindings.
    func addSelectionKeys() {
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] _, keyval, modifiers in
            guard let self else { return false }
            self.noteInput()
            let modifiers = modifiers & Key.modifierMask
            switch (keyval, modifiers) {
            case (Key.letter("a"), Key.primaryMask):
                self.selectEveryShownNote()
                return true
            case (Key.escape, 0) where self.selectedNotes.isMultiple:
                self.changeSelection { $0.selectOnly($0.lead) }
                return true
            case (Key.up, Key.shiftMask), (Key.down, Key.shiftMask):
                let order = self.order
                guard let lead = self.selectedNotes.lead ?? self.selectedID, let at = order.firstIndex(of: lead) else { return true }
                let next = keyval == Key.up ? at - 1 : at + 1
                guard order.indices.contains(next) else { return true }
                self.changeSelection { $0.extend(to: order[next], in: order) }
                self.list.scrollTo(next)  // the keyboard's place follows
                return true
            case (Key.delete, 0), (Key.kpDelete, 0):
                if self.selectedNotes.isMultiple {
                    self.onDeleteSelectedRequest?()
                } else if let id = self.selectedID {
                    self.onDeleteRequest?(id)
                } else {
                    return false
                }
                return true
            default:
                return false
            }
        }
        list.addController(keys)
    }
}

import Foundation
import Gtk
import NotesCore

/// The Trash view in the sidebar: what was deleted, newest first, each with Restore and a box
/// to select it; Empty Trash at the top, and while some are selected, how many with Restore
/// and Delete Forever… for all of them (issue #47). It shows what it is given and reports what
/// the user asks for.
final class TrashView {
    struct Entry {
        let item: LibraryTrash.Item
        let title: String
    }

    let root = Box(.vertical, spacing: 0)
    let emptyButton = Button(label: tr("Empty Trash"))
    private let rows = Box(.vertical, spacing: 0)
    private let emptyState = Label(tr("The Trash is empty"))
    private let scroller = ScrolledWindow()
    private let timeFormatter = RelativeTimeFormatter()
    private(set) var entries: [Entry] = []
    private var rowBoxes: [Box] = []
    /// The items selected, by name in the Trash (kept when the Trash is read again).
    private(set) var selectedNames: Set<String> = []
    private var checks: [String: ToggleButton] = [:]
    /// "3 selected", Restore, Delete Forever…: shown while items are selected.
    private let selectionBar = Box(.horizontal, spacing: 6)
    private let selectionCount = Label()

    var onRestore: ((LibraryTrash.Item) -> Void)?
    var onEmpty: (() -> Void)?
    /// Restore or Delete Forever… for the selected items.
    var onRestoreSelected: (([LibraryTrash.Item]) -> Void)?
    var onDeleteSelected: (([LibraryTrash.Item]) -> Void)?

    init() {
        let header = Box(.horizontal, spacing: 6)
        header.setMargins(top: 6, bottom: 6, start: 10, end: 6)
        // TRANSLATORS: the heading of the Trash view.
        let title = Label(tr("Trash"))
        title.addCSSClass("heading")
        title.xalign = 0
        title.hexpand = true
        header.append(title)
        emptyButton.addCSSClass("destructive-action")
        emptyButton.accessibleLabel = tr("Empty Trash")
        emptyButton.tooltip = tr("Delete everything in the Trash for good")
        emptyButton.onClicked { [weak self] _ in self?.onEmpty?() }
        header.append(emptyButton)
        root.append(header)
        let explanation = Label(tr("Deleted notes stay here, in your notes folder, until you empty the Trash."))
        explanation.wraps = true
        explanation.xalign = 0
        explanation.addCSSClass("note-meta")
        explanation.setMargins(top: 0, bottom: 6, start: 10, end: 10)
        root.append(explanation)
        selectionBar.setMargins(top: 0, bottom: 6, start: 10, end: 6)
        selectionCount.hexpand = true
        selectionCount.xalign = 0
        selectionBar.append(selectionCount)
        // TRANSLATORS: buttons of the Trash for the selected notes
        let restoreSelected = Button(label: tr("Restore"))
        restoreSelected.accessibleLabel = tr("Restore the selected notes")
        restoreSelected.onClicked { [weak self] _ in
            guard let self else { return }
            self.onRestoreSelected?(self.selectedItems)
        }
        let deleteSelected = Button(label: tr("Delete Forever…"))
        deleteSelected.addCSSClass("destructive-action")
        deleteSelected.accessibleLabel = tr("Delete the selected notes forever")
        deleteSelected.onClicked { [weak self] _ in
            guard let self else { return }
            self.onDeleteSelected?(self.selectedItems)
        }
        selectionBar.append(restoreSelected)
        selectionBar.append(deleteSelected)
        selectionBar.isVisible = false
        root.append(selectionBar)
        // Ctrl+A selects every note in the Trash, Escape none.
        let keys = KeyController()
        keys.onKeyPressed { [weak self] _, keyval, modifiers in
            guard let self else { return false }
            switch (keyval, modifiers & Key.modifierMask) {
            case (Key.letter("a"), Key.primaryMask): self.selectAll(true)
            case (Key.escape, 0) where !self.selectedNames.isEmpty: self.selectAll(false)
            default: return false
            }
            return true
        }
        root.addController(keys)
        emptyState.addCSSClass("note-meta")
        emptyState.setMargins(top: 24, bottom: 24, start: 10, end: 10)
        rows.append(emptyState)
        scroller.scrollVerticallyOnly()
        scroller.child = rows
        scroller.vexpand = true
        root.append(scroller)
    }

    func show(_ entries: [Entry]) {
        self.entries = entries
        selectedNames.formIntersection(entries.map(\.item.name))
        checks = [:]
        for box in rowBoxes { rows.remove(box) }
        rowBoxes = entries.map(makeRow)
        for box in rowBoxes { rows.append(box) }
        emptyState.isVisible = entries.isEmpty
        emptyButton.isSensitive = !entries.isEmpty
        updateSelectionBar()
    }

    /// The selected items, in the order shown.
    var selectedItems: [LibraryTrash.Item] { entries.map(\.item).filter { selectedNames.contains($0.name) } }

    /// Selects every item, or none.
    func selectAll(_ all: Bool) {
        selectedNames = all ? Set(entries.map(\.item.name)) : []
        for (name, check) in checks { check.isActive = selectedNames.contains(name) }
        updateSelectionBar()
    }

    private func updateSelectionBar() {
        selectionBar.isVisible = !selectedNames.isEmpty
        // TRANSLATORS: in the Trash, how many notes are selected
        selectionCount.text = trn("%d selected", "%d selected", selectedNames.count, selectedNames.count)
    }

    private func makeRow(_ entry: Entry) -> Box {
        let row = Box(.horizontal, spacing: 6)
        row.addCSSClass("note-row")
        // A toggle, not a check box: GTK 4.18 gives check boxes no action a screen reader can press.
        let check = ToggleButton(iconName: "object-select-symbolic")
        check.addCSSClass("flat")
        check.addCSSClass("trash-select")
        check.valign = .center
        // TRANSLATORS: the accessible name of the box that selects a note in the Trash; %s is its title
        check.accessibleLabel = tr("Select “%s”", entry.title)
        check.isActive = selectedNames.contains(entry.item.name)
        check.onToggled { [weak self] check in
            guard let self else { return }
            if check.isActive { self.selectedNames.insert(entry.item.name) } else { self.selectedNames.remove(entry.item.name) }
            self.updateSelectionBar()
        }
        checks[entry.item.name] = check
        row.append(check)
        let text = Box(.vertical, spacing: 2)
        text.hexpand = true
        let title = Label(entry.title)
        title.addCSSClass("note-title")
        let folder = (entry.item.originalPath as NSString).deletingLastPathComponent
        let relative = timeFormatter.string(for: entry.item.deletedAt, inSentence: true)
        // TRANSLATORS: %s says when, lowercase: "5 minutes ago", "yesterday", a date.
        let deleted = tr("Deleted %s", relative)
        // TRANSLATORS: %1$s says when, lowercase ("5 minutes ago", "yesterday", a date); %2$s is the notebook it was in.
        let when = folder.isEmpty ? deleted : tr("Deleted %1$s from %2$s", relative, folder)
        let meta = Label(when)
        meta.addCSSClass("note-meta")
        for label in [title, meta] {
            label.xalign = 0
            label.ellipsizesAtEnd = true
            text.append(label)
        }
        // TRANSLATORS: a button: puts the deleted note back.
        let restore = Button(label: tr("Restore"))
        restore.valign = .center
        // TRANSLATORS: %s is the deleted note's title.
        restore.accessibleLabel = tr("Restore “%s”", entry.title)
        restore.onClicked { [weak self] _ in self?.onRestore?(entry.item) }
        row.append(text)
        row.append(restore)
        row.accessibleLabel = "\(entry.title), \(when)"
        return row
    }
}

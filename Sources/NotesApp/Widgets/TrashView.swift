import Foundation
import Gtk
import NotesCore

/// The Trash view in the sidebar: what was deleted, newest first, each with Restore; Empty
/// Trash at the top. It shows what it is given and reports what the user asks for.
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

    var onRestore: ((LibraryTrash.Item) -> Void)?
    var onEmpty: (() -> Void)?

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
        for box in rowBoxes { rows.remove(box) }
        rowBoxes = entries.map(makeRow)
        for box in rowBoxes { rows.append(box) }
        emptyState.isVisible = entries.isEmpty
        emptyButton.isSensitive = !entries.isEmpty
    }

    private func makeRow(_ entry: Entry) -> Box {
        let row = Box(.horizontal, spacing: 6)
        row.addCSSClass("note-row")
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

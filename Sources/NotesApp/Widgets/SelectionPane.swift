import Gtk
import NotesCore

/// Where the editor is while several notes are selected: how many ("12 notes selected"), the
/// first few titles, and the actions on all of them (the window's actions: the same as in the
/// rows' context menu and on keys). It shows what it is given.
final class SelectionPane {
    let root = Box(.vertical, spacing: 12)
    private let headline = Label()
    private let titles = Label()
    /// How many titles the pane names before "and N more".
    static let titlesShown = 5
    /// The window's actions on several notes, as the pane and the rows' menu offer them.
    static let actions: [(label: String, action: String)] = [
        (tr("Move to Notebook…"), "win.move-note"), (tr("Add Tag…"), "win.add-tag"), (tr("Remove Tag…"), "win.remove-tag"),
        // TRANSLATORS: actions on several selected notes
        (tr("Pin"), "win.pin-selected"), (tr("Unpin"), "win.unpin-selected"),
        (tr("Export as HTML…"), "win.export-selected"), (tr("Move to Trash"), "win.delete-note"),
    ]

    init() {
        root.addCSSClass("selection-pane")
        root.valign = .center
        root.halign = .center
        root.setMargins(top: 24, bottom: 24, start: 24, end: 24)
        // The list's own bold: a font of its own (title-2, 15 pt heavy) cost its first showing
        // ~3 ms of font loading and hinting, which put that frame over 16 ms at 10,000 notes.
        headline.addCSSClass("heading")
        headline.wraps = true
        titles.addCSSClass("note-meta")
        titles.wraps = true
        titles.maxWidthChars = 40
        root.append(headline)
        root.append(titles)
        let buttons = Box(.vertical, spacing: 6)
        buttons.halign = .center
        buttons.setMargins(top: 12, bottom: 0, start: 0, end: 0)
        for (label, action) in Self.actions {
            let button = Button(label: label)
            button.actionName = action
            if action == "win.delete-note" { button.addCSSClass("destructive-action") }
            buttons.append(button)
        }
        root.append(buttons)
    }

    /// `count` notes selected; `firstTitles` the titles of the first few, in list order.
    func show(count: Int, firstTitles: [String]) {
        // TRANSLATORS: where the editor is while several notes are selected; %d is how many
        headline.text = trn("%d note selected", "%d notes selected", count, count)
        var lines = firstTitles.prefix(Self.titlesShown).map { "“\($0)”" }
        if count > lines.count {
            // TRANSLATORS: after the first few titles of the selected notes; %d is how many more
            lines.append(trn("and %d more", "and %d more", count - lines.count, count - lines.count))
        }
        titles.text = lines.joined(separator: "\n")
        root.accessibleLabel = headline.text
    }
}

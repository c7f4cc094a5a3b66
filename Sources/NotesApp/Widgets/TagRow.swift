import Gtk
import NotesCore

/// One tag of the sidebar: its name (a nested tag indented under its parent, by its last
/// part) and how many notes hold it, marked when chosen. Recycled: `show` gives it another tag.
final class TagRow {
    let button: Button
    private let name = Label()
    private let count = Label()
    /// The tag shown (its key).
    private(set) var key = ""
    var onPick: ((String) -> Void)?

    init() {
        name.xalign = 0
        name.ellipsizesAtEnd = true
        name.hexpand = true
        count.addCSSClass("note-meta")
        let box = Box(.horizontal, spacing: 6)
        box.append(name)
        box.append(count)
        button = Button(child: box)
        button.addCSSClass("flat")
        button.addCSSClass("notebook-row")
        button.halign = .fill
        button.onClicked { [weak self] _ in
            guard let self else { return }
            self.onPick?(self.key)
        }
    }

    func show(_ tag: LibraryIndex.TagCount, selected: Bool) {
        key = tag.key
        let parts = tag.name.split(separator: "/")
        name.text = "#" + (parts.last.map(String.init) ?? tag.name)
        count.text = String(tag.count)
        // TRANSLATORS: the accessible name of a tag in the sidebar; %1$s is the tag ("work/meetings"), %2$d how many notes hold it.
        button.accessibleLabel = trn("Tag %1$s, %2$d note", "Tag %1$s, %2$d notes", tag.count, tag.name, tag.count)
        button.setMargins(top: 0, bottom: 0, start: 6 + 14 * max(0, parts.count - 1), end: 6)
        mark(selected: selected)
    }

    var isMarked: Bool { button.hasCSSClass("selected-notebook") }

    func mark(selected: Bool) {
        if selected { button.addCSSClass("selected-notebook") } else { button.removeCSSClass("selected-notebook") }
    }
}

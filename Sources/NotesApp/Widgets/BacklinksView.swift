import Gtk
import NotesCore

/// Under the note: "Linked from N notes", and each such note's title with the line that
/// links; a click opens that note. The heading folds the list away (remembered by the
/// window). Hidden while no note links here. It shows what it is given.
final class BacklinksView {
    let root = Box(.vertical, spacing: 0)
    private let heading = Button(label: "")
    private let rows = Box(.vertical, spacing: 0)
    private let scroller = ScrolledWindow()
    private let revealer = Revealer()
    private var rowButtons: [(button: Button, title: Label, line: Label)] = []
    /// What is shown (tests read it back).
    private(set) var backlinks: [LibraryIndex.Backlink] = []
    var onOpen: ((String) -> Void)?
    /// The user folded or unfolded the list.
    var onExpandedChanged: ((Bool) -> Void)?

    var isExpanded: Bool {
        get { revealer.revealsChild }
        set {
            revealer.revealsChild = newValue
            heading.removeCSSClass(newValue ? "folded" : "unfolded")
            heading.addCSSClass(newValue ? "unfolded" : "folded")
        }
    }

    /// The heading as shown ("Linked from 2 notes").
    var headingText: String { heading.label }

    init() {
        root.addCSSClass("backlinks")
        heading.addCSSClass("flat")
        heading.addCSSClass("backlinks-heading")
        heading.halign = .start
        heading.onClicked { [weak self] _ in
            guard let self else { return }
            self.isExpanded.toggle()
            self.onExpandedChanged?(self.isExpanded)
        }
        scroller.scrollVerticallyOnly()
        scroller.propagatesNaturalHeight = true
        scroller.maxContentHeight = 180
        scroller.child = rows
        // TRANSLATORS: the accessible name of the list of notes that link to the open note
        rows.accessibleLabel = tr("Notes linking here")
        revealer.child = scroller
        root.append(heading)
        root.append(revealer)
        isExpanded = true
        root.isVisible = false
    }

    func show(_ backlinks: [LibraryIndex.Backlink]) {
        self.backlinks = backlinks
        root.isVisible = !backlinks.isEmpty
        // TRANSLATORS: the heading of the list under a note of the notes that link to it; %d is how many.
        heading.label = trn("Linked from %d note", "Linked from %d notes", backlinks.count, backlinks.count)
        heading.accessibleLabel = heading.label
        while rowButtons.count < backlinks.count { addRow() }
        for (index, row) in rowButtons.enumerated() {
            row.button.isVisible = index < backlinks.count
            guard index < backlinks.count else { continue }
            let link = backlinks[index]
            row.title.text = link.title
            row.line.text = link.context
            // TRANSLATORS: the accessible name of a note in the list of notes linking here; %1$s is its title, %2$s the line that links.
            row.button.accessibleLabel = tr("%1$s: %2$s", link.title, link.context)
        }
    }

    private func addRow() {
        let title = Label()
        title.xalign = 0
        title.ellipsizesAtEnd = true
        title.addCSSClass("backlink-title")
        let line = Label()
        line.xalign = 0
        line.ellipsizesAtEnd = true
        line.addCSSClass("note-meta")
        let box = Box(.vertical, spacing: 1)
        box.append(title)
        box.append(line)
        let button = Button(child: box)
        button.addCSSClass("flat")
        button.halign = .fill
        let index = rowButtons.count
        button.onClicked { [weak self] _ in
            guard let self, index < self.backlinks.count else { return }
            self.onOpen?(self.backlinks[index].noteID)
        }
        rowButtons.append((button, title, line))
        rows.append(button)
    }
}

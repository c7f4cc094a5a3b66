import Dispatch
import Gtk
import NotesCore

/// The outline of the open note (issue #48): a button under the text (and Ctrl+Shift+O,
/// `win.outline`) opens the note's headings as a menu, indented by level, the heading the
/// cursor is under marked; choosing one puts the cursor at it, at the top of the view. It
/// follows edits a moment after they rest; a large note's headings are found on a queue of
/// their own (`NoteOutline`, NotesCore). The menu is never changed while it shows (GTK 4.18
/// gives items rebuilt then no names on the accessibility bus): headings found meanwhile wait
/// until it closes.
final class EditorOutline {
    let root: MenuButton
    private let textView: TextView
    private let buffer: TextBuffer
    private let menu = Menu()
    /// The heading chosen or under the cursor: its line, as the menu items' target.
    private let go = SimpleAction(name: "go", choice: "")
    private var outline = NoteOutline(text: "")
    private var pending: DispatchWorkItem?
    private var menuShows = false
    /// Headings found while the menu showed.
    private var waiting: NoteOutline?
    /// Grows with each change: headings found elsewhere for an older text are dropped.
    private var generation = 0
    private static let finding = DispatchQueue(label: "notula.outline", qos: .utility)
    /// From this many bytes the headings are found off the main thread.
    static let findsElsewhereFrom = 64 * 1024

    init(textView: TextView, buffer: TextBuffer) {
        self.textView = textView
        self.buffer = buffer
        root = MenuButton(iconName: "view-list-bullet-symbolic", menu: menu)
        root.addCSSClass("flat")
        root.opensUpward()
        // TRANSLATORS: the button under the text that lists the note's headings.
        root.accessibleLabel = tr("Outline")
        root.tooltip = tr("Outline (Ctrl+Shift+O)")
        root.setMargins(top: 0, bottom: 0, start: 6, end: 0)
        root.addActions([go], prefix: "outline")
        go.onChangeState { [weak self] action, value in
            guard let self, let line = Int(value) else { return }
            action.choice = value
            self.goTo(line: line)
        }
        root.onMenuShown { [weak self] _ in self?.menuShows = true }
        // Closed (a heading chosen, or Escape): back to the text, where the user was.
        root.onMenuClosed { [weak self] _ in
            guard let self else { return }
            self.menuShows = false
            if let waiting = self.waiting {
                self.waiting = nil
                self.take(waiting)
            }
            Timeout.once(milliseconds: 0) { [weak self] in _ = self?.textView.grabFocus() }
        }
        showHeadings()
        buffer.onChanged { [weak self] _ in self?.textChanged() }
        buffer.onCursorMoved { [weak self] _ in self?.markHeadingAtCursor() }
    }

    /// Opens the list (Ctrl+Shift+O), with the headings of the text as it is now.
    func open() {
        if let pending, !pending.isCancelled {
            pending.cancel()
            find()
        }
        root.popup()
    }

    /// Another note is shown: its headings at once.
    func noteShown() {
        pending?.cancel()
        find()
    }

    private func textChanged() {
        generation += 1
        pending?.cancel()
        let work = DispatchWorkItem { [weak self] in
            self?.pending = nil
            self?.find()
        }
        pending = work
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.3, execute: work)
    }

    private func find() {
        generation += 1
        let text = buffer.text
        guard text.utf8.count >= Self.findsElsewhereFrom else { return take(NoteOutline(text: text)) }
        let asked = generation
        Self.finding.async {
            let outline = NoteOutline(text: text)
            DispatchQueue.main.async { [weak self] in
                guard let self, self.generation == asked else { return }
                self.take(outline)
            }
        }
    }

    private func take(_ found: NoteOutline) {
        if menuShows { return waiting = found }
        guard found != outline else { return markHeadingAtCursor() }
        outline = found
        showHeadings()
        markHeadingAtCursor()
    }

    private func showHeadings() {
        menu.removeAll()
        guard !outline.headings.isEmpty else {
            // TRANSLATORS: the outline's only line when the note has no Markdown headings.
            return menu.appendInactive(tr("No headings (lines starting with #)"))
        }
        let top = outline.headings.map(\.level).min() ?? 1
        for heading in outline.headings {
            let indent = String(repeating: "\u{2003}", count: heading.level - top)
            menu.appendVerbatim(indent + String(heading.title.prefix(120)), action: "outline.go::\(heading.line)")
        }
    }

    private func markHeadingAtCursor() {
        let line = buffer.line(atOffset: buffer.cursorOffset)
        let current = outline.heading(atLine: line).map { String($0.line) } ?? ""
        if go.choice != current { go.choice = current }
    }

    /// The cursor at the start of `line`, that line at the top of the view.
    func goTo(line: Int) {
        guard line < buffer.lineCount else { return }
        let offset = buffer.startOffset(ofLine: line)
        buffer.cursorOffset = offset
        textView.scrollToTop(ofOffset: offset)
    }
}

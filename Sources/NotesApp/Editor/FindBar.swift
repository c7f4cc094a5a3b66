import Gtk
import NotesCore

/// Find and replace in the open note (GtkSourceSearchContext), above the text: the match count
/// ("2 of 5"), previous/next (Enter, Shift+Enter; Ctrl+G, Ctrl+Shift+G from the text), Match
/// Case, and with Ctrl+H a replace row: Replace and Replace All (one undo step). Escape closes
/// it and puts the cursor back in the text at the last match.
final class FindBar {
    let root = Box(.vertical, spacing: 6)
    let findEntry = SearchEntry()
    let replaceEntry = Entry()
    let countLabel = Label()
    let matchCase = CheckButton(label: tr("Match Case"))
    let previousButton = Button(iconName: "go-up-symbolic")
    let nextButton = Button(iconName: "go-down-symbolic")
    // TRANSLATORS: a button: replaces the selected match.
    let replaceButton = Button(label: tr("Replace"))
    let replaceAllButton = Button(label: tr("Replace All"))
    private let closeButton = Button(iconName: "window-close-symbolic")
    private let replaceRow = Box(.horizontal, spacing: 6)
    private let search: SourceSearch
    private let buffer: TextBuffer
    private let textView: TextView

    init(buffer: SourceBuffer, textView: TextView) {
        self.buffer = buffer
        self.textView = textView
        search = SourceSearch(buffer: buffer)
        root.addCSSClass("find-bar")
        root.isVisible = false

        let findRow = Box(.horizontal, spacing: 6)
        findEntry.setPlaceholder(tr("Find in note"))
        findEntry.accessibleLabel = tr("Find in note")
        findEntry.hexpand = true
        countLabel.addCSSClass("dim-label")
        // TRANSLATORS: the accessible name of the label that counts the matches ("2 of 5").
        countLabel.accessibleLabel = tr("Matches")
        previousButton.tooltip = tr("Previous Match (Shift+Enter)")
        previousButton.accessibleLabel = tr("Previous Match")
        nextButton.tooltip = tr("Next Match (Enter)")
        nextButton.accessibleLabel = tr("Next Match")
        closeButton.tooltip = tr("Close (Escape)")
        closeButton.accessibleLabel = tr("Close Find Bar")
        for button in [previousButton, nextButton, closeButton] { button.hasFrame = false }
        for widget: Widget in [findEntry, countLabel, previousButton, nextButton, matchCase, closeButton] { findRow.append(widget) }

        replaceEntry.setPlaceholder(tr("Replace with"))
        replaceEntry.accessibleLabel = tr("Replace with")
        replaceEntry.hexpand = true
        for widget: Widget in [replaceEntry, replaceButton, replaceAllButton] { replaceRow.append(widget) }
        replaceRow.isVisible = false
        root.append(findRow)
        root.append(replaceRow)

        findEntry.onSearchChanged { [weak self] entry in self?.searchFor(entry.text) }
        findEntry.onActivate { [weak self] _ in self?.next() }
        findEntry.onStopSearch { [weak self] _ in self?.close() }
        let findKeys = KeyController()
        findKeys.onKeyPressed { [weak self] _, keyval, modifiers in
            guard keyval == Key.returnKey || keyval == Key.kpEnter, modifiers & Key.modifierMask == Key.shiftMask else { return false }
            self?.previous()
            return true
        }
        findEntry.addController(findKeys)
        let replaceKeys = KeyController()
        replaceKeys.onKeyPressed { [weak self] _, keyval, _ in
            guard keyval == Key.escape else { return false }
            self?.close()
            return true
        }
        replaceEntry.addController(replaceKeys)
        replaceEntry.onActivate { [weak self] _ in self?.replace() }
        matchCase.onToggled { [weak self] box in
            self?.search.isCaseSensitive = box.isActive
            self?.updateCount()
        }
        previousButton.onClicked { [weak self] _ in self?.previous() }
        nextButton.onClicked { [weak self] _ in self?.next() }
        replaceButton.onClicked { [weak self] _ in self?.replace() }
        replaceAllButton.onClicked { [weak self] _ in self?.replaceAll() }
        closeButton.onClicked { [weak self] _ in self?.close() }
        search.onMatchCountChanged { [weak self] _ in self?.updateCount() }
        updateCount()
    }

    var isOpen: Bool { root.isVisible }
    var isReplacing: Bool { replaceRow.isVisible }

    /// Opens the bar (with the replace row for Ctrl+H), starting from the selected text when
    /// it is on one line, and puts the cursor in the find field.
    func open(replacing: Bool) {
        let selection = buffer.selection
        if !selection.isEmpty, selection.count < 200 {
            let selected = buffer.text(in: selection)
            if !selected.contains("\n") { findEntry.text = selected }
        }
        // Ctrl+F on an open bar keeps its replace row; a bar opened anew shows it for Ctrl+H only.
        replaceRow.isVisible = textView.isEditable && (replacing || isOpen && replaceRow.isVisible)
        root.isVisible = true
        search.isHighlighting = true
        searchFor(findEntry.text, moving: false)
        if replacing && !findEntry.text.isEmpty {
            _ = replaceEntry.grabFocus()
        } else {
            _ = findEntry.grabFocus()
            findEntry.selectAll()
        }
    }

    func close() {
        guard isOpen else { return }
        root.isVisible = false
        search.isHighlighting = false
        _ = textView.grabFocus()
    }

    /// The note's text was replaced (another note opened): the count starts again.
    func textReplaced() { updateCount() }

    /// Selects the next match after the selection (wrapping around); false: none.
    @discardableResult
    func next() -> Bool { move(backwards: false) }

    @discardableResult
    func previous() -> Bool { move(backwards: true) }

    /// Replaces the selected match and selects the next one (a read-only note only finds).
    func replace() {
        guard textView.isEditable else { return }
        let selection = buffer.selection
        if !selection.isEmpty, search.matchNumber(of: selection) ?? 0 > 0 {
            search.replace(selection, with: replaceEntry.text)
        }
        next()
    }

    /// Replaces every match, as one undo step.
    @discardableResult
    func replaceAll() -> Int {
        guard textView.isEditable else { return 0 }
        let count = search.replaceAll(with: replaceEntry.text)
        countLabel.text = trn("Replaced %d match", "Replaced %d matches", count)
        return count
    }

    /// What the count label says ("2 of 5", "No matches").
    var countText: String { countLabel.text }

    private func searchFor(_ text: String, moving: Bool = true) {
        search.text = text
        if moving, !text.isEmpty {
            // As you type, the first match from where the cursor was.
            let from = buffer.selection.lowerBound
            if let match = search.match(after: from) { select(match) }
        }
        updateCount()
    }

    private func move(backwards: Bool) -> Bool {
        guard !search.text.isEmpty else { return false }
        let selection = buffer.selection
        guard let match = search.match(after: backwards ? selection.lowerBound : selection.upperBound, backwards: backwards) else {
            updateCount()
            return false
        }
        select(match)
        return true
    }

    private func select(_ match: Range<Int>) {
        buffer.selection = match
        textView.scrollToCursor()
        updateCount()
    }

    private func updateCount() {
        let enabled = !search.text.isEmpty
        for button in [previousButton, nextButton, replaceButton, replaceAllButton] { button.isSensitive = enabled }
        guard enabled else {
            countLabel.text = ""
            return
        }
        guard let count = search.matchCount else {
            countLabel.text = tr("Counting…")
            return
        }
        if count == 0 {
            countLabel.text = tr("No matches")
            for button in [previousButton, nextButton, replaceButton, replaceAllButton] { button.isSensitive = false }
        } else if let number = search.matchNumber(of: buffer.selection), number > 0 {
            // TRANSLATORS: the match the cursor is on, of how many: "2 of 5".
            countLabel.text = trn("%1$d of %2$d", "%1$d of %2$d", count, number, count)
        } else {
            countLabel.text = trn("%d match", "%d matches", count)
        }
    }
}

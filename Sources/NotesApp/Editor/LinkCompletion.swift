import Gtk
import NotesCore

/// Completion as the user types a link or a tag: after `[[` the notes whose titles match what
/// follows (the index answers, titles starting so first), after `#` at a word's start the
/// tags that do. A popover under the cursor that never takes the keyboard: Up and Down choose,
/// Enter or Tab write the choice (`Title]]`, one undo step), Escape closes it until the
/// typing moves elsewhere; a click writes it too. It goes when the text loses the focus.
final class LinkCompletion {
    /// What is being completed: a title after `[[`, or a tag after `#`, and where the typed
    /// part starts (a character offset of the buffer).
    enum Context: Equatable {
        case title(typed: String, start: Int)
        case tag(typed: String, start: Int)

        var start: Int {
            switch self {
            case .title(_, let start), .tag(_, let start): return start
            }
        }
    }

    /// A suggestion: what the row shows, and what choosing it writes.
    struct Suggestion: Equatable {
        var label: String
        var text: String
    }

    private let textView: TextView
    private let buffer: TextBuffer
    private let rows = Box(.vertical, spacing: 0)
    private(set) lazy var popover = Popover(child: rows)
    private var buttons: [Button] = []
    private var labels: [Label] = []
    private(set) var suggestions: [Suggestion] = []
    private(set) var selected = 0
    private(set) var context: Context?
    /// Escape closed it here: not offered again until the typing moves elsewhere.
    private var dismissed: Context?
    /// Titles matching the typed text (the index, asked off the main thread).
    var suggestTitles: ((String, @escaping @MainActor ([String]) -> Void) -> Void)?
    /// Tags matching the typed text.
    var suggestTags: ((String, @escaping @MainActor ([String]) -> Void) -> Void)?
    /// Whether the editor may be written (read-only notes get no completion).
    var isEditable: () -> Bool = { true }

    var isShown: Bool { popover.isShown }

    init(textView: TextView, buffer: TextBuffer) {
        self.textView = textView
        self.buffer = buffer
        rows.addCSSClass("link-completion")
        // TRANSLATORS: the accessible name of the list of suggestions shown while typing a [[link]] or a #tag
        rows.accessibleLabel = tr("Suggestions")
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] _, key, modifiers in self?.keyPressed(key, modifiers) ?? false }
        textView.addController(keys)
        // Typing went elsewhere (the search field, the list): the suggestions go too.
        let focus = FocusController()
        focus.onLeave { [weak self] _ in
            self?.hide()
            self?.context = nil
        }
        textView.addController(focus)
    }

    /// The text or the cursor changed: look again at what is being typed.
    func update() {
        let found = isEditable() ? Self.context(beforeCursor: lineBeforeCursor, cursor: buffer.cursorOffset) : nil
        guard found != context else { return }
        context = found
        if let dismissed, found?.start != dismissed.start { self.dismissed = nil }
        guard let found, dismissed == nil else { return hide() }
        switch found {
        case .title(let typed, _):
            suggestTitles?(typed) { [weak self] titles in
                guard self?.context == found else { return }
                self?.show(titles.map { Suggestion(label: $0, text: $0 + "]]") })
            }
        case .tag(let typed, _):
            suggestTags?(typed) { [weak self] tags in
                guard self?.context == found else { return }
                self?.show(tags.filter { TitleKey.of($0) != TitleKey.of(typed) }.map { Suggestion(label: "#" + $0, text: $0) })
            }
        }
    }

    func hide() {
        popover.hide()
        suggestions = []
    }

    /// Writes the chosen suggestion in place of the typed part.
    func accept(_ index: Int? = nil) {
        guard let context, suggestions.indices.contains(index ?? selected) else { return }
        var text = suggestions[index ?? selected].text
        let start = context.start
        let end = buffer.cursorOffset
        // "]]" typed already (or put there by the editor) is not written twice.
        var replaced = start..<end
        if text.hasSuffix("]]"), buffer.text(in: end..<min(end + 2, buffer.characterCount)) == "]]" { replaced = start..<end + 2 }
        if case .tag = context, end < buffer.characterCount, buffer.character(at: end)?.properties.isWhitespace == false { text += " " }
        hide()
        self.context = nil
        buffer.replace(replaced, with: text)
        buffer.cursorOffset = start + text.unicodeScalars.count
    }

    private var lineBeforeCursor: String {
        let cursor = buffer.cursorOffset
        let line = buffer.line(atOffset: cursor)
        let start = buffer.startOffset(ofLine: line)
        return cursor - start > 300 ? "" : buffer.text(in: start..<cursor)
    }

    /// What is being completed, from the line's text before the cursor (`cursor`: its offset).
    static func context(beforeCursor line: String, cursor: Int) -> Context? {
        let chars = Array(line.unicodeScalars)
        // `[[typed`: no bracket or bar since, not escaped, not in a code span.
        var index = chars.count - 1
        while index >= 1, !"[]|`".unicodeScalars.contains(chars[index]) { index -= 1 }
        if index >= 1, chars[index] == "[", chars[index - 1] == "[", index < 2 || chars[index - 2] != "\\",
           chars[..<index].filter({ $0 == "`" }).count % 2 == 0 {
            let typed = chars[(index + 1)...]
            if !typed.isEmpty, !typed.first!.properties.isWhitespace {
                return .title(typed: String(String.UnicodeScalarView(typed)), start: cursor - typed.count)
            }
            if typed.isEmpty { return .title(typed: "", start: cursor) }
        }
        // `#typed` at a word's start.
        var start = chars.count
        while start > 0, TagMention.isTagCharacter(chars[start - 1]) { start -= 1 }
        guard start > 0, start < chars.count, chars[start - 1] == "#", chars[start].properties.isAlphabetic,
              start == 1 || chars[start - 2].properties.isWhitespace || chars[start - 2] == "(",
              chars[..<start].filter({ $0 == "`" }).count % 2 == 0 else { return nil }
        let typed = chars[start...]
        return .tag(typed: String(String.UnicodeScalarView(typed)), start: cursor - typed.count)
    }

    private func show(_ found: [Suggestion]) {
        suggestions = found
        selected = 0
        guard !found.isEmpty, let context else { return hide() }
        while buttons.count < found.count {
            let label = Label()
            label.xalign = 0
            label.ellipsizesAtEnd = true
            label.maxWidthChars = 40
            let button = Button(child: label)
            button.addCSSClass("flat")
            button.canFocus = false
            let index = buttons.count
            button.onClicked { [weak self] _ in self?.accept(index) }
            buttons.append(button)
            labels.append(label)
            rows.append(button)
        }
        for (index, button) in buttons.enumerated() {
            button.isVisible = index < found.count
            if index < found.count {
                labels[index].text = found[index].label
                button.accessibleLabel = found[index].label
            }
        }
        mark()
        let rect = textView.rectangle(atOffset: context.start)
        let point = textView.viewPoint(fromBufferPoint: rect.x, rect.y)
        popover.show(on: textView, pointingTo: point.x, point.y, width: 1, height: rect.height)
    }

    private func mark() {
        for (index, button) in buttons.enumerated() {
            if index == selected { button.addCSSClass("completion-selected") } else { button.removeCSSClass("completion-selected") }
        }
    }

    private func keyPressed(_ key: UInt32, _ modifiers: UInt32) -> Bool {
        guard isShown, !suggestions.isEmpty, modifiers & Key.controlMask == 0 else { return false }
        switch key {
        case Key.down:
            selected = (selected + 1) % suggestions.count
            mark()
        case Key.up:
            selected = (selected + suggestions.count - 1) % suggestions.count
            mark()
        case Key.returnKey, Key.kpEnter, Key.tab:
            accept()
        case Key.escape:
            dismissed = context
            hide()
        default:
            return false
        }
        return true
    }
}

import Dispatch
import Gtk
import NotesCore

/// `[[Title]]` links in the editor. Ctrl+click on one — or Ctrl+Enter with the cursor in
/// one — asks the window to open the note so titled (`onOpenTitle`: it opens it, at the
/// `#heading` the link names, asks which of several, or offers to create it). A link to a title no note has is drawn as missing
/// (`MarkdownTheme.missingNoteLinkTag`), looked up in the index a moment after the text or
/// the library changed, for the lines near the view. Ctrl+Enter on a Markdown link opens it
/// as Ctrl+click does.
final class EditorNoteLinks {
    private let textView: TextView
    private let buffer: TextBuffer
    private let links: EditorLinks
    /// Opens the note titled so (the title as written, the heading it names, and where the
    /// link is in the view).
    var onOpenTitle: ((String, _ heading: String?, _ x: Int, _ y: Int) -> Void)?
    /// Which of these title keys some note has (the index, off the main thread).
    var existingTitles: ((Set<String>, @escaping @MainActor (Set<String>) -> Void) -> Void)?
    /// The lines near the view, and the block state a line starts in (the highlighter's).
    var visibleLines: () -> ClosedRange<Int> = { 0...80 }
    var enteringState: (Int) -> MarkdownBlockState = { _ in .outside }
    private var pending: DispatchWorkItem?
    /// Links marked missing (tests read them back: the titles as written).
    private(set) var missing: [String] = []

    init(textView: TextView, buffer: TextBuffer, links: EditorLinks, dark: Bool) {
        self.textView = textView
        self.buffer = buffer
        self.links = links
        buffer.defineTag(MarkdownTheme.missingNoteLinkTag, style: MarkdownTheme.missingNoteLinkStyle(dark: dark))
        let click = ClickGesture(button: 1)
        click.runBeforeWidget()
        click.onPressed { [weak self] gesture, count, x, y in
            guard let self, count == 1, gesture.currentModifiers & Key.primaryMask != 0,
                  let offset = textView.offset(atViewPoint: x, y), let link = self.noteLink(atOffset: offset) else { return }
            gesture.claim()
            self.onOpenTitle?(link.title, link.heading, Int(x), Int(y))
        }
        textView.addController(click)
        // Before the Markdown keys' Ctrl+Enter (toggle the task): in a link, it opens the link.
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] _, key, modifiers in
            guard let self, key == Key.returnKey || key == Key.kpEnter, modifiers & Key.modifierMask == Key.primaryMask else { return false }
            return self.openAtCursor()
        }
        textView.addController(keys)
    }

    func setDark(_ dark: Bool) {
        buffer.defineTag(MarkdownTheme.missingNoteLinkTag, style: MarkdownTheme.missingNoteLinkStyle(dark: dark))
    }

    /// Opens the link the cursor is in (Ctrl+Enter); false when it is in none.
    @discardableResult
    func openAtCursor() -> Bool {
        let cursor = buffer.cursorOffset
        if let link = noteLink(atOffset: cursor) ?? (cursor > 0 ? noteLink(atOffset: cursor - 1) : nil) {
            let rect = textView.rectangle(atOffset: cursor)
            let point = textView.viewPoint(fromBufferPoint: rect.x, rect.y + rect.height)
            onOpenTitle?(link.title, link.heading, point.x, point.y)
            return true
        }
        if let link = links.link(atOffset: cursor) ?? (cursor > 0 ? links.link(atOffset: cursor - 1) : nil) {
            return links.open(link.address)
        }
        return false
    }

    /// The `[[link]]` at a character of the text, outside code.
    func noteLink(atOffset offset: Int) -> WikiLink? {
        let line = buffer.line(atOffset: offset)
        guard !enteringState(line).isInCodeBlock else { return nil }
        let column = offset - buffer.startOffset(ofLine: line)
        return WikiLink.links(inLine: buffer.text(ofLine: line)).first { $0.range.contains(column) }
    }

    /// The text or the library changed: links are looked up again shortly.
    func needsMarking(after milliseconds: Int = 300) {
        pending?.cancel()
        let work = DispatchWorkItem { [weak self] in self?.mark() }
        pending = work
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: work)
    }

    /// Marks the links near the view whose titles no note has.
    func mark() {
        let visible = visibleLines()
        let lines = max(0, visible.lowerBound - 200)..<min(buffer.lineCount, visible.upperBound + 200)
        var found: [(range: Range<Int>, title: String, key: String)] = []
        for line in lines {
            let text = buffer.text(ofLine: line)
            guard text.contains("[["), !enteringState(line).isInCodeBlock else { continue }
            let start = buffer.startOffset(ofLine: line)
            for link in WikiLink.links(inLine: text) {
                found.append((start + link.range.lowerBound..<start + link.range.upperBound, link.title, link.key))
            }
        }
        let region = lines.isEmpty ? 0..<0 : buffer.startOffset(ofLine: lines.lowerBound)..<buffer.characterCount
        guard !found.isEmpty else {
            buffer.removeTag(MarkdownTheme.missingNoteLinkTag, from: region)
            missing = []
            return
        }
        let text = buffer.text
        existingTitles?(Set(found.map(\.key))) { [weak self] existing in
            guard let self, self.buffer.holdsExactly(text) else { return }  // typed on: the next marking comes
            self.buffer.removeTag(MarkdownTheme.missingNoteLinkTag, from: region)
            let absent = found.filter { !existing.contains($0.key) }
            for link in absent { self.buffer.applyTag(MarkdownTheme.missingNoteLinkTag, to: link.range) }
            self.missing = absent.map(\.title)
        }
    }
}

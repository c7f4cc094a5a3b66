import Gtk

/// The editor pane: a word-wrapping text view, a banner for read-only notes, and a
/// placeholder while no note is open. It reports edits; it does not save.
final class EditorView {
    let root = Stack()
    let buffer = TextBuffer()
    let textView: TextView
    private let banner = Box(.horizontal, spacing: 8)
    private let bannerLabel = Label()
    private var isLoading = false

    /// The user changed the text (not a load).
    var onEdit: ((String) -> Void)?

    init() {
        textView = TextView(buffer: buffer)
        textView.setTextMargins(horizontal: 24, vertical: 18)
        textView.setPixelsBetweenLines(above: 0, below: 2)
        textView.addCSSClass("editor")
        textView.accessibleLabel = "Note text"
        textView.vexpand = true
        textView.hexpand = true

        bannerLabel.wraps = true
        bannerLabel.xalign = 0
        bannerLabel.hexpand = true
        banner.addCSSClass("read-only-banner")
        banner.append(bannerLabel)
        banner.isVisible = false

        let scroller = ScrolledWindow()
        scroller.scrollVerticallyOnly()
        scroller.child = textView
        scroller.vexpand = true

        let page = Box(.vertical)
        page.append(banner)
        page.append(scroller)

        let placeholder = Label("Select a note, or press Ctrl+N to write a new one")
        placeholder.addCSSClass("empty-state")
        placeholder.wraps = true

        root.add(page, name: "editor")
        root.add(placeholder, name: "placeholder")
        root.visibleChildName = "placeholder"
        root.hexpand = true

        buffer.onChanged { [weak self] buffer in
            guard let self, !self.isLoading else { return }
            self.onEdit?(buffer.text)
        }
    }

    /// Shows a note's text; loading is not an edit and cannot be undone.
    func show(text: String, readOnlyReason: String?) {
        isLoading = true
        buffer.load(text)
        isLoading = false
        textView.isEditable = readOnlyReason == nil
        bannerLabel.text = readOnlyReason ?? ""
        banner.isVisible = readOnlyReason != nil
        root.visibleChildName = "editor"
    }

    func showPlaceholder() {
        isLoading = true
        buffer.load("")
        isLoading = false
        banner.isVisible = false
        root.visibleChildName = "placeholder"
    }

    var isShowingNote: Bool { root.visibleChildName == "editor" }

    func focusText() { textView.grabFocus() }
}

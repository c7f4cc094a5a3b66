import Gtk

/// On a wide window, the text keeps a comfortable line length and is centred, as in GNOME Text
/// Editor: the left and right margins grow with the view's width. Off (Preferences), the text
/// fills the width.
final class ReadableWidth {
    /// About 80 characters of the editor's 12 pt font.
    static let maximumTextWidth = 720
    /// Room for a task's check box left of the text, clear of the pane separator's grab area
    /// (it takes presses up to ~15 px into the editor).
    static let minimumMargin = 40

    private let textView: TextView
    private let scroller: ScrolledWindow
    var isOn = true {
        didSet { update() }
    }
    /// The text's size relative to 12 pt (the editor's zoom): the line length grows with it.
    var scale = 1.0 {
        didSet { update() }
    }

    init(textView: TextView, scroller: ScrolledWindow) {
        self.textView = textView
        self.scroller = scroller
        scroller.onWidthChanged { [weak self] _ in self?.update() }
    }

    private func update() {
        let width = Int(scroller.visibleWidth)
        let spare = width - Int(Double(Self.maximumTextWidth) * scale) - 2 * Self.minimumMargin
        let margin = isOn && spare > 0 ? Self.minimumMargin + spare / 2 : Self.minimumMargin
        textView.setHorizontalMargins(left: margin, right: margin)
    }
}

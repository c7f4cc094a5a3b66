import Gtk
import NotesCore

/// Links in the editor: hovering one shows its address (and a hand pointer); Ctrl+click or the
/// context menu's Open Link hands web and mail addresses to the desktop (`gtk_show_uri`);
/// Copy Link Address copies any. Other schemes and `file:` are never opened: a note from
/// elsewhere must not run programs or open local files with one click.
final class EditorLinks {
    private let textView: TextView
    private let buffer: TextBuffer
    private let openAction = SimpleAction(name: "open-link")
    private let copyAction = SimpleAction(name: "copy-link")
    /// The link under the pointer at the last right-click (the context menu acts on it).
    private var menuLink: MarkdownLink?
    private var hovered: String?
    /// Every address handed to the desktop (tests read it back).
    private(set) var opened: [String] = []

    init(textView: TextView, buffer: TextBuffer) {
        self.textView = textView
        self.buffer = buffer
        let motion = MotionController()
        motion.onMotion { [weak self] _, x, y in self?.hover(x, y) }
        textView.addController(motion)

        let click = ClickGesture(button: 1)
        click.runBeforeWidget()
        click.onPressed { [weak self] gesture, count, x, y in
            guard let self, count == 1, gesture.currentModifiers & Key.primaryMask != 0,
                  let link = self.link(atViewPoint: x, y), link.isOpenable else { return }
            gesture.claim()
            self.open(link.address)
        }
        textView.addController(click)

        let secondary = ClickGesture(button: 3)
        secondary.runBeforeWidget()
        secondary.onPressed { [weak self] _, _, x, y in self?.prepareMenu(for: self?.link(atViewPoint: x, y)) }
        textView.addController(secondary)

        openAction.onActivate { [weak self] _ in if let address = self?.menuLink?.address { self?.open(address) } }
        copyAction.onActivate { [weak self] _ in if let address = self?.menuLink?.address { self?.textView.copyToClipboard(address) } }
        textView.addActions([openAction, copyAction], prefix: "editor")
        let menu = Menu()
        menu.append(tr("Open Link"), action: "editor.open-link")
        menu.append(tr("Copy Link Address"), action: "editor.copy-link")
        textView.setExtraMenu(menu)
        prepareMenu(for: nil)
    }

    /// The link at a character of the text, if any.
    func link(atOffset offset: Int) -> MarkdownLink? {
        let line = buffer.line(atOffset: offset)
        let start = buffer.startOffset(ofLine: line)
        let column = offset - start
        return MarkdownEditing.links(in: buffer.text(ofLine: line)).first { $0.range.contains(column) }
    }

    /// Opens a link's address if it is a web or mail address; false otherwise.
    @discardableResult
    func open(_ address: String) -> Bool {
        guard MarkdownLink(range: 0..<0, address: address).isOpenable else { return false }
        opened.append(address)
        textView.showURI(address)
        return true
    }

    private func link(atViewPoint x: Double, _ y: Double) -> MarkdownLink? {
        textView.offset(atViewPoint: x, y).flatMap(link(atOffset:))
    }

    private func hover(_ x: Double, _ y: Double) {
        let address = link(atViewPoint: x, y)?.address
        guard address != hovered else { return }
        hovered = address
        // TRANSLATORS: the tooltip of a link in a note; %s is the link's address.
        textView.tooltip = address.map { MarkdownLink(range: 0..<0, address: $0).isOpenable ? tr("%s\nCtrl+click to open", $0) : $0 }
        textView.setCursor(address == nil ? "text" : "pointer")
    }

    private func prepareMenu(for link: MarkdownLink?) {
        menuLink = link
        openAction.isEnabled = link?.isOpenable ?? false
        copyAction.isEnabled = link != nil
    }
}

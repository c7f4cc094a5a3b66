import Foundation
import Gtk
import NotesCore

/// Links in the editor: hovering one shows its address (and a hand pointer); Ctrl+click or the
/// context menu's Open Link opens it; Copy Link Address copies any. Web and mail addresses go
/// to the desktop (`Widget.showURI`). A relative address is read against the note's folder
/// (`LibraryLinkResolver`): another note opens in Notula; another file of the library opens
/// with the desktop's default application — after a question when it could run as a program
/// (an executable bit, a script, a desktop entry) —, a missing one is a notice. Everything
/// else (`file:`, absolute paths, ways out of the library, other schemes) is never opened, and
/// the tooltip says why: a note from elsewhere must not run programs or open files with a click.
final class EditorLinks {
    /// What opening a link did (tests read it back).
    enum Outcome: Equatable {
        /// Handed to the desktop: a web or mail address, or a library file's file:// URI.
        case desktop(String)
        case note(String)
        /// A file that might run: the user was asked first.
        case asked(URL)
        case missing(URL)
        case refused(LinkRefusal)
    }

    private let textView: TextView
    private let buffer: TextBuffer
    /// The links section of the text view's context menu (Open Link, Copy Link Address).
    let menu = Menu()
    private let openAction = SimpleAction(name: "open-link")
    private let copyAction = SimpleAction(name: "copy-link")
    /// The link under the pointer at the last right-click (the context menu acts on it).
    private var menuLink: MarkdownLink?
    private var hovered: String?
    /// Every address handed to the desktop (tests read it back).
    private(set) var opened: [String] = []
    /// Every decision `open` made, in order (tests).
    private(set) var outcomes: [Outcome] = []
    /// The question asked before opening a file that might run (tests answer it).
    private(set) var question: MessageDialog?
    /// Where the shown note is (the editor's `noteLocation`).
    var noteLocation: (() -> NoteLocation?)?
    /// Opens a note of the library (its id) in the window, at the heading a `#fragment` names.
    var onOpenNote: ((String, _ heading: String?) -> Void)?
    /// `[](#heading)`: the cursor to that heading of the note shown.
    var goToHeading: ((String) -> Bool)?
    /// A brief notice in the window (a linked file is missing).
    var onNotice: ((String) -> Void)?
    /// The window questions are asked over.
    var parentWindow: (() -> Window?)?
    /// Hands an address to the desktop (tests keep the desktop's applications closed).
    var showOnDesktop: ((String) -> Void)?

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
                  let link = self.link(atViewPoint: x, y) else { return }
            // Refused: the click only places the cursor, as on plain text.
            guard self.canOpen(link.address) else { return LinksReport.address(link.address, handedToDesktop: false) }
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
        menu.append(tr("Open Link"), action: "editor.open-link")
        menu.append(tr("Copy Link Address"), action: "editor.copy-link")
        prepareMenu(for: nil)
    }

    /// The link at a character of the text, if any.
    func link(atOffset offset: Int) -> MarkdownLink? {
        let line = buffer.line(atOffset: offset)
        let start = buffer.startOffset(ofLine: line)
        let column = offset - start
        return MarkdownEditing.links(in: buffer.text(ofLine: line)).first { $0.range.contains(column) }
    }

    /// Where a relative address leads, or why it is not opened; nil for web and mail addresses.
    func target(of address: String) -> Result<LinkTarget, LinkRefusal>? {
        if MarkdownLink(range: 0..<0, address: address).isOpenable { return nil }
        guard let location = noteLocation?() else { return .failure(.notRelative) }
        return LibraryLinkResolver(library: location.library).resolve(address, from: location)
    }

    private func canOpen(_ address: String) -> Bool {
        if case .failure = target(of: address) { return false }
        return true
    }

    /// Opens a link's address (see the type's comment); false when it is refused.
    @discardableResult
    func open(_ address: String) -> Bool {
        switch target(of: address) {
        case nil:
            opened.append(address)
            outcomes.append(.desktop(address))
            LinksReport.address(address, handedToDesktop: true)
            showOnDesktop.map { $0(address) } ?? textView.showURI(address)
        case .failure(let refusal)?:
            outcomes.append(.refused(refusal))
            LinksReport.address(address, handedToDesktop: false)
            return false
        case .success(.note(let id))?:
            outcomes.append(.note(id))
            let fragment = address.firstIndex(of: "#").map { String(address[address.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
            if address.trimmingCharacters(in: .whitespaces).hasPrefix("#"), let fragment {
                if goToHeading?(fragment) == false {
                    // TRANSLATORS: a toast: a link such as [top](#plan) names a heading the note does not have.
                    onNotice?(tr("This note has no heading “%s”", String(fragment.prefix(80))))
                }
            } else {
                onOpenNote?(id, fragment)
            }
        case .success(.file(let url))?:
            openFile(url)
        }
        return true
    }

    private func openFile(_ url: URL) {
        let facts = FileFacts.of(path: url.path)
        switch facts.kind {
        case .missing:
            outcomes.append(.missing(url))
            // TRANSLATORS: a notice: a link in the note names a file that is not there; %s is its name.
            onNotice?(tr("“%s” is not in the library", url.lastPathComponent))
        case .other:
            // A pipe or a device: opening it could hang the program that gets it.
            outcomes.append(.refused(.invalid))
            // TRANSLATORS: a notice: a link in the note names something that is not a file (a pipe, a device); %s is its name.
            onNotice?(tr("“%s” is not a file that can be opened", url.lastPathComponent))
        case .regular where facts.mightRun:
            outcomes.append(.asked(url))
            ask(toOpen: url)
        case .regular, .folder:
            handToDesktop(url)
        }
    }

    private func handToDesktop(_ url: URL) {
        let uri = url.absoluteString
        opened.append(uri)
        outcomes.append(.desktop(uri))
        showOnDesktop.map { $0(uri) } ?? textView.showURI(uri)
    }

    /// "Open “x”?" with Cancel as the default: it may run a program someone put in the note.
    private func ask(toOpen url: URL) {
        question?.destroy()
        // TRANSLATORS: a question before opening a linked file that could run as a program; %s is its name.
        let dialog = MessageDialog(parent: parentWindow?(), text: tr("Open “%s”?", url.lastPathComponent),
                                   // TRANSLATORS: why Notula asks before opening a file linked from a note.
                                   secondaryText: tr("It is a program, a script or a launcher: opening it may run it. Open it only if you trust where it came from."))
        dialog.addButton(tr("Cancel"), response: 0)
        // TRANSLATORS: a button: opens the linked file although it may run a program.
        dialog.addButton(tr("Open"), response: 1, role: .destructive)
        dialog.setDefaultResponse(0)
        dialog.onResponse { [weak self] dialog, response in
            if response == 1 { self?.handToDesktop(url) }
            dialog.destroy()
            if self?.question === dialog { self?.question = nil }
        }
        question = dialog
        dialog.present()
    }

    private func link(atViewPoint x: Double, _ y: Double) -> MarkdownLink? {
        textView.offset(atViewPoint: x, y).flatMap(link(atOffset:))
    }

    /// The tooltip of a link: its address, and how to open it or why it is not opened.
    func tooltip(for address: String) -> String {
        if case .failure(let refusal) = target(of: address) {
            // TRANSLATORS: the tooltip of a link Notula does not open; %1$s is its address, %2$s why.
            return tr("%1$s\nNot opened: %2$s", address, Self.reason(refusal))
        }
        // TRANSLATORS: the tooltip of a link in a note; %s is the link's address.
        return tr("%s\nCtrl+click to open", address)
    }

    static func reason(_ refusal: LinkRefusal) -> String {
        switch refusal {
        // TRANSLATORS: why a link is not opened (follows "Not opened: ").
        case .notRelative: return tr("only web and mail addresses and files in the notes folder open from notes.")
        // TRANSLATORS: why a link is not opened (follows "Not opened: ").
        case .outsideLibrary: return tr("it points outside the notes folder.")
        // TRANSLATORS: why a link is not opened (follows "Not opened: ").
        case .privateFolder: return tr("it points into Notula’s own files.")
        // TRANSLATORS: why a link is not opened (follows "Not opened: ").
        case .invalid: return tr("it is not a valid address.")
        }
    }

    private func hover(_ x: Double, _ y: Double) {
        let address = link(atViewPoint: x, y)?.address
        guard address != hovered else { return }
        hovered = address
        textView.tooltip = address.map(tooltip(for:))
        textView.setCursor(address == nil ? "text" : "pointer")
    }

    private func prepareMenu(for link: MarkdownLink?) {
        menuLink = link
        openAction.isEnabled = link.map { canOpen($0.address) } ?? false
        copyAction.isEnabled = link != nil
    }
}

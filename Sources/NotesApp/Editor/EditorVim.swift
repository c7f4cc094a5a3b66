import Gtk

/// Vim keys (Preferences ▸ Editor ▸ "Vim keys", off by default, issue #48): GtkSourceView's
/// Vim input method on the text view, and its command bar under the text (the mode, the `:`
/// command being typed, a command's keys so far). `:w` saves the note now and `:q` closes
/// the window the note is in, as Ctrl+W does (`:wq` and `:x` both); other commands are
/// GtkSourceView's own. While keys are Vim's commands (normal and visual modes) the Markdown
/// keys stand aside; in insert mode they continue lists as without Vim.
final class EditorVim {
    let root = Label()
    private let textView: SourceView
    private var vim: VimInput?
    /// `:w`: the note saved now.
    var onWrite: (() -> Void)?

    init(textView: SourceView) {
        self.textView = textView
        root.addCSSClass("note-meta")
        root.addCSSClass("vim-command-bar")
        root.xalign = 0
        root.hexpand = true
        root.setMargins(top: 2, bottom: 4, start: 12, end: 12)
        root.isVisible = false
    }

    var isOn: Bool {
        get { vim != nil }
        set {
            guard newValue != isOn else { return }
            if newValue {
                let vim = VimInput(view: textView)
                vim.onTextsChanged { [weak self] _ in self?.showBar() }
                vim.onCommand { [weak self] _, command in self?.run(command) ?? false }
                self.vim = vim
            } else {
                vim?.detach()
                vim = nil
            }
            root.isVisible = newValue
            showBar()
        }
    }

    /// Keys are Vim's commands now (normal or visual mode), not text typed.
    var takesCommands: Bool { vim.map { !$0.typesText } ?? false }

    private func showBar() {
        guard let vim else { return root.text = "" }
        let bar = vim.commandBarText, pending = vim.commandText
        root.text = pending.isEmpty ? bar : (bar.isEmpty ? pending : "\(bar)  \(pending)")
    }

    /// The `:` commands Notula does itself; false leaves one to GtkSourceView.
    private func run(_ command: String) -> Bool {
        var words = command.split(separator: " ", omittingEmptySubsequences: true)
        if words.first?.hasPrefix(":") == true { words[0] = words[0].dropFirst() }
        guard words.count == 1 else { return false }
        switch words[0].filter({ $0 != "!" }) {
        case "w", "write":
            onWrite?()
        case "q", "quit", "close":
            close()
        case "wq", "x", "xit", "exit":
            onWrite?()
            close()
        default:
            return false
        }
        return true
    }

    /// The window the note is in closes, as with Ctrl+W (a note's text is saved as it closes).
    private func close() {
        textView.activateAction("window.close")
    }
}

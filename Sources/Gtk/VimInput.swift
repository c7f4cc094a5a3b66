import CGtk

/// GtkSourceView's Vim emulation on a source view: its input method
/// (GtkSourceVimIMContext) fed by a key controller that sees keys before the view. Removed
/// again with `detach()`; the view then types as before.
public final class VimInput: Object {
    private let keys = KeyController()
    private weak var view: SourceView?

    public init(view: SourceView) {
        super.init(UnsafeMutableRawPointer(gtk_source_vim_im_context_new()!), .full)
        self.view = view
        gtk_event_controller_key_set_im_context(OpaquePointer(keys.raw), ptr())
        keys.runBeforeWidget()
        gtk_im_context_set_client_widget(ptr(), view.widget)
        view.addController(keys)
    }

    /// Vim's command bar: the mode ("-- INSERT --") or the `:` command being typed ("" when
    /// it has none, as once detached).
    public var commandBarText: String { gtk_source_vim_im_context_get_command_bar_text(OpaquePointer(raw)).map { String(cString: $0) } ?? "" }
    /// The keys of a command not finished yet ("d2" of "d2w").
    public var commandText: String { gtk_source_vim_im_context_get_command_text(OpaquePointer(raw)).map { String(cString: $0) } ?? "" }

    /// Keys type text now (insert or replace mode), rather than being Vim's commands.
    public var typesText: Bool {
        let bar = commandBarText
        return bar.hasPrefix("-- INSERT") || bar.hasPrefix("-- REPLACE")
    }

    /// The command bar or the pending command changed.
    @discardableResult
    public func onTextsChanged(_ handler: @escaping (VimInput) -> Void) -> [SignalConnection] {
        [connectPointer("notify::command-bar-text", self) { vim, _ in handler(vim) },
         connectPointer("notify::command-text", self) { vim, _ in handler(vim) }]
    }

    /// A `:` command entered ("w", "q", "s/a/b/"): true when the handler did it, false leaves
    /// it to GtkSourceView.
    @discardableResult
    public func onCommand(_ handler: @escaping (VimInput, String) -> Bool) -> SignalConnection {
        connectPointerBool("execute-command", self) { vim, command in
            guard let command else { return false }
            return handler(vim, String(cString: command.assumingMemoryBound(to: CChar.self)))
        }
    }

    /// Back to the view's own typing.
    public func detach() {
        guard let view else { return }
        gtk_im_context_set_client_widget(ptr(), nil)
        gtk_widget_remove_controller(view.widget, OpaquePointer(keys.raw))
        self.view = nil
    }
}

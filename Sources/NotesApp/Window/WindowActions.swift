import Gtk

/// A window's `win.` actions, made and added in one place and enabled by name. Their names,
/// labels, keys and menu places are `ActionCatalog`'s; what they do is given here by the window
/// whose state they act on.
final class WindowActions {
    private let window: ApplicationWindow
    private var actions: [String: SimpleAction] = [:]

    init(window: ApplicationWindow) {
        self.window = window
    }

    func add(_ name: String, enabled: Bool = true, _ handler: @escaping @MainActor () -> Void) {
        let action = SimpleAction(name: name)
        action.onActivate { _ in handler() }
        put(action, enabled: enabled)
    }

    /// A check (Pin Note): `handler` gets the state asked for and says whether it took it;
    /// the check mark follows then.
    func addCheck(_ name: String, enabled: Bool = true, _ handler: @escaping @MainActor (Bool) -> Bool) {
        let action = SimpleAction(name: name, checked: false)
        action.onChangeState { action, value in
            if handler(value == "true") { action.isChecked = value == "true" }
        }
        put(action, enabled: enabled)
    }

    /// A choice among strings (Sort by): `handler` gets the value chosen and says whether it
    /// took it; the menu's radio items follow then.
    func addChoice(_ name: String, current: String, _ handler: @escaping @MainActor (String) -> Bool) {
        let action = SimpleAction(name: name, choice: current)
        action.onChangeState { action, value in
            if handler(value) { action.choice = value }
        }
        put(action, enabled: true)
    }

    /// Find, Find and Replace, Next and Previous Match in `editor`'s find bar (`find` decides
    /// where Ctrl+F finds: the main window, in the note or among all notes), and the outline.
    func addFinding(in editor: EditorView, find: @escaping @MainActor () -> Void) {
        add("find", find)
        add("replace") { [weak editor] in
            guard let editor, editor.isShowingNote, editor.isEditable else { return }
            editor.findBar.open(replacing: true)
        }
        add("find-next") { [weak editor] in editor?.findBar.next() }
        add("find-previous") { [weak editor] in editor?.findBar.previous() }
        add("outline") { [weak editor] in
            guard let editor, editor.isShowingNote else { return }
            editor.outline.open()
        }
    }

    func setEnabled(_ enabled: Bool, _ names: String...) {
        for name in names { actions[name]?.isEnabled = enabled }
    }

    func setChecked(_ checked: Bool, _ name: String) {
        actions[name]?.isChecked = checked
    }

    private func put(_ action: SimpleAction, enabled: Bool) {
        action.isEnabled = enabled
        actions[action.name] = action
        window.add(action)
    }
}

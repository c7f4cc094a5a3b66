import Gtk

extension Window {
    /// Escape (without modifiers) runs `action`: close, cancel, decide later.
    func onEscape(_ action: @escaping @MainActor () -> Void) {
        let keys = KeyController()
        keys.onKeyPressed { _, keyval, modifiers in
            guard keyval == Key.escape, modifiers & Key.modifierMask == 0 else { return false }
            action()
            return true
        }
        addController(keys)
    }
}

import Gtk
import NotesCore

/// Preferences ▸ Quick Note: the key that opens the Quick Note from anywhere (issue #48). On
/// GNOME a button shows GNOME's shortcut read back ("Ctrl+Alt+N", or "Not set"); clicked, it
/// takes the next key combination the user presses — Escape cancels, Backspace removes the
/// shortcut — and sets it through `QuickNoteShortcut`, or says who in GNOME has it already.
/// Elsewhere it shows the command to bind in the desktop's own keyboard settings.
final class QuickNoteShortcutRow {
    let root = Box(.vertical, spacing: 6)
    private let button = Button(label: "")
    private let detail = Label()
    private var isCapturing = false

    init(window: Window) {
        // TRANSLATORS: a heading in Preferences (the small window of `notula --quick-note`).
        let heading = Label(tr("Quick Note"))
        heading.addCSSClass("heading")
        heading.xalign = 0
        heading.setMargins(top: 18, bottom: 0, start: 0, end: 0)
        let row = Box(.horizontal, spacing: 12)
        // TRANSLATORS: a label in Preferences before the button that shows (and sets) the quick note's key.
        row.append(Label(tr("Shortcut")))
        row.append(button)
        detail.xalign = 0
        detail.wraps = true
        detail.isSelectable = true
        detail.addCSSClass("note-meta")
        for widget: Widget in [heading, row, detail] { root.append(widget) }
        button.onClicked { [weak self] _ in self?.startCapturing() }
        // Before the window's own keys (Escape closes Preferences) and the button's (Space, Enter).
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] _, keyval, modifiers in self?.pressed(keyval, modifiers) ?? false }
        window.addController(keys)
        refresh()
    }

    /// Shows GNOME's shortcut as it is now (or, elsewhere, the command to bind).
    func refresh(saying message: String? = nil) {
        isCapturing = false
        guard QuickNoteShortcut.isAvailable else {
            button.isVisible = false
            // TRANSLATORS: Preferences, outside GNOME: %s is the command that opens the Quick Note (notula --quick-note).
            detail.text = tr("Set a keyboard shortcut in your desktop’s settings that runs: %s", QuickNoteShortcut.command)
            return
        }
        let current = QuickNoteShortcut.current()
        // TRANSLATORS: the Quick Note shortcut button when no key is set.
        showOnButton(current.map(Accelerator.label) ?? tr("Not set"))
        detail.text = message ?? (current == nil
            // TRANSLATORS: Preferences on GNOME, before a quick note key is set.
            ? tr("Click and press keys to open a Quick Note from anywhere in GNOME.")
            // TRANSLATORS: Preferences on GNOME: %s is the command GNOME runs (notula --quick-note).
            : tr("GNOME runs “%s” when you press it, whatever window is in front.", QuickNoteShortcut.command))
    }

    private func startCapturing() {
        isCapturing = true
        // TRANSLATORS: the Quick Note shortcut button while it waits for the keys to set.
        showOnButton(tr("Press keys…"))
        // TRANSLATORS: Preferences, while the Quick Note shortcut button waits for keys.
        detail.text = tr("Press the keys for the Quick Note, with Ctrl, Alt or Super. Escape cancels; Backspace removes the shortcut.")
    }

    /// The button's text, and its name for screen readers (GTK names a button by its text).
    private func showOnButton(_ text: String) {
        button.label = text
        // TRANSLATORS: the accessible name of the button that sets the Quick Note's key; %s: what it shows (Ctrl+Alt+N, Not set).
        button.accessibleLabel = tr("Quick note shortcut: %s", text)
    }

    /// A key while capturing: taken, refused or set. False (not handled) otherwise.
    private func pressed(_ keyval: UInt32, _ modifiers: UInt32) -> Bool {
        guard isCapturing, !Accelerator.isModifier(keyval) else { return false }
        let plain = modifiers & Key.modifierMask == 0
        if plain, keyval == Key.escape { refresh(); return true }
        if plain, keyval == Key.backspace {
            QuickNoteShortcut.clear()
            refresh()
            return true
        }
        guard Accelerator.hasCommandModifier(modifiers), let accelerator = Accelerator.of(keyval: keyval, modifiers: modifiers) else {
            // TRANSLATORS: Preferences: a key pressed for the Quick Note without Ctrl, Alt or Super.
            detail.text = tr("A shortcut for the whole desktop needs Ctrl, Alt or Super. Press the keys again, or Escape.")
            return true
        }
        switch QuickNoteShortcut.bind(accelerator) {
        case .bound:
            refresh()
        case .taken(let owner):
            // TRANSLATORS: Preferences: %s is the keys (Super+N), %s what GNOME does with them (“Focus the active notification”).
            refresh(saying: tr("%s is already used by GNOME: “%s”. Choose other keys.", Accelerator.label(accelerator), owner))
        case .failed:
            // TRANSLATORS: Preferences: GNOME's settings could not be written.
            refresh(saying: tr("GNOME’s keyboard settings could not be changed. Set a custom shortcut in Settings ▸ Keyboard that runs: %s",
                               QuickNoteShortcut.command))
        }
        return true
    }
}

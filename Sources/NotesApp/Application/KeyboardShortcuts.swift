import Gtk

/// Every keyboard shortcut in one place: the application's accelerators are set from these,
/// and the Keyboard Shortcuts window (Ctrl+?) lists them, so the two cannot disagree.
enum KeyboardShortcuts {
    static let newNote = "<Control>n"
    static let search = "<Control>f"
    static let closeWindow = "<Control>w"
    static let quit = "<Control>q"
    static let preferences = "<Control>comma"
    static let showShortcuts = "<Control>question"
    // Not accelerators of actions, listed only: the notes list handles Delete, the text
    // view undoes and redoes, and the primary menu button opens on F10.
    static let deleteNote = "Delete"
    static let undo = "<Control>z"
    static let redo = "<Control><Shift>z"
    static let mainMenu = "F10"

    static let groups: [ShortcutsWindow.Group] = [
        .init("Notes", [
            .init("New Note", accelerator: newNote),
            .init("Search", accelerator: search),
            .init("Delete Note", accelerator: deleteNote),
        ]),
        .init("Editing", [
            .init("Undo", accelerator: undo),
            .init("Redo", accelerator: redo),
        ]),
        .init("Application", [
            .init("Main Menu", accelerator: mainMenu),
            .init("Preferences", accelerator: preferences),
            .init("Keyboard Shortcuts", accelerator: showShortcuts),
            .init("Close Window", accelerator: closeWindow),
            .init("Quit", accelerator: quit),
        ]),
    ]

    static func makeWindow() -> ShortcutsWindow {
        let window = ShortcutsWindow(groups: groups)
        window.title = "Keyboard Shortcuts"
        return window
    }
}

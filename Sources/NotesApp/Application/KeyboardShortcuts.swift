import Gtk

/// Every keyboard shortcut in one place: the application's accelerators are set from these,
/// and the Keyboard Shortcuts window (Ctrl+?) lists them, so the two cannot disagree.
enum KeyboardShortcuts {
    static let newNote = "<Control>n"
    /// Ctrl+F finds in the note while the text has the focus, and searches all notes
    /// elsewhere; Ctrl+Shift+F always searches all notes.
    static let find = "<Control>f"
    static let search = "<Control><Shift>f"
    static let replace = "<Control>h"
    static let browseVersions = "<Control><Shift>h"
    static let findNext = ["<Control>g", "F3"]
    static let findPrevious = ["<Control><Shift>g", "<Shift>F3"]
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
    // Handled by the editor's Markdown keys (MarkdownKeys), listed only.
    static let bold = "<Control>b"
    static let italic = "<Control>i"
    static let link = "<Control>k"
    static let toggleTask = "<Control>Return"
    static let indent = "Tab"
    static let outdent = "<Shift>Tab"
    static let continueList = "Return"

    static let groups: [ShortcutsWindow.Group] = [
        .init("Notes", [
            .init("New Note", accelerator: newNote),
            .init("Search", accelerator: search),
            .init("Search (from the list)", accelerator: find),
            .init("Delete Note", accelerator: deleteNote),
            .init("Browse Versions", accelerator: browseVersions),
        ]),
        .init("Editing", [
            .init("Undo", accelerator: undo),
            .init("Redo", accelerator: redo),
            .init("Find in Note (in the text)", accelerator: find),
            .init("Find and Replace in Note", accelerator: replace),
            .init("Next Match", accelerator: findNext.joined(separator: " ")),
            .init("Previous Match", accelerator: findPrevious.joined(separator: " ")),
        ]),
        .init("Markdown", [
            .init("Bold", accelerator: bold),
            .init("Italic", accelerator: italic),
            .init("Link", accelerator: link),
            .init("Continue or End a List", accelerator: continueList),
            .init("Indent List Item", accelerator: indent),
            .init("Outdent List Item", accelerator: outdent),
            .init("Toggle Task", accelerator: toggleTask),
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

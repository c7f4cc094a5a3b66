import Gtk
import NotesCore

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
    static let insertFile = "<Control><Shift>i"
    static let findNext = ["<Control>g", "F3"]
    static let findPrevious = ["<Control><Shift>g", "<Shift>F3"]
    static let closeWindow = "<Control>w"
    static let quit = "<Control>q"
    static let zoomIn = ["<Control>plus", "<Control>equal", "<Control>KP_Add"]
    static let zoomOut = ["<Control>minus", "<Control>KP_Subtract"]
    static let zoomReset = ["<Control>0", "<Control>KP_0"]
    static let openInNewWindow = "<Control><Shift>n"
    static let printNote = "<Control>p"
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
    // Handled by the editor's spelling (EditorSpelling), listed only.
    static let nextMisspelling = "F7"
    static let previousMisspelling = "<Shift>F7"
    static let contextMenu = "<Shift>F10"  // the Menu key too (GTK would print its name untranslated)

    static let groups: [ShortcutsWindow.Group] = [
        // TRANSLATORS: a section title in the Keyboard Shortcuts window.
        .init(tr("Notes"), [
            .init(tr("New Note"), accelerator: newNote),
            .init(tr("Search"), accelerator: search),
            // TRANSLATORS: Ctrl+F searches all notes while the notes list has the focus.
            .init(tr("Search (from the list)"), accelerator: find),
            .init(tr("Delete Note"), accelerator: deleteNote),
            .init(tr("Browse Versions"), accelerator: browseVersions),
            .init(tr("Open in New Window"), accelerator: openInNewWindow),
            .init(tr("Print…"), accelerator: printNote),
        ]),
        // TRANSLATORS: a section title in the Keyboard Shortcuts window.
        .init(tr("Editing"), [
            .init(tr("Undo"), accelerator: undo),
            .init(tr("Redo"), accelerator: redo),
            .init(tr("Find in Note (in the text)"), accelerator: find),
            .init(tr("Find and Replace in Note"), accelerator: replace),
            .init(tr("Insert Picture or File…"), accelerator: insertFile),
            .init(tr("Next Match"), accelerator: findNext.joined(separator: " ")),
            .init(tr("Previous Match"), accelerator: findPrevious.joined(separator: " ")),
            // TRANSLATORS: a shortcut: selects the next word the spelling check marked.
            .init(tr("Next Misspelled Word"), accelerator: nextMisspelling),
            .init(tr("Previous Misspelled Word"), accelerator: previousMisspelling),
            // TRANSLATORS: a shortcut: opens the text's context menu (with spelling suggestions for the word at the cursor).
            .init(tr("Context Menu (Spelling Suggestions)"), accelerator: contextMenu),
        ]),
        // TRANSLATORS: a section title in the Keyboard Shortcuts window (the text format).
        .init(tr("Markdown"), [
            // TRANSLATORS: a shortcut: makes the selected text bold.
            .init(tr("Bold"), accelerator: bold),
            // TRANSLATORS: a shortcut: makes the selected text italic.
            .init(tr("Italic"), accelerator: italic),
            // TRANSLATORS: a shortcut: makes the selected text a link (a verb).
            .init(tr("Link"), accelerator: link),
            .init(tr("Continue or End a List"), accelerator: continueList),
            .init(tr("Indent List Item"), accelerator: indent),
            .init(tr("Outdent List Item"), accelerator: outdent),
            .init(tr("Toggle Task"), accelerator: toggleTask),
            // TRANSLATORS: a shortcut: opens the [[link]] or link the cursor is in (Ctrl+click does too).
            .init(tr("Open Link at Cursor"), accelerator: toggleTask),
        ]),
        // TRANSLATORS: a section title in the Keyboard Shortcuts window.
        .init(tr("Application"), [
            .init(tr("Main Menu"), accelerator: mainMenu),
            .init(tr("Preferences"), accelerator: preferences),
            // TRANSLATORS: shortcuts: make the editor's text larger, smaller, or its normal size again.
            .init(tr("Zoom In"), accelerator: zoomIn[0]),
            .init(tr("Zoom Out"), accelerator: zoomOut[0]),
            .init(tr("Normal Size"), accelerator: zoomReset[0]),
            .init(tr("Keyboard Shortcuts"), accelerator: showShortcuts),
            .init(tr("Close Window"), accelerator: closeWindow),
            .init(tr("Quit"), accelerator: quit),
        ]),
    ]

    static func makeWindow() -> ShortcutsWindow {
        // TRANSLATORS: accessible names of the Keyboard Shortcuts window's section menu, search button and search field.
        let names = ShortcutsWindow.ControlNames(sections: tr("Choose a Section"), searchButton: tr("Search"),
                                                 searchEntry: tr("Search Shortcuts"))
        let window = ShortcutsWindow(groups: groups, names: names)
        window.title = tr("Keyboard Shortcuts")
        return window
    }
}
